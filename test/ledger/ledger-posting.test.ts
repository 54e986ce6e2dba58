/** The double-entry rule of a ledger posting (pure). */
import { describe, expect, it } from 'vitest';
import { postingProblem, transferLegs, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';

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
