import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A balance at the end of a day (closingBooked) without summing the day's postings: the kept
 * booked sum less what was booked after that day. That took one read of a posting's entry and
 * transaction per entry booked since, so a read on a Monday, or of an account busy today, cost
 * as much as the postings it took off (bench/README.md, "A day's totals").
 *
 * `ledger_statement_count` becomes `ledger_day_total`, per account, currency, booking date and
 * status: `lines`, the statement lines as before, and `amount_minor`, the sum of every entry,
 * on the statement or not (a balance-setting posting moves a balance too). Its rows are now also
 * those of days with no statement line. Filled here from the entries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ledger_statement_count').renameTo('ledger_day_total').execute();
  await renamePrimaryKey(db, 'ledger_statement_count_pk', 'ledger_day_total_pk');
  await db.schema
    .alterTable('ledger_day_total')
    .addColumn('amount_minor', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`delete from ledger_day_total`.execute(db);
  // TRUE is a literal both databases know; SQLite stores on_statement as 1 and 0.
  await sql`
    insert into ledger_day_total (account_id, currency, booking_date, status, lines, amount_minor)
    select e.account_id, e.currency, e.booking_date, t.status,
           sum(case when t.on_statement = true then 1 else 0 end), sum(e.amount_minor)
    from ledger_entry e
    join ledger_transaction t on t.id = e.transaction_id
    group by e.account_id, e.currency, e.booking_date, t.status`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from ledger_day_total where lines = 0`.execute(db);
  await db.schema.alterTable('ledger_day_total').dropColumn('amount_minor').execute();
  await renamePrimaryKey(db, 'ledger_day_total_pk', 'ledger_statement_count_pk');
  await db.schema.alterTable('ledger_day_total').renameTo('ledger_statement_count').execute();
}

/**
 * PostgreSQL: the primary key (a constraint and its index) named after the table. SQLite keeps
 * the name only in the table's SQL, where nothing refers to it, and cannot rename it.
 */
async function renamePrimaryKey(db: Kysely<any>, from: string, to: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table ledger_day_total rename constraint ${sql.id(from)} to ${sql.id(to)}`.execute(db);
  }
}
