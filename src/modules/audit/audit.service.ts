import type { DbOrTx } from '../../db/create-db.js';
import type { AuditEvent } from './audit-event.js';
import { auditRepository } from './audit.repository.js';

/**
 * How other modules write the audit log (docs/design.md §3): always in the caller's transaction,
 * with the change the event records, so the log never disagrees with the data. Plain functions,
 * not a service built at start-up: every module writes here, and the log needs nothing of theirs.
 */
export const auditService = {
  async append(trx: DbOrTx, event: AuditEvent, at: string): Promise<void> {
    await auditRepository.append(trx, event, at);
  },

  /** Several events of one moment in one statement (a status change through several statuses). */
  async appendAll(trx: DbOrTx, events: readonly AuditEvent[], at: string): Promise<void> {
    await auditRepository.appendAll(trx, events, at);
  },
};
