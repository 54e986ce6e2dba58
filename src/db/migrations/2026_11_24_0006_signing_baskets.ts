import { sql, type Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Signing baskets: a TPP's group of single payments that one PSU approves with one SCA.
 * The basket keeps the payment ids as the TPP listed them; the payment row says which open basket
 * holds it, so "one open basket per payment" is one guarded update, safe against a concurrent
 * basket taking the same payment. A basket has no status column: its status is computed from its
 * payments' statuses whenever it is read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_basket')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('psu_id', 'text', (col) => col.notNull())
    .addColumn('psu_corporate_id', 'text')
    .addColumn('payment_ids', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text', (col) => col.notNull())
    .addColumn('request_context', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('deleted_at', timestampColumn(db))
    .execute();
  await db.schema.alterTable('payment').addColumn('basket_id', 'text').execute();
  // Partial: most payments are in no basket, and their inserts then touch no entry of this index.
  await db.schema.createIndex('payment_basket_idx').on('payment').column('basket_id').where(sql.ref('basket_id'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payment_basket_idx').execute();
  await db.schema.alterTable('payment').dropColumn('basket_id').execute();
  await db.schema.dropTable('signing_basket').execute();
}
