import { sql, type Kysely } from 'kysely';

/**
 * How long an account's statement is, without counting it: a page's `last` link needs the length
 * of the whole list, and counting 10 000 postings on every read cost more than reading the page.
 *
 * - `ledger_transaction.on_statement`: false for a posting that sets a balance (an opening
 *   balance, a balance adjustment) rather than moving money, so it is no statement line. Until
 *   now the sandbox left those out by their keys; the postings already recorded are marked by the
 *   same keys here.
 * - `ledger_statement_count`: per account, currency, booking date and status, how many statement
 *   lines (entries of postings on the statement) there are. Like ledger_balance, a cache of the
 *   entries that the ledger repository changes in the same transaction as them; filled here.
 * - `ledger_entry_account_idx` (account, currency) goes: ledger_entry_statement_idx begins with
 *   the same columns, and one index less is one page less to write per posting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ledger_transaction')
    .addColumn('on_statement', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
  // TRUE and FALSE are literals both databases know (SQLite stores them as 1 and 0).
  await sql`update ledger_transaction set on_statement = false
            where idempotency_key like 'sandbox:opening:%' or idempotency_key like 'sandbox:balance:%'`.execute(db);
  await db.schema
    .createTable('ledger_statement_count')
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('booking_date', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('lines', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_statement_count_pk', ['account_id', 'currency', 'booking_date', 'status'])
    .execute();
  await backfillStatementCounts(db);
  await db.schema.dropIndex('ledger_entry_account_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ledger_entry_account_idx').on('ledger_entry').columns(['account_id', 'currency']).execute();
  await db.schema.dropTable('ledger_statement_count').execute();
  await db.schema.alterTable('ledger_transaction').dropColumn('on_statement').execute();
}

/** Replaces every count with the statement lines recorded. */
async function backfillStatementCounts(db: Kysely<any>): Promise<void> {
  await sql`delete from ledger_statement_count`.execute(db);
  await sql`
    insert into ledger_statement_count (account_id, currency, booking_date, status, lines)
    select e.account_id, e.currency, e.booking_date, t.status, count(*)
    from ledger_entry e
    join ledger_transaction t on t.id = e.transaction_id
    where t.on_statement = true
    group by e.account_id, e.currency, e.booking_date, t.status`.execute(db);
}
