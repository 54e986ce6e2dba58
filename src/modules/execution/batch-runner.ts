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
  /** How many TPPs' payments run at once: 1 on SQLite (one connection), a few on PostgreSQL. */
  readonly parallelTenants?: number | undefined;
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
 * The batch run (docs/design.md §3, §6): every approved payment that is due, each executed atomically
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

  /** A payment's outcome, or `locked`: another transaction holds it (PostgreSQL), to be tried again at the end. */
  type Attempt = BatchOutcome | 'locked';

  async function executeOne(trx: Tx, candidate: DuePayment, day: TenantDay, runId: string): Promise<Attempt> {
    const taken = await paymentRepository.takeForExecution(trx, candidate.id);
    if (taken === 'locked') return 'locked';
    if (!taken || !isDue(taken, day.today)) return 'skipped';
    return executor.execute(trx, taken, {
      today: day.today,
      lastChance: day.lastChance,
      at: clock.realNow().toISOString(),
      actor: { type: 'system', id: `batch-run:${runId}` },
    });
  }

  /**
   * Executes one TPP's candidates from `next` on, each in its own savepoint, and commits them
   * together: a payment is all or nothing whatever happens (its savepoint, then the commit), and
   * one commit per chunk rather than per payment is what makes 100 000 payments a matter of
   * seconds. A chunk holds one TPP's lock only (two runs could otherwise wait on each other's
   * TPPs) and is short (a few dozen milliseconds), as its locks hold requests back.
   */
  async function executeChunk(group: readonly DuePayment[], next: number, dayOf: (tppId: string) => TenantDay, runId: string) {
    const attempts: Attempt[] = [];
    const started = performance.now();
    const trx = await db.startTransaction().execute();
    try {
      while (next + attempts.length < group.length && attempts.length < CHUNK_PAYMENTS && performance.now() - started < CHUNK_MS) {
        if (stopping) break;
        const candidate = group[next + attempts.length]!;
        const savepoint = await trx.savepoint('payment').execute();
        let attempt: Attempt;
        try {
          attempt = await executeOne(savepoint, candidate, dayOf(candidate.tppId), runId);
          await savepoint.releaseSavepoint('payment').execute();
        } catch (error) {
          await savepoint.rollbackToSavepoint('payment').execute();
          await savepoint.releaseSavepoint('payment').execute();
          attempt = 'failed';
          deps.logger?.error({ err: error, batchRunId: runId, paymentId: candidate.id }, 'batch run: payment not executed');
        }
        attempts.push(attempt);
      }
      await trx.commit().execute();
      return attempts;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      deps.logger?.error({ err: error, batchRunId: runId }, 'batch run: a chunk rolled back; its payments are as they were');
      return Array.from({ length: Math.max(attempts.length, 1) }, (): Attempt => 'failed');
    }
  }

  /** Runs the groups (one per TPP), several at once where the database allows; the candidates found locked. */
  async function executeGroups(
    groups: DuePayment[][],
    dayOf: (tppId: string) => TenantDay,
    runId: string,
    counts: Record<BatchOutcome, number>,
  ) {
    const locked: DuePayment[] = [];
    const stream = async () => {
      for (let group = groups.shift(); group && !stopping; group = groups.shift()) {
        for (let next = 0; next < group.length && !stopping;) {
          const attempts = await executeChunk(group, next, dayOf, runId);
          attempts.forEach((attempt, index) => {
            if (attempt === 'locked') locked.push(group[next + index]!);
            else counts[attempt]++;
          });
          next += attempts.length;
          // Between chunks the server's other work gets its turn: on SQLite every query answers
          // at once, and without this pause a run would hold requests, timers and a shutdown
          // back until it ends.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(groups.length, deps.parallelTenants ?? 1)) }, stream));
    return locked;
  }

  /** A run over every due payment; `completed` false when the server's stop cut it short. */
  async function runOnce(trigger: BatchTrigger, tppId: string | undefined): Promise<{ report: BatchRunReport; completed: boolean }> {
    const batchRunId = randomUUID();
    const startedAt = clock.realNow();
    await batchRunRepository.start(db, { id: batchRunId, trigger, tppId, at: startedAt.toISOString() });
    const counts = Object.fromEntries(BATCH_OUTCOMES.map((outcome) => [outcome, 0])) as Record<BatchOutcome, number>;
    const dayOf = await tenantDays();
    const candidates = (await paymentRepository.listExecutable(db, tppId)).filter((candidate) =>
      isDue(candidate, dayOf(candidate.tppId).today),
    );
    // A payment another transaction held (a TPP's cancellation, another run) is tried once more
    // at the end: executed meanwhile, it is no longer due; released, it is executed now.
    const locked = await executeGroups([...byTenant(candidates).values()], dayOf, batchRunId, counts);
    const stillLocked = await executeGroups([...byTenant(locked).values()], dayOf, batchRunId, counts);
    counts.skipped += stillLocked.length;
    const finishedAt = clock.realNow();
    const completed = !stopping;
    // A run the server's stop cut short stays open: the next start finishes it.
    if (completed) await batchRunRepository.finish(db, batchRunId, counts, finishedAt.toISOString());
    const report: BatchRunReport = {
      batchRunId,
      trigger,
      tppId,
      tenantDay: tppId === undefined ? undefined : { today: dayOf(tppId).today, lastRunOfDay: dayOf(tppId).lastChance },
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      counts,
    };
    deps.logger?.info(
      { batchRunId, trigger, tppId, durationMs: report.durationMs, due: candidates.length, completed, ...counts },
      'batch run',
    );
    deps.observer?.(report);
    return { report, completed };
  }

  return {
    /** One run now: over every TPP, or (a sandbox TPP's request) over one TPP's payments. */
    async run(trigger: BatchTrigger, tppId?: string): Promise<BatchRunReport> {
      return (await runOnce(trigger, tppId)).report;
    },

    /**
     * Finishes what stopped servers left: each run still open is closed as interrupted and run
     * again over the same TPPs. (With several workers an open run may be another's live one;
     * running beside it is safe.)
     */
    async resumeInterrupted(): Promise<BatchRunReport[]> {
      const open = await batchRunRepository.listUnfinished(db);
      const reports: BatchRunReport[] = [];
      for (const scope of new Set(open.map((entry) => entry.tppId))) {
        const resumed = await runOnce('resumed', scope);
        reports.push(resumed.report);
        // Stopped again before the end: the old runs stay open for the next start.
        if (!resumed.completed) return reports;
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

/** The candidates of each TPP, in the order given (id order: the order every lock on payments is taken). */
function byTenant(candidates: readonly DuePayment[]): Map<string, DuePayment[]> {
  const groups = new Map<string, DuePayment[]>();
  for (const candidate of candidates) {
    const group = groups.get(candidate.tppId);
    if (group) group.push(candidate);
    else groups.set(candidate.tppId, [candidate]);
  }
  return groups;
}
