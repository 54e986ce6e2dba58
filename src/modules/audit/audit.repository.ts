import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { AuditEventTable } from './audit.table.js';
import type { ActorType, AuditEntry, AuditEvent } from './audit-event.js';

/** Events per insert statement. */
const APPEND_SLICE = 500;

/** An event's row: every column but the generated id. */
function rowOf(event: AuditEvent, at: string): Omit<AuditEventTable, 'id'> {
  return {
    occurred_at: at,
    actor_type: event.actor.type,
    actor_id: event.actor.id,
    request_id: event.requestId ?? null,
    action: event.action,
    resource_type: event.resource.type,
    resource_id: event.resource.id,
    details: JSON.stringify(event.details ?? {}),
  };
}

async function insertEvents(db: DbOrTx, events: readonly AuditEvent[], at: string): Promise<void> {
  await db
    .insertInto('audit_event')
    .values(events.map((event) => rowOf(event, at)))
    .execute();
}

/** One event: what nearly every request appends, so prepared once. */
const INSERT_ONE = preparedQuery((db, row: ReturnType<typeof rowOf>) => db.insertInto('audit_event').values(row), { deferrable: true });

/**
 * The audit log: append-only. Callers write an event in the same transaction as the change it
 * records, so the log never disagrees with the data.
 */
export const auditRepository = {
  async append(db: DbOrTx, event: AuditEvent, at: string): Promise<void> {
    await INSERT_ONE.run(db, rowOf(event, at));
  },

  /** Several events of one moment in one statement per 500 (a status change through several statuses; a batch run's chunk). */
  async appendAll(db: DbOrTx, events: readonly AuditEvent[], at: string): Promise<void> {
    // In slices: both databases cap the bound parameters of one statement (8 per event).
    for (let start = 0; start < events.length; start += APPEND_SLICE) {
      await insertEvents(db, events.slice(start, start + APPEND_SLICE), at);
    }
  },

  async listForResource(db: DbOrTx, type: string, id: string): Promise<AuditEntry[]> {
    const rows = await db
      .selectFrom('audit_event')
      .select(['id', 'occurred_at', 'actor_type', 'actor_id', 'request_id', 'action', 'resource_type', 'resource_id', 'details'])
      .where('resource_type', '=', type)
      .where('resource_id', '=', id)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      occurredAt: row.occurred_at,
      actor: { type: row.actor_type as ActorType, id: row.actor_id },
      requestId: row.request_id ?? undefined,
      action: row.action,
      resource: { type: row.resource_type, id: row.resource_id },
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
  },
};
