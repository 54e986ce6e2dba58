import type { Kysely } from 'kysely';

/**
 * Corporate consents approved by two (docs/design.md §2b):
 *
 * - `sandbox_engagement.consent_needs_second_approver`: sharing the account's information with a
 *   TPP through this engagement takes a second approver of the same agreement. False for every
 *   engagement created before, so one approver suffices as it always did.
 *
 * A column with a constant default: no rows rewritten, on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sandbox_engagement')
    .addColumn('consent_needs_second_approver', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sandbox_engagement').dropColumn('consent_needs_second_approver').execute();
}
