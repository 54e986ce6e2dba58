import type { Kysely } from 'kysely';
import { sequenceKeyColumn, timestampColumn } from './column-types.js';

/**
 * One-time codes a PSU typed, across all its authorisations: enough wrong ones within
 * XS2A_SCA_CODE_LOCK_WINDOW_MINUTES lock the PSU's code step for XS2A_SCA_CODE_LOCK_MINUTES.
 * Counted here, so every instance of the server sees the same count.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);
  await sequenceKeyColumn(db, db.schema.createTable('psu_code_attempt'), 'id')
    .addColumn('bank_scope', 'text', (col) => col.notNull())
    .addColumn('psu_id', 'text', (col) => col.notNull())
    .addColumn('authorisation_id', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('attempted_at', timestamp, (col) => col.notNull())
    .addColumn('locks_until', timestamp)
    .execute();
  await db.schema
    .createIndex('psu_code_attempt_psu_idx')
    .on('psu_code_attempt')
    .columns(['bank_scope', 'psu_id', 'attempted_at'])
    .execute();
  // The purge deletes by age alone.
  await db.schema.createIndex('psu_code_attempt_attempted_idx').on('psu_code_attempt').column('attempted_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('psu_code_attempt').execute();
}
