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
  const refusal = outcomes.find((outcome): outcome is { refused: string } => typeof outcome === 'object');
  if (context.allOrNone) return allOrNoneDecision(outcomes, context);
  if (refusal) return { kind: 'rejected', reason: `Not executed: ${refusal.refused}`, fundsAvailable: false };
  if (!context.lastChance) return { kind: 'awaiting-funds' };
  return {
    kind: 'rejected',
    reason: `Insufficient funds on the debtor account: not executed by the last batch run of ${context.today}`,
    fundsAvailable: false,
  };
}

/**
 * None of a batch-booked bulk's payments executed (the bank books all or none): rejected at once
 * when the bank refused some, naming them; else waiting for funds for the whole bulk, as a single
 * payment does, and rejected at the day's last chance.
 */
function allOrNoneDecision(outcomes: readonly TransferOutcome[], context: DecisionContext): ExecutionDecision {
  const count = `none of the ${outcomes.length} payments was executed, as the bulk is booked as one (batchBookingPreferred)`;
  const refused = outcomes.flatMap((outcome, index) => (typeof outcome === 'object' ? [`payment ${index + 1} (${outcome.refused})`] : []));
  if (refused.length > 0) return { kind: 'rejected', reason: `Not executed: ${refused.join(', ')}; ${count}`, fundsAvailable: false };
  if (!context.lastChance) return { kind: 'awaiting-funds' };
  return {
    kind: 'rejected',
    reason: `Insufficient funds on the debtor account for all the payments of the bulk: not executed by the last batch run of ${context.today}; ${count}`,
    fundsAvailable: false,
  };
}

function reasonOf(outcome: Exclude<TransferOutcome, 'booked'>): string {
  return outcome === 'insufficient-funds' ? 'insufficient funds' : outcome.refused;
}

/** How long one reason may be in a bulk's message: a bank's long refusal leaves room for the rest. */
const REASON_MAX_LENGTH = 200;

/**
 * A bulk's PART status message, within the Berlin Group's 500 characters: how many of how many
 * were executed, then the payments not executed (1-based) grouped by reason in the order they
 * first fail, consecutive ones as a range ("payments 26-300 (insufficient funds)"); what does not
 * fit is counted ("; and 12 more").
 */
export function partialExecutionMessage(outcomes: readonly TransferOutcome[]): string {
  const failed = outcomes.flatMap((outcome, index) => (outcome === 'booked' ? [] : [{ item: index + 1, reason: reasonOf(outcome) }]));
  const byReason = new Map<string, number[]>();
  for (const { item, reason } of failed) {
    const items = byReason.get(reason);
    if (items) items.push(item);
    else byReason.set(reason, [item]);
  }
  let message = `${outcomes.length - failed.length} of ${outcomes.length} payments executed; not executed: `;
  // Room kept for the longest count of the rest there can be.
  const budget = PSU_MESSAGE_MAX_LENGTH - moreThan(failed.length, failed.length).length;
  let named = 0;
  for (const [reason, items] of byReason) {
    const separator = named === 0 ? '' : '; ';
    const because = ` (${clipText(reason, REASON_MAX_LENGTH)})`;
    const shown: string[] = [];
    let count = 0;
    let length = message.length + separator.length + 'payments '.length + because.length;
    const runs = runsOf(items);
    for (const run of runs) {
      const text = run.first === run.last ? `${run.first}` : `${run.first}-${run.last}`;
      const added = (shown.length === 0 ? 0 : ', '.length) + text.length;
      if (length + added > budget) break;
      shown.push(text);
      length += added;
      count += run.last - run.first + 1;
    }
    if (shown.length === 0) break;
    message += `${separator}${count === 1 ? 'payment' : 'payments'} ${shown.join(', ')}${because}`;
    named += count;
    if (shown.length < runs.length) break;
  }
  return `${message}${moreThan(failed.length - named, named)}`;
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
