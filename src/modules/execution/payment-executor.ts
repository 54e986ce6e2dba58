import type { FastifyBaseLogger } from 'fastify';
import type { CoreBanking, PaymentInstruction } from '../../bank/core-banking.port.js';
import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { bankDayOf } from '../../domain/batch-schedule.js';
import type { ActorType } from '../audit/audit-event.js';
import { isInstant } from '../payments/payment-products.js';
import { FINAL_STATUSES, type TransactionStatus } from '../payments/payment-status.js';
import { transitionPayment, transitionPayments, type StatusChange } from '../payments/payment-transition.js';
import { paymentStore } from '../payments/payment-store.js';
import type { Payment, PaymentState } from '../payments/payment.model.js';
import type { BatchOutcome } from './batch-run-report.js';
import { decideExecution, statusPath, type ExecutionDecision, type TransferOutcome } from './execution-decision.js';
import { isFinalOutcome, paymentSubmissionRepository, type SubmissionRow } from './payment-submission.repository.js';
import type { RecordedOutcome } from './recorded-outcome.js';
import { executesAllOrNone, instructionsOf } from './payment-transfers.js';
import { groupBy } from '../../domain/group-by.js';

export interface ExecutionContext {
  /** The TPP's bank date: the execution date, and the day a payment lacking funds waits on. */
  readonly today: string;
  /** No later run of this bank day will retry a payment lacking funds. */
  readonly lastChance: boolean;
  readonly at: string;
  readonly actor: { readonly type: ActorType; readonly id: string };
}

/**
 * What recording the bank's answers did to a payment: a batch outcome; `accepted` when the bank
 * decides later (the payment waits in ACSP for the outcome feed); `skipped` when the payment was
 * no longer the executor's to move (another process recorded it first).
 */
export type ExecutionResult = BatchOutcome | 'accepted';

/** A payment marked as submitted, and what is to be handed to the bank for it. */
export interface Submission {
  readonly paymentId: string;
  readonly tppId: string;
  /** The payment's items without a final outcome yet, in order. */
  readonly instructions: readonly PaymentInstruction[];
  /** A batch-booked bulk: the bank executes its items all or none ({@link executesAllOrNone}). */
  readonly allOrNone: boolean;
}

/** The bank's answer for each item submitted (0 for a single payment). */
export type Answers = ReadonlyMap<number, RecordedOutcome>;

const OUTCOME_OF: Readonly<Record<ExecutionDecision['kind'], BatchOutcome>> = {
  executed: 'executed',
  'partially-executed': 'partiallyExecuted',
  'awaiting-funds': 'awaitingFunds',
  rejected: 'rejected',
};

/**
 * Executes payments through the core-banking port (docs/design.md §3, §8), in three steps so the bank is
 * never called inside the server's own transaction:
 *
 * 1. {@link prepare}, in the caller's transaction: the payment's items are marked submitted
 *    (`payment_submission`, outcome null) and committed before the bank hears of them;
 * 2. {@link submitAll} (or {@link submit}), outside any transaction: the items of one TPP's
 *    payments in one `submitPayments` call, in order (a later payment, and a bulk's later items,
 *    are funded by what the earlier ones left);
 * 3. {@link record}, in the caller's transaction: the answers are stored (never over a final one
 *    the outcome feed recorded first) and the payment's status follows from them.
 *
 * A crash between 1 and 3 leaves the payment in flight: no one else may move it (a cancellation is
 * refused), and the next run (or start) submits it again; the bank's idempotency by payment id
 * and item makes that second submission answer the first one's outcome without moving money.
 */
export function createPaymentExecutor(db: Db, coreBanking: CoreBanking, logger?: FastifyBaseLogger) {
  async function prepare(trx: DbOrTx, payment: Payment, executionDate: string, at: string): Promise<Submission> {
    const recorded = new Map((await paymentSubmissionRepository.ofPayment(trx, payment.id)).map((row) => [row.item, row.outcome]));
    const open = instructionsOf(payment, executionDate).filter((instruction) => !isFinalOutcome(recorded.get(instruction.item ?? 0)));
    await paymentSubmissionRepository.markInFlight(
      trx,
      payment.tppId,
      payment.id,
      open.map((instruction) => instruction.item ?? 0),
      at,
    );
    return { paymentId: payment.id, tppId: payment.tppId, instructions: open, allOrNone: executesAllOrNone(payment) };
  }

  /**
   * Submits payments of one TPP as one payment file (`submitPayments`), their items in the order
   * given; the answers per payment, in the same order.
   */
  async function submitAll(submissions: readonly Submission[]): Promise<Answers[]> {
    const tppId = submissions[0]?.tppId;
    if (tppId === undefined) return [];
    if (submissions.some((submission) => submission.tppId !== tppId)) throw new Error('a payment file holds one TPP’s payments only');
    const instructions = submissions.flatMap((submission) => submission.instructions);
    const outcomes = instructions.length === 0 ? [] : await coreBanking.submitPayments({ tppId }, instructions);
    if (outcomes.length !== instructions.length) {
      throw new Error(`the bank answered ${outcomes.length} of ${instructions.length} payments submitted`);
    }
    let next = 0;
    return submissions.map((submission) => {
      const answers = new Map<number, RecordedOutcome>();
      for (const instruction of submission.instructions) answers.set(instruction.item ?? 0, outcomes[next++]!);
      return answers;
    });
  }

  async function submit(submission: Submission): Promise<Answers> {
    const [answers] = await submitAll([submission]);
    return answers!;
  }

  /** Moves the payment by what its items' recorded outcomes say; `skipped` while one is unknown. */
  async function settle(
    trx: DbOrTx,
    payment: Payment,
    rows: readonly SubmissionRow[],
    context: ExecutionContext,
  ): Promise<ExecutionResult> {
    const settlement = settlementOf(payment, rows, context, executesAllOrNone(payment));
    if (settlement.awaitingFundsSince !== undefined) {
      await paymentStore.setAwaitingFundsSince(trx, payment.id, settlement.awaitingFundsSince);
    }
    if (settlement.change) await transitionPayment(trx, payment, settlement.change);
    return settlement.result;
  }

  async function record(trx: DbOrTx, submission: Submission, answers: Answers, context: ExecutionContext): Promise<ExecutionResult> {
    await paymentStore.lockRows(trx, [submission.paymentId]);
    const before = new Map((await paymentSubmissionRepository.ofPayment(trx, submission.paymentId)).map((row) => [row.item, row]));
    for (const [item, outcome] of answers) {
      // Accepted, but the feed has told the outcome already: that is the outcome.
      const reported = outcome.kind === 'accepted' ? before.get(item)?.reported : undefined;
      await paymentSubmissionRepository.record(trx, submission.paymentId, item, reported ?? outcome);
    }
    const payment = await paymentStore.findById(trx, submission.tppId, submission.paymentId);
    if (!payment) return 'skipped';
    return settle(trx, payment, await paymentSubmissionRepository.ofPayment(trx, payment.id), context);
  }

  /**
   * {@link prepare} of many payments in the caller's transaction, in a few statements: their
   * submissions read and their open items marked in flight together.
   */
  async function prepareMany(
    trx: DbOrTx,
    entries: readonly { readonly payment: Payment; readonly executionDate: string }[],
    at: string,
    submitted?: ReadonlyMap<string, readonly SubmissionRow[]>,
  ): Promise<Submission[]> {
    const recorded =
      submitted ??
      (await paymentSubmissionRepository.ofPayments(
        trx,
        entries.map(({ payment }) => payment.id),
      ));
    const submissions = entries.map(({ payment, executionDate }): Submission => {
      const outcomes = new Map((recorded.get(payment.id) ?? []).map((row) => [row.item, row.outcome]));
      const open = instructionsOf(payment, executionDate).filter((instruction) => !isFinalOutcome(outcomes.get(instruction.item ?? 0)));
      return { paymentId: payment.id, tppId: payment.tppId, instructions: open, allOrNone: executesAllOrNone(payment) };
    });
    await paymentSubmissionRepository.markManyInFlight(
      trx,
      submissions.map((submission) => ({
        tppId: submission.tppId,
        paymentId: submission.paymentId,
        items: submission.instructions.map((instruction) => instruction.item ?? 0),
      })),
      at,
    );
    return submissions;
  }

  /**
   * {@link record} of many payments in the caller's transaction, in a few statements whatever
   * their number: the payments locked (in id order) and read, the answers stored, each payment's
   * settlement decided in memory as {@link settle} decides it, and the status changes and their
   * audit events written together. The results in the order given. All or nothing: a failure
   * throws, and the caller records them one by one instead.
   */
  async function recordMany(
    trx: DbOrTx,
    entries: readonly { readonly submission: Submission; readonly answers: Answers; readonly context: ExecutionContext }[],
  ): Promise<ExecutionResult[]> {
    const ids = entries.map((entry) => entry.submission.paymentId);
    if (new Set(ids).size !== ids.length) throw new Error('a payment is recorded once per call');
    await paymentStore.lockRows(trx, ids);
    const before = await paymentSubmissionRepository.ofPayments(trx, ids);
    const answers: { paymentId: string; item: number; outcome: RecordedOutcome }[] = [];
    // Each payment's submissions once the answers are stored: read under the payments' locks, so
    // what the update below does to them is known without reading them again.
    const after = new Map<string, SubmissionRow[]>();
    for (const { submission, answers: given } of entries) {
      const rows = before.get(submission.paymentId) ?? [];
      const byItem = new Map(rows.map((row) => [row.item, row]));
      const stored = new Map<number, RecordedOutcome>();
      for (const [item, outcome] of given) {
        // Accepted, but the feed has told the outcome already: that is the outcome.
        const reported = outcome.kind === 'accepted' ? byItem.get(item)?.reported : undefined;
        answers.push({ paymentId: submission.paymentId, item, outcome: reported ?? outcome });
        stored.set(item, reported ?? outcome);
      }
      after.set(
        submission.paymentId,
        rows.map((row) => {
          const outcome = stored.get(row.item);
          return outcome === undefined || isFinalOutcome(row.outcome) ? row : { ...row, outcome };
        }),
      );
    }
    await paymentSubmissionRepository.recordMany(trx, answers);
    const payments = new Map<string, PaymentState>();
    for (const [tppId, ofTpp] of groupBy(entries, (entry) => entry.submission.tppId)) {
      const found = await paymentStore.findStatesById(
        trx,
        tppId,
        ofTpp.map((entry) => entry.submission.paymentId),
      );
      for (const payment of found) payments.set(payment.id, payment);
    }
    const awaiting = new Map<string, string[]>();
    const changes: { payment: PaymentState; change: StatusChange }[] = [];
    const results = entries.map(({ submission, context }): ExecutionResult => {
      const payment = payments.get(submission.paymentId);
      if (!payment) return 'skipped';
      const settlement = settlementOf(payment, after.get(payment.id) ?? [], context, submission.allOrNone);
      if (settlement.awaitingFundsSince !== undefined) {
        const since = awaiting.get(settlement.awaitingFundsSince) ?? [];
        since.push(payment.id);
        awaiting.set(settlement.awaitingFundsSince, since);
      }
      if (settlement.change) changes.push({ payment, change: settlement.change });
      return settlement.result;
    });
    for (const [since, paymentIds] of awaiting) await paymentStore.setAwaitingFundsSinceOf(trx, paymentIds, since);
    await transitionPayments(trx, changes);
    return results;
  }

  return {
    prepare,
    prepareMany,
    submit,
    submitAll,
    record,
    recordMany,

    /**
     * Submits a payment marked in a transaction that has committed (an instant payment at its
     * approval; in production mode any payment approved when due) and records the outcome in a
     * transaction of its own. A failure is logged and leaves the payment in flight, for the next
     * run to submit again.
     */
    async complete(submission: Submission, context: ExecutionContext): Promise<void> {
      try {
        const answers = await submit(submission);
        await withTransaction(db, (trx) => record(trx, submission, answers, context));
      } catch (error) {
        logger?.error({ err: error, paymentId: submission.paymentId }, 'payment submitted but not recorded; the next run submits it again');
      }
    },

    /**
     * An outcome from the bank's feed: recorded for its item unless a final one is there, and,
     * when the payment waits in ACSP for it, applied. An item still in flight is left to the run
     * that submitted it, which finds the outcome kept if the bank's answer was `accepted`.
     */
    async applyReported(
      trx: DbOrTx,
      paymentId: string,
      item: number,
      outcome: RecordedOutcome,
      context: Omit<ExecutionContext, 'today' | 'lastChance'> & { readonly todayOf: (tppId: string, trx: DbOrTx) => Promise<string> },
    ): Promise<ExecutionResult> {
      await paymentStore.lockRows(trx, [paymentId]);
      const rows = await paymentSubmissionRepository.ofPayment(trx, paymentId);
      const row = rows.find((candidate) => candidate.item === item);
      if (!row || isFinalOutcome(row.outcome)) return 'skipped';
      if (row.outcome === undefined) {
        // In flight: the run that submitted it records it (and finds this if the bank said accepted).
        await paymentSubmissionRepository.keepReported(trx, paymentId, item, outcome);
        return 'skipped';
      }
      await paymentSubmissionRepository.record(trx, paymentId, item, outcome);
      const payment = await paymentStore.findById(trx, row.tppId, paymentId);
      if (!payment || payment.status !== 'ACSP') return 'skipped';
      const today = await context.todayOf(row.tppId, trx);
      return settle(trx, payment, await paymentSubmissionRepository.ofPayment(trx, paymentId), { ...context, today, lastChance: true });
    },
  };
}

export type PaymentExecutor = ReturnType<typeof createPaymentExecutor>;

/** What recording a payment's answers does to it: its result, and the writes that make it so. */
interface Settlement {
  readonly result: ExecutionResult;
  /** The bank day the payment starts waiting for funds on, when it starts now. */
  readonly awaitingFundsSince?: string | undefined;
  readonly change?: StatusChange | undefined;
}

/**
 * How a payment moves by what its items' recorded outcomes say (docs/design.md §3); `skipped`
 * while one is unknown or when it is final already. Pure: {@link settle} and recordMany apply it.
 */
function settlementOf(payment: PaymentState, rows: readonly SubmissionRow[], context: ExecutionContext, allOrNone: boolean): Settlement {
  if (FINAL_STATUSES.has(payment.status) || rows.length === 0 || rows.some((row) => row.outcome === undefined)) {
    return { result: 'skipped' };
  }
  if (rows.some((row) => row.outcome?.kind === 'accepted')) {
    if (payment.status === 'ACSP') return { result: 'accepted' };
    return {
      result: 'accepted',
      change: {
        to: 'ACSP',
        through: payment.status === 'RCVD' || payment.status === 'PATC' ? ['ACTC'] : [],
        actor: context.actor,
        at: context.at,
        byExecutor: true,
      },
    };
  }
  const outcomes = rows.map((row) => transferOutcomeOf(row.outcome!));
  const instant = isInstant(payment.product);
  const lastChance =
    instant ||
    payment.status === 'ACSP' ||
    context.lastChance ||
    (payment.awaitingFundsSince !== undefined && payment.awaitingFundsSince < context.today);
  const decision = decideExecution(outcomes, { lastChance, today: context.today, allOrNone });
  const awaitingFundsSince =
    decision.kind === 'awaiting-funds' && payment.awaitingFundsSince === undefined ? bankDayOf(context.today) : undefined;
  const path = pathOf(payment.status, decision);
  const to = path.at(-1);
  const change: StatusChange | undefined =
    to === undefined
      ? undefined
      : {
          to,
          through: path.slice(0, -1),
          reason:
            instant && decision.kind === 'rejected' && outcomes[0] === 'insufficient-funds'
              ? 'Insufficient funds on the debtor account: the instant payment was not made'
              : reasonOf(decision),
          fundsAvailable: decision.kind === 'executed',
          actor: context.actor,
          at: context.at,
          byExecutor: true,
        };
  return { result: OUTCOME_OF[decision.kind], awaitingFundsSince, change };
}

function transferOutcomeOf(outcome: RecordedOutcome): TransferOutcome {
  switch (outcome.kind) {
    case 'executed':
      return 'booked';
    case 'pending-funds':
      return 'insufficient-funds';
    case 'rejected':
      return { refused: outcome.reason };
    case 'accepted':
      throw new Error('an accepted submission has no outcome yet');
  }
}

/**
 * The statuses a decision moves a payment through, from where it is: as {@link statusPath}, but
 * straight to the end from ACSP (the bank accepted it earlier), and from RCVD or PATC (an instant
 * payment settled at its approval) straight to ACSC or RJCT.
 */
function pathOf(from: TransactionStatus, decision: ExecutionDecision): TransactionStatus[] {
  const path = statusPath(from, decision);
  if (from === 'ACSP' || from === 'RCVD' || from === 'PATC') return path.filter((status) => status !== 'ACSP');
  return path;
}

function reasonOf(decision: ExecutionDecision): string | undefined {
  return decision.kind === 'partially-executed' || decision.kind === 'rejected' ? decision.reason : undefined;
}
