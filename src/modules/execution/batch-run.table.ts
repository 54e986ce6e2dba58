import type { BatchTrigger } from './batch-run-report.js';

/** One batch run (migration 0008): open while it runs, so a run a stopped server left is found. */
export interface BatchRunTable {
  id: string;
  trigger: BatchTrigger;
  /** The TPP a requested run was limited to; null for a run over every TPP. */
  tpp_id: string | null;
  started_at: string;
  finished_at: string | null;
  /** JSON of the counts per outcome, once finished. */
  counts: string | null;
}
