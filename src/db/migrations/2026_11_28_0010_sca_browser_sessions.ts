import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * The browser an SCA redirect link belongs to.
 *
 * - `sca_browser_session`: the first browser that opens an authorisation's pages gets a session
 *   cookie; the row keeps the SHA-256 of its value (never the value) and that browser's CSRF
 *   token. Every later page and form post of the authorisation needs the cookie.
 * - `authorisation.csrf_token` goes: the CSRF token now belongs to the browser session. An
 *   authorisation open during the upgrade binds the next browser that opens its link.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sca_browser_session')
    .addColumn('authorisation_id', 'text', (col) => col.primaryKey().references('authorisation.id').onDelete('cascade'))
    .addColumn('session_hash', 'text', (col) => col.notNull())
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  await db.schema.alterTable('authorisation').dropColumn('csrf_token').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('authorisation')
    .addColumn('csrf_token', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema.dropTable('sca_browser_session').execute();
}
