import { sql, type Kysely } from 'kysely';

/**
 * An account's statement in the order it is read (newest booking date first, then the newest
 * posting), straight from an index: each entry carries its posting's booking date, which never
 * changes (booking a pending posting changes its status only). A page of 200 of a long history is
 * then a range scan of 200 entries instead of a sort of all of them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ledger_entry').addColumn('booking_date', 'text').execute();
  await sql`update ledger_entry set booking_date = (select t.booking_date from ledger_transaction t where t.id = ledger_entry.transaction_id)`.execute(
    db,
  );
  await db.schema
    .createIndex('ledger_entry_statement_idx')
    .on('ledger_entry')
    .columns(['account_id', 'currency', 'booking_date', 'transaction_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_entry_statement_idx').execute();
  await db.schema.alterTable('ledger_entry').dropColumn('booking_date').execute();
}
