/** Who did something the audit log records. */
export type ActorType = 'tpp' | 'psu' | 'system';

/** One thing that happened to a resource: who did it, in answer to which request, with what facts. */
export interface AuditEvent {
  readonly actor: { readonly type: ActorType; readonly id: string };
  readonly requestId?: string | undefined;
  readonly action: string;
  readonly resource: { readonly type: string; readonly id: string };
  readonly details?: Readonly<Record<string, unknown>>;
}

/** An event as stored: in the order written, with its time. */
export interface AuditEntry extends AuditEvent {
  readonly id: number;
  readonly occurredAt: string;
}
