import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Execution: batch runs, the sandbox clock, and the day a payment first lacked funds.
 *
 * - `batch_run`: one row per run, written when it starts and completed when it ends, so a run a
 *   stopped server left unfinished is found (and finished) at the next start.
 * - `sandbox_clock`: how far a TPP has moved its sandbox "today" ahead of the real clock.
 * - `payment.awaiting_funds_since`: the bank date a payment went ACCP; it is rejected after that
 *   day's last run, or by the first run of a later day if that last run never happened.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('batch_run')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('trigger', 'text', (col) => col.notNull())
    .addColumn('tpp_id', 'text')
    .addColumn('started_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('finished_at', timestampColumn(db))
    .addColumn('counts', 'text')
    .execute();
  await db.schema
    .createTable('sandbox_clock')
    .addColumn('tpp_id', 'text', (col) => col.primaryKey())
    .addColumn('offset_ms', 'bigint', (col) => col.notNull())
    .addColumn('changed_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  await db.schema.alterTable('payment').addColumn('awaiting_funds_since', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('awaiting_funds_since').execute();
  await db.schema.dropTable('sandbox_clock').execute();
  await db.schema.dropTable('batch_run').execute();
}
