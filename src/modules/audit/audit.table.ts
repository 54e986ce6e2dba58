import type { Generated } from 'kysely';

/** One thing that happened to a resource, who did it and when (docs/design.md §3: the audit trail). */
export interface AuditEventTable {
  /** Sequential: the order events were written in. */
  id: Generated<number>;
  occurred_at: string;
  /** tpp | psu | system */
  actor_type: string;
  actor_id: string;
  request_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string;
  /** JSON object with the facts of the event; never secrets. */
  details: string;
}
