/** The double-entry rule of a ledger posting, and what forgetting accounts does to one (pure). */
import { describe, expect, it } from 'vitest';
import { legsAfterForgetting, postingProblem, transferLegs, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';

const base: Omit<LedgerPosting, 'legs'> = {
  idempotencyKey: 'k',
  status: 'booked',
  bookingDate: '2026-11-20',
  valueDate: '2026-11-20',
  description: 'test',
};

describe('postingProblem', () => {
  it('accepts a transfer', () => {
    expect(postingProblem({ ...base, legs: transferLegs('a', 'b', 'NOK', 100n) })).toBeUndefined();
  });

  it('accepts balanced legs in several currencies', () => {
    expect(
      postingProblem({ ...base, legs: [...transferLegs('a', 'b', 'NOK', 100n), ...transferLegs('c', 'd', 'EUR', 5n)] }),
    ).toBeUndefined();
  });

  it.each([
    ['one leg', [{ accountId: 'a', currency: 'NOK', amountMinor: 100n }], 'at least two legs'],
    ['a zero leg', transferLegs('a', 'b', 'NOK', 0n), 'cannot be zero'],
    [
      'legs that do not sum to zero',
      [
        { accountId: 'a', currency: 'NOK', amountMinor: -100n },
        { accountId: 'b', currency: 'NOK', amountMinor: 99n },
      ],
      'NOK legs sum to -1',
    ],
    [
      'legs in two currencies',
      [
        { accountId: 'a', currency: 'NOK', amountMinor: -100n },
        { accountId: 'b', currency: 'EUR', amountMinor: 100n },
      ],
      'sum to',
    ],
  ])('refuses %s', (_name, legs, problem) => {
    expect(postingProblem({ ...base, legs })).toContain(problem);
  });
});

describe('legsAfterForgetting', () => {
  const forgotten = new Set(['a', 'a2']);
  const system = new Set(['clearing', 'adjustment']);
  const after = (legs: LedgerPosting['legs']) => legsAfterForgetting(legs, forgotten, system, 'clearing');

  it('drops a posting only between forgotten and disposable accounts', () => {
    expect(after(transferLegs('clearing', 'a', 'NOK', 100n))).toBeUndefined();
    expect(after(transferLegs('adjustment', 'a', 'NOK', 100n))).toBeUndefined();
    expect(after(transferLegs('a', 'a2', 'NOK', 100n))).toBeUndefined();
  });

  it("keeps a posting with another account, its leg untouched, the forgotten leg now the successor's", () => {
    expect(after(transferLegs('a', 'b', 'NOK', 100n))).toEqual([
      { accountId: 'b', currency: 'NOK', amountMinor: 100n },
      { accountId: 'clearing', currency: 'NOK', amountMinor: -100n },
    ]);
    expect(after(transferLegs('b', 'a', 'NOK', 7n))).toEqual([
      { accountId: 'b', currency: 'NOK', amountMinor: -7n },
      { accountId: 'clearing', currency: 'NOK', amountMinor: 7n },
    ]);
  });

  it("sums the moved legs with the successor's own per currency, leaving no zero leg", () => {
    const exchange = [...transferLegs('a', 'clearing', 'NOK', 1_150n), ...transferLegs('clearing', 'b', 'EUR', 100n)];
    const legs = after(exchange)!;
    expect(legs).toEqual([
      { accountId: 'b', currency: 'EUR', amountMinor: 100n },
      { accountId: 'clearing', currency: 'EUR', amountMinor: -100n },
    ]);
    expect(postingProblem({ ...base, legs })).toBeUndefined();
  });

  it('drops a posting of which nothing would be left', () => {
    expect(legsAfterForgetting(transferLegs('a', 'suspense', 'NOK', 5n), forgotten, new Set(), 'suspense')).toBeUndefined();
  });

  it('refuses a successor that is forgotten itself', () => {
    expect(() => legsAfterForgetting(transferLegs('a', 'b', 'NOK', 1n), forgotten, system, 'a')).toThrow('cannot be forgotten');
  });
});
