import type { TppTable, TppContactTable } from '../modules/tpps/tpp.table.js';
import type { IdempotencyRecordTable } from '../http/idempotency/idempotency.table.js';
import type { AuditEventTable } from '../modules/audit/audit.table.js';
import type { LedgerEntryTable, LedgerTransactionTable } from '../modules/ledger/ledger.table.js';

/** Every table, for Kysely's typing. Each module declares its own tables in `*.table.ts`. */
export interface Database {
  tpp: TppTable;
  tpp_contact: TppContactTable;
  idempotency_record: IdempotencyRecordTable;
  audit_event: AuditEventTable;
  ledger_transaction: LedgerTransactionTable;
  ledger_entry: LedgerEntryTable;
}
