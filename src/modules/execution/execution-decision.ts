import { clipText, PSU_MESSAGE_MAX_LENGTH } from '../../domain/psu-message.js';
import type { TransactionStatus } from '../payments/payment-status.js';

/*
 * What a batch run makes of a payment once the bank has answered for each of its transfers (one
 * for a single payment, one per payment of a bulk). Pure: the runner applies it (docs/design.md §3).
 */

/** The bank's answer for one transfer, as far as the payment's status is concerned. */
export type TransferOutcome = 'booked' | 'insufficient-funds' | { readonly refused: string };

export type ExecutionDecision =
  | { readonly kind: 'executed' }
  | { readonly kind: 'partially-executed'; readonly reason: string }
  | { readonly kind: 'awaiting-funds' }
  | { readonly kind: 'rejected'; readonly reason: string; readonly fundsAvailable: boolean };

export interface DecisionContext {
  /** No later run of this bank day may retry it: the day's last run, or its day has passed. */
  readonly lastChance: boolean;
  /** The TPP's bank date, named in the reason of a rejection. */
  readonly today: string;
  /**
   * A bulk the PSU asked to have booked as one (batchBookingPreferred): the bank executes all its
   * payments or none, so a rejection says that none was and names what stopped them.
   */
  readonly allOrNone?: boolean | undefined;
}

/**
 * All transfers booked: executed. Some booked: a bulk partly executed (PART), naming the payments
 * that were not ({@link partialExecutionMessage}; a batch-booked bulk never is: its bank books all
 * or none). None booked: for lack of funds, awaiting funds until the day's last chance, then
 * rejected; refused by the bank, rejected at once (a retry would not change the answer).
 */
export function decideExecution(outcomes: readonly TransferOutcome[], context: DecisionContext): ExecutionDecision {
  const booked = outcomes.filter((outcome) => outcome === 'booked').length;
  if (booked === outcomes.length) return { kind: 'executed' };
  if (booked > 0) return { kind: 'partially-executed', reason: partialExecutionMessage(outcomes) };
  // None booked. A batch-booked bulk (all or none) says so, and names every payment refused.
  const none = context.allOrNone
    ? `; none of the ${outcomes.length} payments was executed, as the bulk is booked as one (batchBookingPreferred)`
    : '';
  const refused = failuresOf(outcomes).filter((failure) => failure.refused);
  if (refused.length > 0) {
    const head = 'Not executed: ';
    const named = context.allOrNone ? namedFailures(refused, PSU_MESSAGE_MAX_LENGTH - head.length - none.length) : refused[0]!.reason;
    return { kind: 'rejected', reason: `${head}${named}${none}`, fundsAvailable: false };
  }
  if (!context.lastChance) return { kind: 'awaiting-funds' };
  const whose = context.allOrNone ? ' for all the payments of the bulk' : '';
  return {
    kind: 'rejected',
    reason: `Insufficient funds on the debtor account${whose}: not executed by the last batch run of ${context.today}${none}`,
    fundsAvailable: false,
  };
}

/** A payment of the bulk (1-based) that was not executed, and why. */
interface Failure {
  readonly item: number;
  readonly reason: string;
  /** Refused by the bank (a retry would not change the answer), not lacking funds. */
  readonly refused: boolean;
}

function failuresOf(outcomes: readonly TransferOutcome[]): Failure[] {
  return outcomes.flatMap((outcome, index): Failure[] =>
    outcome === 'booked'
      ? []
      : outcome === 'insufficient-funds'
        ? [{ item: index + 1, reason: 'insufficient funds', refused: false }]
        : [{ item: index + 1, reason: outcome.refused, refused: true }],
  );
}

/** How long one reason may be in a bulk's message: a bank's long refusal leaves room for the rest. */
const REASON_MAX_LENGTH = 200;

/**
 * A bulk's PART status message, within the Berlin Group's 500 characters: how many of how many
 * were executed, then the payments not executed ({@link namedFailures}).
 */
export function partialExecutionMessage(outcomes: readonly TransferOutcome[]): string {
  const failed = failuresOf(outcomes);
  const head = `${outcomes.length - failed.length} of ${outcomes.length} payments executed; not executed: `;
  return `${head}${namedFailures(failed, PSU_MESSAGE_MAX_LENGTH - head.length)}`;
}

/**
 * The payments not executed (1-based) in at most `room` characters, grouped by reason in the
 * order they first fail, consecutive ones as a range ("payments 26-300 (insufficient funds)");
 * what does not fit is counted ("; and 12 more").
 */
function namedFailures(failed: readonly Failure[], room: number): string {
  const byReason = new Map<string, number[]>();
  for (const { item, reason } of failed) {
    const items = byReason.get(reason);
    if (items) items.push(item);
    else byReason.set(reason, [item]);
  }
  let text = '';
  // Room kept for the longest count of the rest there can be.
  const budget = room - moreThan(failed.length, failed.length).length;
  let named = 0;
  for (const [reason, items] of byReason) {
    const separator = named === 0 ? '' : '; ';
    const because = ` (${clipText(reason, REASON_MAX_LENGTH)})`;
    const shown: string[] = [];
    let count = 0;
    let length = text.length + separator.length + 'payments '.length + because.length;
    const runs = runsOf(items);
    for (const run of runs) {
      const written = run.first === run.last ? `${run.first}` : `${run.first}-${run.last}`;
      const added = (shown.length === 0 ? 0 : ', '.length) + written.length;
      if (length + added > budget) break;
      shown.push(written);
      length += added;
      count += run.last - run.first + 1;
    }
    if (shown.length === 0) break;
    text += `${separator}${count === 1 ? 'payment' : 'payments'} ${shown.join(', ')}${because}`;
    named += count;
    if (shown.length < runs.length) break;
  }
  return `${text}${moreThan(failed.length - named, named)}`;
}

/** The count of failed payments not named: "; and 12 more", or when none could be named "300 payments". */
function moreThan(unnamed: number, named: number): string {
  if (unnamed === 0) return '';
  return named === 0 ? `${unnamed} payments` : `; and ${unnamed} more`;
}

/** Ascending item numbers as runs of consecutive ones. */
function runsOf(items: readonly number[]): { first: number; last: number }[] {
  const runs: { first: number; last: number }[] = [];
  for (const item of items) {
    const run = runs.at(-1);
    if (run !== undefined && run.last + 1 === item) run.last = item;
    else runs.push({ first: item, last: item });
  }
  return runs;
}

/** The statuses a decision moves a payment through, from where it is; empty when it stays (ACCP retried in vain). */
export function statusPath(from: TransactionStatus, decision: ExecutionDecision): TransactionStatus[] {
  switch (decision.kind) {
    case 'executed':
      return ['ACSP', 'ACSC'];
    case 'partially-executed':
      return ['ACSP', 'PART'];
    case 'awaiting-funds':
      return from === 'ACCP' ? [] : ['ACCP'];
    case 'rejected':
      return ['RJCT'];
  }
}
