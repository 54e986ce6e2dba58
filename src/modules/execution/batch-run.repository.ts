import type { DbOrTx } from '../../db/create-db.js';
import type { BatchOutcome, BatchTrigger } from './batch-run-report.js';

export interface OpenBatchRun {
  readonly id: string;
  readonly tppId: string | undefined;
}

/** The only place that queries batch_run. */
export const batchRunRepository = {
  async start(db: DbOrTx, run: { id: string; trigger: BatchTrigger; tppId: string | undefined; at: string }): Promise<void> {
    await db
      .insertInto('batch_run')
      .values({ id: run.id, trigger: run.trigger, tpp_id: run.tppId ?? null, started_at: run.at, finished_at: null, counts: null })
      .execute();
  },

  async finish(db: DbOrTx, id: string, counts: Readonly<Record<BatchOutcome, number>> | { interrupted: true }, at: string): Promise<void> {
    await db
      .updateTable('batch_run')
      .set({ finished_at: at, counts: JSON.stringify(counts) })
      .where('id', '=', id)
      .execute();
  },

  /** Runs started and never finished: their server stopped in the middle. */
  async listUnfinished(db: DbOrTx): Promise<OpenBatchRun[]> {
    const rows = await db.selectFrom('batch_run').select(['id', 'tpp_id']).where('finished_at', 'is', null).orderBy('started_at').execute();
    return rows.map((row) => ({ id: row.id, tppId: row.tpp_id ?? undefined }));
  },
};
