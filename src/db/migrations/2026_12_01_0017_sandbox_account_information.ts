import type { Kysely } from 'kysely';

/**
 * What the sandbox bank needs for account information (docs/design.md §2b, README "Sandbox data"):
 *
 * - `sandbox_account.credit_limit_minor`: the account's credit line, in its currency; included in
 *   interimAvailable and in the funds check. 0 for every account created before.
 * - `sandbox_card_transaction.exchange_rate`: card-currency units per unit of the original
 *   currency, for a purchase in a foreign currency.
 *
 * Columns with constant defaults: no rows rewritten, on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sandbox_account')
    .addColumn('credit_limit_minor', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sandbox_card_transaction').addColumn('exchange_rate', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sandbox_card_transaction').dropColumn('exchange_rate').execute();
  await db.schema.alterTable('sandbox_account').dropColumn('credit_limit_minor').execute();
}
