/**
 * What the ledger is asked to record: pure data and the double-entry rule, no I/O.
 */
export interface LedgerLeg {
  readonly accountId: string;
  readonly currency: string;
  /** Integer minor units; positive credits the account, negative debits it. */
  readonly amountMinor: bigint;
}

export type PostingStatus = 'booked' | 'pending';

export interface LedgerPosting {
  /** Applying the same key twice records the posting once (e.g. `payment:<id>:debit`). */
  readonly idempotencyKey: string;
  readonly status: PostingStatus;
  /** YYYY-MM-DD */
  readonly bookingDate: string;
  /** YYYY-MM-DD */
  readonly valueDate: string;
  readonly description: string;
  readonly legs: readonly LedgerLeg[];
}

/**
 * Why a posting cannot be recorded, or undefined when it can: at least two legs, no zero leg,
 * and the legs of each currency sum to zero (double entry: money moves, it is never made).
 */
export function postingProblem(posting: LedgerPosting): string | undefined {
  if (posting.legs.length < 2) {
    return 'a posting needs at least two legs';
  }
  if (posting.legs.some((leg) => leg.amountMinor === 0n)) {
    return 'a posting leg cannot be zero';
  }
  const sums = new Map<string, bigint>();
  for (const leg of posting.legs) {
    sums.set(leg.currency, (sums.get(leg.currency) ?? 0n) + leg.amountMinor);
  }
  const unbalanced = [...sums].find(([, sum]) => sum !== 0n);
  if (unbalanced) {
    return `the ${unbalanced[0]} legs sum to ${unbalanced[1]}, not 0`;
  }
  return undefined;
}

/** A transfer of `amountMinor` from one account to another: the common two-legged posting. */
export function transferLegs(from: string, to: string, currency: string, amountMinor: bigint): LedgerLeg[] {
  return [
    { accountId: from, currency, amountMinor: -amountMinor },
    { accountId: to, currency, amountMinor },
  ];
}
