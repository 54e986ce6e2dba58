import { sql, type Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Execution through the core-banking port (docs/design.md §3, §8): the server submits a payment to the
 * bank outside its own transaction, so what it submitted must be durable before the call.
 *
 * - `payment_submission`: one row per payment (item 0) or per payment of a bulk (item 1, 2, …),
 *   written before the bank is asked. `outcome` null means submitted (or about to be) with no
 *   answer recorded yet: a crash there is recovered by submitting again (the bank is idempotent
 *   by payment id and item), and no one but the executor may move the payment meanwhile.
 *   Otherwise the bank's last answer: executed, rejected (final), pending-funds or accepted.
 *   `reported`: what the bank's outcome feed said (executed, rejected) while the submission was
 *   still in flight, for the executor to use if the bank's own answer was `accepted`.
 * - `outcome_feed_cursor`: how far the server has read the bank's outcome feed.
 * - `sandbox_payment_outcome` / `sandbox_outcome_sequence`: the sandbox bank's outcome feed. The
 *   sequence is taken from a counter row whose lock is held until the submission commits, so
 *   sequence order is commit order: a poller never passes a number whose outcome commits later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_submission')
    .addColumn('payment_id', 'text', (col) => col.notNull())
    .addColumn('item', 'integer', (col) => col.notNull())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('submitted_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('outcome', 'text')
    .addColumn('reason', 'text')
    .addColumn('reported', 'text')
    .addColumn('reported_reason', 'text')
    .addPrimaryKeyConstraint('payment_submission_pk', ['payment_id', 'item'])
    .execute();
  // The in-flight submissions, found at every run for recovery.
  await sql`create index payment_submission_in_flight on payment_submission (tpp_id) where outcome is null`.execute(db);
  await db.schema
    .createTable('outcome_feed_cursor')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('cursor', 'text', (col) => col.notNull())
    .addColumn('updated_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_payment_outcome')
    .addColumn('seq', 'bigint', (col) => col.primaryKey())
    .addColumn('payment_id', 'text', (col) => col.notNull())
    .addColumn('item', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('recorded_at', timestampColumn(db), (col) => col.notNull())
    .addUniqueConstraint('sandbox_payment_outcome_payment', ['payment_id', 'item'])
    .execute();
  await db.schema
    .createTable('sandbox_outcome_sequence')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('last_seq', 'bigint', (col) => col.notNull())
    .execute();
  await db.insertInto('sandbox_outcome_sequence').values({ id: 1, last_seq: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_outcome_sequence').execute();
  await db.schema.dropTable('sandbox_payment_outcome').execute();
  await db.schema.dropTable('outcome_feed_cursor').execute();
  await db.schema.dropTable('payment_submission').execute();
}
