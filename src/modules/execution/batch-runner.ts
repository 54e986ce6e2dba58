import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { Db, Tx } from '../../db/create-db.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { isLastRunOfDay, type BatchTime } from '../../domain/batch-schedule.js';
import { todayIn } from '../../domain/iso-date.js';
import type { BankClock } from '../clock/bank-clock.js';
import { EXECUTABLE_STATUSES, paymentRepository, type DuePayment, type Payment } from '../payments/payment.repository.js';
import { BATCH_OUTCOMES, type BatchOutcome, type BatchRunObserver, type BatchRunReport, type BatchTrigger } from './batch-run-report.js';
import { batchRunRepository } from './batch-run.repository.js';
import type { PaymentExecutor } from './payment-executor.js';

export interface BatchRunnerDeps {
  readonly db: Db;
  readonly clock: BankClock;
  readonly executor: PaymentExecutor;
  readonly batchTimes: readonly BatchTime[];
  readonly observer?: BatchRunObserver | undefined;
  readonly logger?: FastifyBaseLogger | undefined;
}

/** At most this many payments, or this many milliseconds, per commit. */
const CHUNK_PAYMENTS = 200;
const CHUNK_MS = 50;

/** A TPP's time as one run sees it, read once at the run's start. */
interface TenantDay {
  readonly today: string;
  readonly lastChance: boolean;
}

/**
 * The batch run (DESIGN §3, §6): every approved payment that is due, each executed atomically
 * (its postings and its status change in one savepoint, committed with its chunk). Safe to stop
 * at any instant (what committed is done, the rest is still due) and to run at once in several
 * processes on PostgreSQL (a payment being executed elsewhere is locked and skipped; one already
 * executed is no longer due; the ledger's idempotency keys refuse a second posting).
 */
export function createBatchRunner(deps: BatchRunnerDeps) {
  const { db, clock, executor } = deps;
  let stopping = false;

  async function tenantDays(): Promise<(tppId: string) => TenantDay> {
    const offsets = await clock.offsets();
    const realNow = clock.realNow().getTime();
    const days = new Map<string, TenantDay>();
    return (tppId) => {
      let day = days.get(tppId);
      if (!day) {
        const now = new Date(realNow + (offsets.get(tppId) ?? 0));
        day = { today: todayIn(BANK_TIME_ZONE, now), lastChance: isLastRunOfDay(now, deps.batchTimes) };
        days.set(tppId, day);
      }
      return day;
    };
  }

  function isDue(payment: Pick<Payment, 'status' | 'requestedExecutionDate'>, today: string): boolean {
    if (!EXECUTABLE_STATUSES.includes(payment.status)) return false;
    return payment.status !== 'PDNG' || payment.requestedExecutionDate === undefined || payment.requestedExecutionDate <= today;
  }

  async function executeOne(trx: Tx, candidate: DuePayment, day: TenantDay, runId: string): Promise<BatchOutcome> {
    const payment = await paymentRepository.takeForExecution(trx, candidate.id);
    if (!payment || !isDue(payment, day.today)) return 'skipped';
    return executor.execute(trx, payment, {
      today: day.today,
      lastChance: day.lastChance,
      at: clock.realNow().toISOString(),
      actor: { type: 'system', id: `batch-run:${runId}` },
    });
  }

  /**
   * Executes candidates from `next` on, each in its own savepoint, and commits them together:
   * a payment is all or nothing whatever happens (its savepoint, then the commit), and one
   * commit per chunk rather than per payment is what makes 100 000 payments a matter of
   * seconds. The chunk is short (a few dozen milliseconds), as its locks hold requests back.
   */
  async function executeChunk(candidates: readonly DuePayment[], next: number, dayOf: (tppId: string) => TenantDay, runId: string) {
    const outcomes: BatchOutcome[] = [];
    const started = performance.now();
    const trx = await db.startTransaction().execute();
    try {
      while (next + outcomes.length < candidates.length && outcomes.length < CHUNK_PAYMENTS && performance.now() - started < CHUNK_MS) {
        if (stopping) break;
        const candidate = candidates[next + outcomes.length]!;
        const savepoint = await trx.savepoint('payment').execute();
        try {
          outcomes.push(await executeOne(savepoint, candidate, dayOf(candidate.tppId), runId));
          await savepoint.releaseSavepoint('payment').execute();
        } catch (error) {
          await savepoint.rollbackToSavepoint('payment').execute();
          await savepoint.releaseSavepoint('payment').execute();
          outcomes.push('failed');
          deps.logger?.error({ err: error, batchRunId: runId, paymentId: candidate.id }, 'batch run: payment not executed');
        }
      }
      await trx.commit().execute();
      return { taken: outcomes.length, outcomes };
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      deps.logger?.error({ err: error, batchRunId: runId }, 'batch run: a chunk rolled back; its payments are as they were');
      return {
        taken: Math.max(outcomes.length, 1),
        outcomes: Array.from({ length: Math.max(outcomes.length, 1) }, () => 'failed' as const),
      };
    }
  }

  async function run(trigger: BatchTrigger, tppId?: string): Promise<BatchRunReport> {
    const batchRunId = randomUUID();
    const startedAt = clock.realNow();
    await batchRunRepository.start(db, { id: batchRunId, trigger, tppId, at: startedAt.toISOString() });
    const counts = Object.fromEntries(BATCH_OUTCOMES.map((outcome) => [outcome, 0])) as Record<BatchOutcome, number>;
    const dayOf = await tenantDays();
    const candidates = (await paymentRepository.listExecutable(db, tppId)).filter((candidate) =>
      isDue(candidate, dayOf(candidate.tppId).today),
    );
    // A server shutting down ends the run after the chunk under way; the next run takes what is left.
    for (let next = 0; next < candidates.length && !stopping;) {
      const chunk = await executeChunk(candidates, next, dayOf, batchRunId);
      for (const outcome of chunk.outcomes) counts[outcome]++;
      next += chunk.taken;
    }
    const finishedAt = clock.realNow();
    await batchRunRepository.finish(db, batchRunId, counts, finishedAt.toISOString());
    const report: BatchRunReport = {
      batchRunId,
      trigger,
      tppId,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      counts,
    };
    deps.logger?.info({ batchRunId, trigger, tppId, durationMs: report.durationMs, due: candidates.length, ...counts }, 'batch run');
    deps.observer?.(report);
    return report;
  }

  return {
    /** One run now: over every TPP, or (a sandbox TPP's request) over one TPP's payments. */
    run,

    /**
     * Finishes what stopped servers left: each run still open is closed as interrupted and run
     * again over the same TPPs. (With several workers an open run may be another's live one;
     * running beside it is safe.)
     */
    async resumeInterrupted(): Promise<BatchRunReport[]> {
      const open = await batchRunRepository.listUnfinished(db);
      const reports: BatchRunReport[] = [];
      for (const scope of new Set(open.map((entry) => entry.tppId))) {
        reports.push(await run('resumed', scope));
      }
      const at = clock.realNow().toISOString();
      for (const entry of open) await batchRunRepository.finish(db, entry.id, { interrupted: true }, at);
      return reports;
    },

    /** Lets a run under way stop after the payment it is executing. */
    stop(): void {
      stopping = true;
    },
  };
}

export type BatchRunner = ReturnType<typeof createBatchRunner>;
