/**
 * What a batch run makes of a payment from the bank's answers (docs/design.md §3), pure:
 * - every transfer booked: executed (ACSP then ACSC), from ACTC, PDNG or ACCP alike;
 * - some booked (a bulk): partially executed (ACSP then PART), naming each payment not executed
 *   (1-based) with why, whether or not later runs are left that day; the message groups equal
 *   reasons and consecutive payments, and stays within the Berlin Group's 500 characters
 *   (psuMessageText), counting the payments it cannot name ("and N more");
 * - none booked and one refused by the bank: rejected at once (RJCT, fundsAvailable false, the
 *   bank's reason), since a retry would not change the answer;
 * - none booked for lack of funds: awaiting funds (ACCP; nothing more when already ACCP) until the
 *   day's last chance, then rejected (RJCT) with a reason naming insufficient funds and the date;
 * - a bulk booked as one (batchBookingPreferred, all or none): none booked is rejected (at once
 *   when refused, naming the payments; for funds at the last chance) saying none was executed;
 * - every status path starts from where the payment is and only takes legal transitions.
 */
import { describe, expect, it } from 'vitest';
import {
  decideExecution,
  partialExecutionMessage,
  statusPath,
  type ExecutionDecision,
  type TransferOutcome,
} from '../../src/modules/execution/execution-decision.js';
import { canTransition, type TransactionStatus } from '../../src/modules/payments/payment-status.js';
import { PSU_MESSAGE_MAX_LENGTH } from '../../src/domain/psu-message.js';

const TODAY = '2026-11-23';
const RETRIED = { lastChance: false, today: TODAY };
const LAST = { lastChance: true, today: TODAY };
const NO_RATE = { refused: 'The bank has no exchange rate from XAU to NOK' };

describe('decideExecution', () => {
  it.each([
    ['one transfer booked', ['booked']],
    ['every transfer of a bulk booked', ['booked', 'booked', 'booked']],
  ] as [string, TransferOutcome[]][])('%s: executed, before and at the last chance', (_what, outcomes) => {
    expect(decideExecution(outcomes, RETRIED)).toEqual({ kind: 'executed' });
    expect(decideExecution(outcomes, LAST)).toEqual({ kind: 'executed' });
  });

  it('some of a bulk booked: partially executed, naming the payments not executed (1-based) and why', () => {
    const outcomes: TransferOutcome[] = ['booked', 'insufficient-funds', NO_RATE, 'booked'];
    const expected = {
      kind: 'partially-executed',
      reason:
        '2 of 4 payments executed; not executed: payment 2 (insufficient funds); payment 3 (The bank has no exchange rate from XAU to NOK)',
    };
    expect(decideExecution(outcomes, RETRIED)).toEqual(expected);
    expect(decideExecution(outcomes, LAST)).toEqual(expected);
  });

  it('one of two booked, the first lacking funds', () => {
    expect(decideExecution(['insufficient-funds', 'booked'], RETRIED)).toEqual({
      kind: 'partially-executed',
      reason: '1 of 2 payments executed; not executed: payment 1 (insufficient funds)',
    });
  });

  it('none booked for lack of funds before the last chance: awaiting funds', () => {
    expect(decideExecution(['insufficient-funds'], RETRIED)).toEqual({ kind: 'awaiting-funds' });
    expect(decideExecution(['insufficient-funds', 'insufficient-funds'], RETRIED)).toEqual({ kind: 'awaiting-funds' });
  });

  it('none booked for lack of funds at the last chance: rejected, naming insufficient funds and the date', () => {
    const decision = decideExecution(['insufficient-funds'], LAST);
    expect(decision).toEqual({
      kind: 'rejected',
      reason: `Insufficient funds on the debtor account: not executed by the last batch run of ${TODAY}`,
      fundsAvailable: false,
    });
    expect(decideExecution(['insufficient-funds', 'insufficient-funds'], LAST)).toEqual(decision);
  });

  it('none booked and refused by the bank: rejected at once with the bank reason, whatever the time', () => {
    const expected = { kind: 'rejected', reason: `Not executed: ${NO_RATE.refused}`, fundsAvailable: false };
    expect(decideExecution([NO_RATE], RETRIED)).toEqual(expected);
    expect(decideExecution([NO_RATE], LAST)).toEqual(expected);
    // A refusal among payments lacking funds: waiting would not make the bank pay it.
    expect(decideExecution(['insufficient-funds', NO_RATE], RETRIED)).toEqual(expected);
  });

  describe('a bulk booked as one (batchBookingPreferred: all or none)', () => {
    const ALL_OR_NONE_RETRIED = { ...RETRIED, allOrNone: true };
    const ALL_OR_NONE_LAST = { ...LAST, allOrNone: true };
    const NONE = 'none of the 3 payments was executed, as the bulk is booked as one (batchBookingPreferred)';

    it('all booked: executed', () => {
      expect(decideExecution(['booked', 'booked', 'booked'], ALL_OR_NONE_LAST)).toEqual({ kind: 'executed' });
    });

    it('none booked for lack of funds: awaiting funds, then rejected at the last chance saying none was executed', () => {
      const outcomes: TransferOutcome[] = ['insufficient-funds', 'insufficient-funds', 'insufficient-funds'];
      expect(decideExecution(outcomes, ALL_OR_NONE_RETRIED)).toEqual({ kind: 'awaiting-funds' });
      expect(decideExecution(outcomes, ALL_OR_NONE_LAST)).toEqual({
        kind: 'rejected',
        reason: `Insufficient funds on the debtor account for all the payments of the bulk: not executed by the last batch run of ${TODAY}; ${NONE}`,
        fundsAvailable: false,
      });
    });

    it('one refused by the bank: rejected at once, naming the payments refused and that none was executed', () => {
      const expected = {
        kind: 'rejected',
        reason: `Not executed: payment 2 (${NO_RATE.refused}); ${NONE}`,
        fundsAvailable: false,
      };
      expect(decideExecution(['insufficient-funds', NO_RATE, 'insufficient-funds'], ALL_OR_NONE_RETRIED)).toEqual(expected);
      expect(decideExecution(['insufficient-funds', NO_RATE, 'insufficient-funds'], ALL_OR_NONE_LAST)).toEqual(expected);
    });

    it('a thousand refused: within 500 characters, grouped, and the closing "none was executed" kept', () => {
      const outcomes: TransferOutcome[] = Array.from({ length: 1000 }, (_, index) =>
        index % 2 === 0 ? { refused: 'the creditor account is closed' } : { refused: 'x'.repeat(300) },
      );
      const decision = decideExecution(outcomes, ALL_OR_NONE_RETRIED);
      expect(decision.kind).toBe('rejected');
      const reason = (decision as { reason: string }).reason;
      expect(reason.length).toBeLessThanOrEqual(500);
      expect(reason).toMatch(/^Not executed: payments 1, 3, 5, /);
      expect(reason).toMatch(
        /; and \d+ more; none of the 1000 payments was executed, as the bulk is booked as one \(batchBookingPreferred\)$/,
      );
    });

    it('some booked (a bank that did not book all or none): partially executed, as it happened', () => {
      expect(decideExecution(['booked', 'insufficient-funds', 'booked'], ALL_OR_NONE_LAST).kind).toBe('partially-executed');
    });
  });
});

describe('partialExecutionMessage', () => {
  const bulkOf = (count: number, outcomeOf: (item: number) => TransferOutcome): TransferOutcome[] =>
    Array.from({ length: count }, (_, index) => outcomeOf(index + 1));

  it('300 payments, 275 lacking funds: within 500 characters, saying how many were executed and which were not', () => {
    const message = partialExecutionMessage(bulkOf(300, (item) => (item <= 25 ? 'booked' : 'insufficient-funds')));
    expect(message.length).toBeLessThanOrEqual(PSU_MESSAGE_MAX_LENGTH);
    expect(message).toBe('25 of 300 payments executed; not executed: payments 26-300 (insufficient funds)');
  });

  it('every other of 300 lacking funds: names those that fit, in order, and counts the rest', () => {
    const message = partialExecutionMessage(bulkOf(300, (item) => (item % 2 === 0 ? 'insufficient-funds' : 'booked')));
    expect(message.length).toBeLessThanOrEqual(PSU_MESSAGE_MAX_LENGTH);
    expect(message).toMatch(
      /^150 of 300 payments executed; not executed: payments 2, 4, 6, 8, [\d, ]+ \(insufficient funds\); and \d+ more$/,
    );
    const named = /payments ([\d, ]+) \(/.exec(message)![1]!.split(', ').map(Number);
    expect(named).toEqual(named.map((_, index) => 2 * (index + 1)));
    expect(message).toContain(`; and ${150 - named.length} more`);
  });

  it('groups equal reasons, in the order they first fail, consecutive payments as a range', () => {
    const message = partialExecutionMessage(
      bulkOf(8, (item) => (item === 1 || item === 5 ? 'booked' : item === 3 ? NO_RATE : 'insufficient-funds')),
    );
    expect(message).toBe(
      '2 of 8 payments executed; not executed: payments 2, 4, 6-8 (insufficient funds); payment 3 (The bank has no exchange rate from XAU to NOK)',
    );
  });

  it("a bank's very long reasons, each its own: cut, and the message still within 500 characters", () => {
    const long = (item: number): TransferOutcome => ({ refused: `Refused ${item}: ${'the bank explains at length '.repeat(40)}` });
    const message = partialExecutionMessage(bulkOf(1000, (item) => (item === 1 ? 'booked' : long(item))));
    expect(message.length).toBeLessThanOrEqual(PSU_MESSAGE_MAX_LENGTH);
    expect(message).toMatch(
      /^1 of 1000 payments executed; not executed: payment 2 \(Refused 2: the bank explains [^)]*…\); .*; and \d+ more$/,
    );
  });
});

describe('statusPath', () => {
  const DUE: readonly TransactionStatus[] = ['ACTC', 'PDNG', 'ACCP'];
  const executed: ExecutionDecision = { kind: 'executed' };
  const partial: ExecutionDecision = { kind: 'partially-executed', reason: 'x' };
  const awaiting: ExecutionDecision = { kind: 'awaiting-funds' };
  const rejected: ExecutionDecision = { kind: 'rejected', reason: 'x', fundsAvailable: false };

  it.each(DUE)('from %s: executed ACSP then ACSC, partially ACSP then PART, rejected RJCT', (from) => {
    expect(statusPath(from, executed)).toEqual(['ACSP', 'ACSC']);
    expect(statusPath(from, partial)).toEqual(['ACSP', 'PART']);
    expect(statusPath(from, rejected)).toEqual(['RJCT']);
  });

  it('awaiting funds: ACTC and PDNG move to ACCP; an ACCP payment retried in vain stays (no move)', () => {
    expect(statusPath('ACTC', awaiting)).toEqual(['ACCP']);
    expect(statusPath('PDNG', awaiting)).toEqual(['ACCP']);
    expect(statusPath('ACCP', awaiting)).toEqual([]);
  });

  it.each(DUE)('from %s every path takes legal transitions only', (from) => {
    for (const decision of [executed, partial, awaiting, rejected]) {
      let at = from;
      for (const to of statusPath(from, decision)) {
        expect(canTransition(at, to), `${decision.kind}: ${at} -> ${to}`).toBe(true);
        at = to;
      }
    }
  });
});
