import type { Kysely } from 'kysely';

/**
 * `sandbox_instant_payment_fee`: the price list of instant (Straks) payments a TPP set for its own
 * sandbox (docs/design.md §2b), one row per TPP holding the tiers as JSON; without a row the
 * sandbox's default list applies.
 *
 * `payment.transaction_fee_minor` and `payment.transaction_fee_currency`: the fee the bank quoted
 * for an instant payment when it was initiated, answered as Berlin Group `transactionFees` on its
 * GET. Null for every other payment, and for instant payments made before this migration (their
 * GET then says nothing about fees, as the standard allows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sandbox_instant_payment_fee')
    .addColumn('tpp_id', 'text', (col) => col.primaryKey())
    .addColumn('tiers', 'text', (col) => col.notNull())
    .addColumn('changed_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.alterTable('payment').addColumn('transaction_fee_minor', 'bigint').execute();
  await db.schema.alterTable('payment').addColumn('transaction_fee_currency', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('transaction_fee_currency').execute();
  await db.schema.alterTable('payment').dropColumn('transaction_fee_minor').execute();
  await db.schema.dropTable('sandbox_instant_payment_fee').execute();
}
