import type { Kysely } from 'kysely';

/**
 * Reads of account information without the PSU present (docs/design.md §2b): `unattended_read`
 * holds, per consent, account and kind of read, the times of the latest reads (at most the
 * consent's frequencyPerDay, so at most 4), to allow at most that many in any 24 hours. One row
 * per key, replaced by a compare-and-set, so every server instance counts in the same place.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('unattended_read')
    .addColumn('consent_id', 'text', (col) => col.notNull())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('read_times', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('unattended_read_pk', ['consent_id', 'account_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unattended_read').execute();
}
