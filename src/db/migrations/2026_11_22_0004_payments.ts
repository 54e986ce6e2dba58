import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Payment initiations of every service (single, bulk, periodic), as submitted, with their status.
 * The body is kept as the TPP sent it (after validation) so `GET` can answer it back; the columns
 * beside it are what queries filter and sort on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('product', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('funds_available', 'boolean')
    .addColumn('request_id', 'text', (col) => col.notNull())
    .addColumn('psu_id', 'text')
    .addColumn('psu_corporate_id', 'text')
    .addColumn('debtor_account_id', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('amount_minor', 'bigint', (col) => col.notNull())
    .addColumn('requested_execution_date', 'text')
    .addColumn('logical_key', 'text')
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('request_context', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('status_changed_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  await db.schema.createIndex('payment_tpp_logical_key_idx').on('payment').columns(['tpp_id', 'logical_key']).execute();
  await db.schema.createIndex('payment_status_idx').on('payment').columns(['status', 'requested_execution_date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment').execute();
}
