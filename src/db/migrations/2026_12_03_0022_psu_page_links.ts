import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * The sandbox's links to the PSU's own page (`POST /v1/sandbox/psu-page-links`, docs/design.md §2b).
 *
 * - `psu_page_link`: a link a TPP obtained with a signed request; it opens the page on that TPP's
 *   sandbox bank. The row keeps the SHA-256 of the link's token (never the token), the TPP and
 *   when the link stops working.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);
  await db.schema
    .createTable('psu_page_link')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addColumn('expires_at', timestamp, (col) => col.notNull())
    .execute();
  // Expired links are deleted by age.
  await db.schema.createIndex('psu_page_link_expires_idx').on('psu_page_link').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('psu_page_link').execute();
}
