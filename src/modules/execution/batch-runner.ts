import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { ControlledTransaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Db, DbOrTx } from '../../db/create-db.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { isLastRunOfDay, type BatchTime } from '../../domain/batch-schedule.js';
import { todayIn } from '../../domain/iso-date.js';
import type { BankClock } from '../clock/bank-clock.js';
import { allows } from '../payments/payment-status.js';
import { paymentStore } from '../payments/payment-store.js';
import type { DuePayment, Payment } from '../payments/payment.model.js';
import { BATCH_OUTCOMES, type BatchOutcome, type BatchRunObserver, type BatchRunReport, type BatchTrigger } from './batch-run-report.js';
import { batchRunRepository } from './batch-run.repository.js';
import type { Answers, ExecutionContext, PaymentExecutor, Submission } from './payment-executor.js';
import { paymentSubmissionRepository } from './payment-submission.repository.js';
import { groupBy } from '../../domain/group-by.js';

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

/** A run's first chunk of a TPP's payments; later ones are sized by {@link nextChunkSize}. */
const FIRST_CHUNK = 250;
const MIN_CHUNK = 50;
const MAX_CHUNK = 2_000;
/** What a chunk's three steps together may take, so that each of its transactions stays short. */
const CHUNK_MS = 500;

/**
 * The next chunk's size: twice the last, up to MAX_CHUNK, unless the last chunk's pace fits fewer
 * in {@link CHUNK_MS} (never fewer than MIN_CHUNK). A chunk costs some round trips whatever its
 * size and a little per payment: large chunks are what makes a run fast; the time bound keeps its
 * transactions short on a slow database, as requests wait for the locks a chunk holds.
 */
export function nextChunkSize(size: number, done: number, elapsedMs: number): number {
  if (done === 0) return size;
  const fits = Math.floor((CHUNK_MS * done) / Math.max(elapsedMs, 1));
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, 2 * size, fits));
}

/** A submission in flight for longer than this is taken to be a stopped server's, and submitted again. */
const IN_FLIGHT_LEASE_MS = 60_000;

/** A transaction of the runner's own, savepoints in it named as it likes. */
type Controlled = ControlledTransaction<Database, string[]>;

/** The run a chunk belongs to; `recovering`: a run finishing what stopped servers left. */
interface RunScope {
  readonly id: string;
  readonly recovering: boolean;
}

/** A TPP's time as one run sees it, read once at the run's start. */
interface TenantDay {
  readonly today: string;
  readonly lastChance: boolean;
}

/**
 * The batch run (docs/design.md §3, §6): every approved payment that is due, and every one left
 * submitted without a recorded outcome, submitted to the bank through the core-banking port
 * (see {@link PaymentExecutor}). Safe to stop at any instant (what committed is done; what was
 * marked submitted is submitted again by the next run, the bank executing it once) and to run at
 * once in several processes on PostgreSQL (a payment being taken elsewhere is locked and skipped,
 * one being submitted elsewhere is left to that run, one already executed is no longer due).
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
    if (!allows(payment.status, 'execute')) return false;
    return payment.status !== 'PDNG' || payment.requestedExecutionDate === undefined || payment.requestedExecutionDate <= today;
  }

  /**
   * A payment's outcome, or `locked`: another transaction holds it (PostgreSQL), or another run is
   * submitting it right now, to be tried again at the end; `accepted`: the bank decides later.
   */
  type Attempt = BatchOutcome | 'locked' | 'accepted';

  /** What step 1 made of a candidate: an outcome already, or a submission to make. */
  type Taken = Attempt | { readonly submission: Submission; readonly context: ExecutionContext };

  async function takeOne(trx: DbOrTx, candidate: DuePayment, day: TenantDay, run: RunScope): Promise<Taken> {
    const taken = await paymentStore.takeForExecution(trx, candidate.id);
    if (taken === 'locked') return 'locked';
    if (!taken) return 'skipped';
    const inFlight = (await paymentSubmissionRepository.ofPayment(trx, taken.id)).filter((row) => row.outcome === undefined);
    if (inFlight.length > 0) {
      // Submitted and not recorded: by a run under way elsewhere (left to it, unless it is old), or
      // by a server that stopped (submitted again now: the bank answers its first outcome).
      const fresh = inFlight.some((row) => Date.parse(row.submittedAt) > clock.realNow().getTime() - IN_FLIGHT_LEASE_MS);
      if (fresh && !run.recovering) return 'locked';
    } else if (!isDue(taken, day.today)) {
      return 'skipped';
    }
    const at = clock.realNow().toISOString();
    const context: ExecutionContext = {
      today: day.today,
      lastChance: day.lastChance,
      at,
      actor: { type: 'system', id: `batch-run:${run.id}` },
    };
    return { submission: await executor.prepare(trx, taken, day.today, at), context };
  }

  /**
   * Step 1 for a whole chunk at once, in the caller's transaction (as {@link takeOne} does for
   * each in turn): the payments read (locked, PostgreSQL) and their submissions read in one
   * statement each, every decision made in memory, and the submissions marked in one statement.
   */
  async function takeAll(
    trx: Controlled,
    candidates: readonly DuePayment[],
    dayOf: (tppId: string) => TenantDay,
    run: RunScope,
  ): Promise<Taken[]> {
    const ids = candidates.map((candidate) => candidate.id);
    const taken = await paymentStore.takeManyForExecution(trx, ids);
    const submitted = await paymentSubmissionRepository.ofPayments(trx, ids);
    const at = clock.realNow().toISOString();
    const leaseStart = clock.realNow().getTime() - IN_FLIGHT_LEASE_MS;
    const toPrepare: { index: number; payment: Payment; context: ExecutionContext }[] = [];
    const attempts = candidates.map((candidate, index): Taken => {
      const payment = taken.get(candidate.id);
      if (payment === 'locked') return 'locked';
      if (!payment) return 'skipped';
      const day = dayOf(payment.tppId);
      const inFlight = (submitted.get(payment.id) ?? []).filter((row) => row.outcome === undefined);
      if (inFlight.length > 0) {
        const fresh = inFlight.some((row) => Date.parse(row.submittedAt) > leaseStart);
        if (fresh && !run.recovering) return 'locked';
      } else if (!isDue(payment, day.today)) {
        return 'skipped';
      }
      const context: ExecutionContext = {
        today: day.today,
        lastChance: day.lastChance,
        at,
        actor: { type: 'system', id: `batch-run:${run.id}` },
      };
      toPrepare.push({ index, payment, context });
      return 'failed';
    });
    const submissions = await executor.prepareMany(
      trx,
      toPrepare.map(({ payment, context }) => ({ payment, executionDate: context.today })),
      at,
      submitted,
    );
    toPrepare.forEach(({ index, context }, position) => (attempts[index] = { submission: submissions[position]!, context }));
    return attempts;
  }

  /** Step 1 payment by payment, each in its own savepoint: one that fails holds no other back. */
  async function takeEach(
    trx: Controlled,
    candidates: readonly DuePayment[],
    dayOf: (tppId: string) => TenantDay,
    run: RunScope,
  ): Promise<Taken[]> {
    const attempts: Taken[] = [];
    for (const candidate of candidates) {
      if (stopping) break;
      const savepoint = await trx.savepoint('payment').execute();
      try {
        attempts.push(await takeOne(savepoint, candidate, dayOf(candidate.tppId), run));
        await savepoint.releaseSavepoint('payment').execute();
      } catch (error) {
        await savepoint.rollbackToSavepoint('payment').execute();
        await savepoint.releaseSavepoint('payment').execute();
        attempts.push('failed');
        deps.logger?.error({ err: error, batchRunId: run.id, paymentId: candidate.id }, 'batch run: payment not executed');
      }
    }
    return attempts;
  }

  type Answered = { index: number; submission: Submission; context: ExecutionContext; answers: Answers };

  /** Step 3 payment by payment, each in its own savepoint: an outcome that cannot be recorded holds no other back. */
  async function recordEach(trx: Controlled, answered: readonly Answered[], run: RunScope): Promise<{ index: number; result: Attempt }[]> {
    const results: { index: number; result: Attempt }[] = [];
    for (const entry of answered) {
      const savepoint = await trx.savepoint('payment').execute();
      try {
        results.push({ index: entry.index, result: await executor.record(savepoint, entry.submission, entry.answers, entry.context) });
        await savepoint.releaseSavepoint('payment').execute();
      } catch (error) {
        await savepoint.rollbackToSavepoint('payment').execute();
        await savepoint.releaseSavepoint('payment').execute();
        deps.logger?.error(
          { err: error, batchRunId: run.id, paymentId: entry.submission.paymentId },
          'batch run: an outcome not recorded; the next run submits the payment again',
        );
      }
    }
    return results;
  }

  /** `work` in a transaction of its own: committed when it returns, rolled back when it throws. */
  async function transact<T>(work: (trx: Controlled) => Promise<T>): Promise<T> {
    const trx = await db.startTransaction().execute();
    try {
      const result = await work(trx);
      await trx.commit().execute();
      return result;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      throw error;
    }
  }

  /**
   * Runs `together` (the whole chunk in a few statements) in a transaction; should it fail, runs
   * `oneByOne` in a fresh one, so a payment that cannot be taken or recorded costs the chunk its
   * speed, never the other payments their execution. (A fresh transaction rather than a savepoint:
   * two round trips fewer per step, and a failure is rare.)
   */
  async function setBasedOrEach<T>(
    run: RunScope,
    together: (trx: Controlled) => Promise<T>,
    oneByOne: (trx: Controlled) => Promise<T>,
  ): Promise<T> {
    try {
      return await transact(together);
    } catch (error) {
      deps.logger?.warn({ err: error, batchRunId: run.id }, 'batch run: a chunk failed as a whole; its payments are taken one by one');
      return transact(oneByOne);
    }
  }

  /**
   * Executes `size` of one TPP's candidates from `next` on, in three steps (docs/design.md §3):
   * (1) in one transaction, the payments taken and marked submitted, committed together before
   * the bank hears of any; (2) all submitted to the bank in one `submitPayments` call (a payment
   * file) through the core-banking port, outside any transaction of ours; (3) in one transaction,
   * the outcomes recorded and the statuses moved. Steps 1 and 3 are set-based (a few statements
   * for the whole chunk, not a round trip per payment), falling back to one payment at a time
   * when that fails. One commit per step and chunk is what keeps 100 000 payments a matter of
   * seconds; a chunk holds one TPP's payments only and its transactions are short (see
   * {@link nextChunkSize}), as their locks hold requests back. What is marked in step 1 is always
   * carried through steps 2 and 3, also when the server stops.
   */
  async function executeChunk(
    group: readonly DuePayment[],
    next: number,
    size: number,
    dayOf: (tppId: string) => TenantDay,
    run: RunScope,
  ) {
    const candidates = group.slice(next, next + size);
    let taken: Taken[];
    try {
      taken = await setBasedOrEach(
        run,
        (trx) => takeAll(trx, candidates, dayOf, run),
        (trx) => takeEach(trx, candidates, dayOf, run),
      );
    } catch (error) {
      deps.logger?.error({ err: error, batchRunId: run.id }, 'batch run: a chunk rolled back; its payments are as they were');
      return Array.from({ length: Math.max(1, candidates.length) }, (): Attempt => 'failed');
    }
    const attempts: Attempt[] = [];
    const submissions: { index: number; submission: Submission; context: ExecutionContext }[] = [];
    for (const entry of taken) {
      if (typeof entry === 'string') {
        attempts.push(entry);
      } else {
        submissions.push({ index: attempts.length, ...entry });
        attempts.push('failed');
      }
    }

    const answered: Answered[] = [];
    const unanswered: string[] = [];
    const notAnswered = (paymentId: string, error: unknown) => {
      // Left in flight (attempt `failed`), released for the next run to submit again.
      unanswered.push(paymentId);
      deps.logger?.error({ err: error, batchRunId: run.id, paymentId }, 'batch run: the bank did not answer');
    };
    try {
      // The chunk as one payment file, in the order taken (of two payments the funds cover one of,
      // the one created first).
      const answers = await executor.submitAll(submissions.map((entry) => entry.submission));
      submissions.forEach((entry, index) => answered.push({ ...entry, answers: answers[index]! }));
    } catch (error) {
      if (submissions.length === 1) {
        notAnswered(submissions[0]!.submission.paymentId, error);
      } else {
        // Then each on its own, so a payment the bank cannot take holds no other back.
        deps.logger?.warn({ err: error, batchRunId: run.id }, 'batch run: a payment file failed; its payments are submitted one by one');
        for (const entry of submissions) {
          try {
            answered.push({ ...entry, answers: await executor.submit(entry.submission) });
          } catch (failure) {
            notAnswered(entry.submission.paymentId, failure);
          }
        }
      }
    }

    if (submissions.length === 0) return attempts;
    try {
      // Payments the bank did not answer stay in flight, released for the next run to submit again.
      const results = await setBasedOrEach(
        run,
        async (trx) => {
          await paymentSubmissionRepository.releaseMany(trx, unanswered);
          const recorded = await executor.recordMany(trx, answered);
          return answered.map((entry, position) => ({ index: entry.index, result: recorded[position]! }));
        },
        async (trx) => {
          await paymentSubmissionRepository.releaseMany(trx, unanswered);
          return recordEach(trx, answered, run);
        },
      );
      for (const { index, result } of results) attempts[index] = result;
    } catch (error) {
      deps.logger?.error({ err: error, batchRunId: run.id }, 'batch run: outcomes rolled back; the next run submits their payments again');
    }
    return attempts;
  }

  /** Runs the groups (one per TPP), several at once where the database allows; the candidates found locked. */
  async function executeGroups(
    groups: DuePayment[][],
    dayOf: (tppId: string) => TenantDay,
    run: RunScope,
    counts: Record<BatchOutcome | 'accepted', number>,
  ) {
    const locked: DuePayment[] = [];
    const stream = async () => {
      for (let group = groups.shift(); group && !stopping; group = groups.shift()) {
        let size = FIRST_CHUNK;
        for (let next = 0; next < group.length && !stopping;) {
          const started = performance.now();
          const attempts = await executeChunk(group, next, size, dayOf, run);
          size = nextChunkSize(size, attempts.length, performance.now() - started);
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
    const tally: Record<BatchOutcome | 'accepted', number> = {
      ...(Object.fromEntries(BATCH_OUTCOMES.map((outcome) => [outcome, 0])) as Record<BatchOutcome, number>),
      accepted: 0,
    };
    const dayOf = await tenantDays();
    const due = (await paymentStore.listExecutable(db, tppId)).filter((candidate) => isDue(candidate, dayOf(candidate.tppId).today));
    // Payments submitted and never recorded (a server stopped between the bank's answer and its
    // commit, or an instant payment's settlement cut short) are submitted again.
    const listed = new Set(due.map((candidate) => candidate.id));
    const inFlight = (await paymentSubmissionRepository.listInFlight(db, tppId))
      .filter((entry) => !listed.has(entry.paymentId))
      .map((entry): DuePayment => ({ id: entry.paymentId, tppId: entry.tppId, status: 'ACTC', requestedExecutionDate: undefined }));
    const candidates = [...due, ...inFlight];
    const run: RunScope = { id: batchRunId, recovering: trigger === 'resumed' };
    // A payment another transaction held (a TPP's cancellation, another run) is tried once more
    // at the end: executed meanwhile, it is no longer due; released, it is executed now.
    const locked = await executeGroups([...byTenant(candidates).values()], dayOf, run, tally);
    const stillLocked = await executeGroups([...byTenant(locked).values()], dayOf, run, tally);
    tally.skipped += stillLocked.length;
    const { accepted, ...counts } = tally;
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
      { batchRunId, trigger, tppId, durationMs: report.durationMs, due: candidates.length, completed, ...counts, accepted },
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

    /** Lets a run under way stop after the chunk it is executing (its three steps: at most CHUNK_MS or so). */
    stop(): void {
      stopping = true;
    },
  };
}

export type BatchRunner = ReturnType<typeof createBatchRunner>;

/** The candidates of each TPP, in the order given (id order: the order every lock on payments is taken). */
function byTenant(candidates: readonly DuePayment[]): Map<string, DuePayment[]> {
  return groupBy(candidates, (candidate) => candidate.tppId);
}
