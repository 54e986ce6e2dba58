import type { Kysely } from 'kysely';
import { sequenceKeyColumn, timestampColumn } from './column-types.js';

/** The double-entry ledger of the sandbox bank: transactions and their entries. */
export async function up(db: Kysely<any>): Promise<void> {
  await sequenceKeyColumn(db, db.schema.createTable('ledger_transaction'), 'id')
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('booking_date', 'text', (col) => col.notNull())
    .addColumn('value_date', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .execute();

  await sequenceKeyColumn(db, db.schema.createTable('ledger_entry'), 'id')
    .addColumn('transaction_id', 'bigint', (col) => col.notNull().references('ledger_transaction.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('amount_minor', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('ledger_entry_account_idx').on('ledger_entry').columns(['account_id', 'currency']).execute();
  await db.schema.createIndex('ledger_entry_transaction_idx').on('ledger_entry').column('transaction_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_entry').execute();
  await db.schema.dropTable('ledger_transaction').execute();
}
