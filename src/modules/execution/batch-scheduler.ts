import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import { BANK_TIME_ZONE, isBankDay } from '../../domain/bank-calendar.js';
import type { BatchTime } from '../../domain/batch-schedule.js';
import { todayIn } from '../../domain/iso-date.js';
import type { BatchRunner } from './batch-runner.js';

export interface BatchSchedulerOptions {
  /** The configured run times; undefined: no scheduled runs in this process. */
  readonly times: readonly BatchTime[] | undefined;
  /**
   * Production mode: how often the server submits what has fallen due (payments dated today,
   * payments waiting for funds, submissions a stopped server left); undefined: never.
   */
  readonly intervalMs?: number | undefined;
  /** Finish first what a stopped server left (one process of a deployment does). */
  readonly resume: boolean;
  readonly logger?: FastifyBaseLogger | undefined;
}

/**
 * In the sandbox, runs the batch at the configured Europe/Oslo times of each Norwegian bank day (croner keeps
 * summer time right; the bank calendar skips weekends and holidays). Runs of one process never
 * overlap: a run due while the previous one still works starts when it ends.
 */
export function startBatchScheduler(runner: BatchRunner, { times, intervalMs, resume, logger }: BatchSchedulerOptions) {
  let chain: Promise<unknown> = Promise.resolve();
  const enqueue = (work: () => Promise<unknown>) => {
    chain = chain.then(work).catch((error: unknown) => logger?.error({ err: error }, 'batch run failed'));
    return chain;
  };
  if (resume) void enqueue(() => runner.resumeInterrupted());
  const jobs = (times ?? []).map(
    (time) =>
      new Cron(`${time.minute} ${time.hour} * * *`, { timezone: BANK_TIME_ZONE }, () => {
        if (isBankDay(todayIn(BANK_TIME_ZONE, new Date()))) void enqueue(() => runner.run('scheduled'));
      }),
  );
  const interval =
    intervalMs === undefined
      ? undefined
      : setInterval(() => {
          void enqueue(() => runner.run('scheduled'));
        }, intervalMs);
  return {
    /** Stops the timers and the run under way (after its current chunk), and waits for it. */
    async stop(): Promise<void> {
      for (const job of jobs) job.stop();
      if (interval) clearInterval(interval);
      runner.stop();
      await chain;
    },
  };
}
