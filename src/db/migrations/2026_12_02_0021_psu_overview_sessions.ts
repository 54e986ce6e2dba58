import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * The PSU's own page of consents and payments (`/psu/consents`, docs/design.md §2b).
 *
 * - `psu_overview_session`: one browser's visit. The row keeps the SHA-256 of its cookie's value
 *   (never the value), that browser's CSRF token, the bank it logs in to (the sandbox has one per
 *   TPP; '' in production), the PSU once identified, when the PSU was authenticated, how many
 *   one-time codes or IdP logins were checked, and when the visit ends.
 * - Indexes to find a PSU's consents and payments across TPPs (the page of a production bank's
 *   PSU lists them all): consent and payment by PSU, payment by debtor account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);
  await db.schema
    .createTable('psu_overview_session')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_hash', 'text', (col) => col.notNull().unique())
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('bank_scope', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('psu_id', 'text')
    .addColumn('authenticated_at', timestamp)
    .addColumn('code_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addColumn('expires_at', timestamp, (col) => col.notNull())
    .execute();
  // Ended visits are deleted by age.
  await db.schema.createIndex('psu_overview_session_expires_idx').on('psu_overview_session').column('expires_at').execute();
  await db.schema.createIndex('consent_psu_idx').on('consent').column('psu_id').execute();
  await db.schema.createIndex('payment_psu_idx').on('payment').column('psu_id').execute();
  await db.schema.createIndex('payment_debtor_account_idx').on('payment').column('debtor_account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payment_debtor_account_idx').execute();
  await db.schema.dropIndex('payment_psu_idx').execute();
  await db.schema.dropIndex('consent_psu_idx').execute();
  await db.schema.dropTable('psu_overview_session').execute();
}
