/**
 * What one batch run did: answered by `POST /v1/sandbox/batch-runs`, logged, and
 * counted in `/metrics`. Counts are per payment resource (a bulk counts once).
 */
export const BATCH_OUTCOMES = [
  /** Debited (and credited when the creditor is in the bank): ACSC. */
  'executed',
  /** A bulk of which some payments were executed and some lacked funds: PART. */
  'partiallyExecuted',
  /** Lacking funds, to be retried by a later run of the same bank day: ACCP, fundsAvailable false. */
  'awaitingFunds',
  /** Lacking funds after the bank day's last run: RJCT. */
  'rejected',
  /** Taken by another run (another process) or changed meanwhile: left alone by this one. */
  'skipped',
  /** An error stopped it: its transaction rolled back, so it is as it was, for the next run (logged). */
  'failed',
] as const;
export type BatchOutcome = (typeof BATCH_OUTCOMES)[number];

/** scheduled: the configured times; requested: `POST /v1/sandbox/batch-runs`; resumed: finishing a run a stopped server left. */
export type BatchTrigger = 'scheduled' | 'requested' | 'resumed';

export interface BatchRunReport {
  readonly batchRunId: string;
  readonly trigger: BatchTrigger;
  /** The sandbox tenant a requested run was limited to; absent for a run over every TPP. */
  readonly tppId?: string | undefined;
  /** For a run limited to one TPP: the bank date it ran for by that TPP's clock, and whether it was that day's last run. */
  readonly tenantDay?: { readonly today: string; readonly lastRunOfDay: boolean } | undefined;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly counts: Readonly<Record<BatchOutcome, number>>;
}

/** Told of every finished run (the metrics and the log). */
export type BatchRunObserver = (report: BatchRunReport) => void;
