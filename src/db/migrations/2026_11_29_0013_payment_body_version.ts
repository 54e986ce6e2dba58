import type { Kysely } from 'kysely';

/**
 * The version of a payment's stored body (src/modules/payments/payment-document.ts).
 *
 * - `payment.body_version`: which version of the document `payment.body` holds. Every row written
 *   before this migration is version 1, the body as it has always been stored: the column default
 *   says so, and the server writes the version explicitly from now on. Adding a column with a
 *   constant default rewrites no rows, on SQLite and on PostgreSQL alike.
 *
 * No CHECK constraint on the status columns: SQLite adds constraints only by rebuilding the table,
 * and the columns' types (payment.table.ts, authorisation.table.ts) and the repositories' checks on
 * read already keep unknown values out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('payment')
    .addColumn('body_version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('body_version').execute();
}
