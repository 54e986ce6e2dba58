/**
 * A signing basket's status (docs/design.md §2): the worst case of its payments in the order
 * RJCT < RCVD < PATC < ACTC. Anything past ACTC (pending, settling, settled, partly settled)
 * counts as ACTC, a cancelled payment as RJCT, and a deleted basket is CANC whatever its payments
 * do. The rule is written out here independently of the source (a literal table and a rank), and
 * checked against every ordered pair and triple of the 11 payment statuses. A basket may be
 * authorised while it is not deleted and one of its payments waits for approval (RCVD or PATC),
 * whatever the others do.
 */
import { describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES, type TransactionStatus } from '../../src/modules/payments/payment-status.js';
import { basketAllows, basketStatusOf, countedAs } from '../../src/modules/signing-baskets/basket-status.js';

type Counted = 'RJCT' | 'RCVD' | 'PATC' | 'ACTC';

/** What each payment status counts as in its basket, written out (not read from the source). */
const COUNTED: readonly (readonly [TransactionStatus, Counted])[] = [
  ['RCVD', 'RCVD'],
  ['PATC', 'PATC'],
  ['ACTC', 'ACTC'],
  ['PDNG', 'ACTC'],
  ['ACCP', 'ACTC'],
  ['ACSP', 'ACTC'],
  ['ACSC', 'ACTC'],
  ['ACCC', 'ACTC'],
  ['PART', 'ACTC'],
  ['RJCT', 'RJCT'],
  ['CANC', 'RJCT'],
];
const COUNTED_AS = new Map<TransactionStatus, Counted>(COUNTED);

/** Worse is lower. */
const RANK: Readonly<Record<Counted, number>> = { RJCT: 0, RCVD: 1, PATC: 2, ACTC: 3 };

/** The rule, independently: the counted status of lowest rank. */
function expected(statuses: readonly TransactionStatus[]): Counted {
  let worst: Counted | undefined;
  for (const status of statuses) {
    const counted = COUNTED_AS.get(status);
    if (counted === undefined) throw new Error(`no literal mapping for ${status}`);
    if (worst === undefined || RANK[counted] < RANK[worst]) worst = counted;
  }
  if (worst === undefined) throw new Error('a basket holds at least one payment');
  return worst;
}

const pairs: TransactionStatus[][] = TRANSACTION_STATUSES.flatMap((a) => TRANSACTION_STATUSES.map((b) => [a, b]));
const triples: TransactionStatus[][] = pairs.flatMap((pair) => TRANSACTION_STATUSES.map((c) => [...pair, c]));

/** Every ordering of a list (6 for a triple), duplicates included. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

describe('what a payment status counts as', () => {
  it('the literal table covers exactly the 11 payment statuses', () => {
    expect(COUNTED.map(([status]) => status).sort()).toEqual([...TRANSACTION_STATUSES].sort());
    expect(TRANSACTION_STATUSES).toHaveLength(11);
  });

  it.each(COUNTED)('%s counts as %s', (status, counted) => {
    expect(countedAs(status)).toBe(counted);
    // A basket of that one payment has that status.
    expect(basketStatusOf([status], false)).toBe(counted);
  });
});

describe('the worst case of every combination', () => {
  it('generates 11^2 ordered pairs and 11^3 ordered triples', () => {
    expect(pairs).toHaveLength(121);
    expect(triples).toHaveLength(1331);
    expect(new Set(triples.map((triple) => triple.join(','))).size).toBe(1331);
  });

  it.each(pairs.map((pair) => [pair.join(','), expected(pair), pair] as const))('[%s] → %s', (_name, worst, pair) => {
    expect(basketStatusOf(pair, false)).toBe(worst);
  });

  it.each(triples.map((triple) => [triple.join(','), expected(triple), triple] as const))('[%s] → %s', (_name, worst, triple) => {
    expect(basketStatusOf(triple, false)).toBe(worst);
  });
});

describe('a full basket of 10 payments', () => {
  const approved: TransactionStatus[] = ['ACTC', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACCC', 'PART', 'ACTC', 'PDNG', 'ACSC'];

  it('of approved or executed payments only is ACTC', () => {
    expect(basketStatusOf(approved, false)).toBe('ACTC');
  });

  it.each(['RJCT', 'CANC'] as const)('with one %s payment, at any position, is RJCT', (bad) => {
    for (let position = 0; position < 10; position++) {
      const statuses = approved.map((status, index) => (index === position ? bad : status));
      expect(statuses).toHaveLength(10);
      expect(basketStatusOf(statuses, false), `${bad} at position ${position}`).toBe('RJCT');
    }
  });

  it('with one RJCT among RCVD and PATC payments is still RJCT (rejected is worse than waiting)', () => {
    const waiting: TransactionStatus[] = ['RCVD', 'PATC', 'RCVD', 'PATC', 'RCVD', 'PATC', 'RCVD', 'PATC', 'RCVD', 'CANC'];
    expect(basketStatusOf(waiting, false)).toBe('RJCT');
  });

  it('with one RCVD payment among approved ones is RCVD; with one PATC instead, PATC', () => {
    expect(basketStatusOf([...approved.slice(0, 9), 'RCVD'], false)).toBe('RCVD');
    expect(basketStatusOf(['PATC', ...approved.slice(1)], false)).toBe('PATC');
    expect(basketStatusOf(['PATC', ...approved.slice(1, 9), 'RCVD'], false)).toBe('RCVD');
  });
});

describe('a deleted basket', () => {
  it.each(TRANSACTION_STATUSES.map((status) => [status]))('is CANC with a %s payment', (status) => {
    expect(basketStatusOf([status], true)).toBe('CANC');
  });

  it('is CANC for every pair and every triple of payment statuses', () => {
    for (const statuses of [...pairs, ...triples]) {
      expect(basketStatusOf(statuses, true), statuses.join(',')).toBe('CANC');
    }
  });

  it('is CANC with 10 approved payments, and with no payment at all', () => {
    expect(basketStatusOf(Array<TransactionStatus>(10).fill('ACSC'), true)).toBe('CANC');
    expect(basketStatusOf([], true)).toBe('CANC');
  });
});

describe('order', () => {
  it('does not matter: every ordering of every triple has the same status', () => {
    for (const triple of triples) {
      const statuses = new Set(permutations(triple).map((ordering) => basketStatusOf(ordering, false)));
      expect([...statuses], triple.join(',')).toEqual([expected(triple)]);
    }
  });

  it('does not matter in a basket of 10: reversed and rotated', () => {
    const statuses: TransactionStatus[] = ['ACSC', 'PATC', 'ACTC', 'PDNG', 'RCVD', 'ACCC', 'PART', 'ACSP', 'ACCP', 'ACTC'];
    const results = [
      statuses,
      [...statuses].reverse(),
      ...statuses.map((_, shift) => [...statuses.slice(shift), ...statuses.slice(0, shift)]),
    ].map((ordering) => basketStatusOf(ordering, false));
    expect(new Set(results)).toEqual(new Set(['RCVD']));
  });

  it('is not changed by repeating a payment status', () => {
    for (const [status] of COUNTED) {
      expect(basketStatusOf([status, status, status], false)).toBe(basketStatusOf([status], false));
    }
  });
});

describe('an empty list of payments (a basket always holds one; defensive)', () => {
  it('is RJCT: nothing in it could be executed', () => {
    expect(basketStatusOf([], false)).toBe('RJCT');
  });
});

describe('basketAllows authorise', () => {
  /** The payment statuses that wait for approval, written out. */
  const WAITING: readonly TransactionStatus[] = ['RCVD', 'PATC'];

  it.each(TRANSACTION_STATUSES)('a basket of one %s payment may be authorised exactly when it waits for approval', (status) => {
    expect(basketAllows([status], false, 'authorise')).toBe(WAITING.includes(status));
  });

  it('is allowed by one waiting payment among rejected and approved ones, though the basket is RJCT', () => {
    const statuses: TransactionStatus[] = ['RJCT', 'ACTC', 'CANC', 'PATC'];
    expect(basketStatusOf(statuses, false)).toBe('RJCT');
    expect(basketAllows(statuses, false, 'authorise')).toBe(true);
  });

  it('is never allowed once the TPP deleted the basket', () => {
    for (const status of TRANSACTION_STATUSES) expect(basketAllows([status, 'RCVD'], true, 'authorise')).toBe(false);
  });

  it('is not allowed when no payment waits', () => {
    expect(basketAllows(['ACTC', 'PDNG', 'RJCT', 'CANC', 'ACSC'], false, 'authorise')).toBe(false);
  });
});
