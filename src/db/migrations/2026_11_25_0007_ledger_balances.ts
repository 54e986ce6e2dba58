import { sql, type Kysely } from 'kysely';

/**
 * One balance row per ledger account and currency, so a funds check reads one row instead of
 * summing the account's entries. The ledger repository updates it in the same transaction as the
 * entries; this migration fills it from the entries already recorded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_balance')
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('booked_minor', 'bigint', (col) => col.notNull())
    .addColumn('expected_minor', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_balance_pk', ['account_id', 'currency'])
    .execute();
  await backfillLedgerBalances(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_balance').execute();
}

/**
 * Replaces every balance row with the sums of the recorded entries: booked counts booked
 * transactions only, expected counts all of them. Exported so tests can check it on its own.
 */
export async function backfillLedgerBalances(db: Kysely<any>): Promise<void> {
  await sql`delete from ledger_balance`.execute(db);
  await sql`
    insert into ledger_balance (account_id, currency, booked_minor, expected_minor)
    select e.account_id, e.currency,
           sum(case when t.status = 'booked' then e.amount_minor else 0 end),
           sum(e.amount_minor)
    from ledger_entry e
    join ledger_transaction t on t.id = e.transaction_id
    group by e.account_id, e.currency`.execute(db);
}
