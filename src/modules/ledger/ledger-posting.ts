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

/** What a statement line shows beside its amount: the other party and the payment's message. */
export interface PostingDetails {
  readonly counterpartyName?: string | undefined;
  /** The other party's account, by IBAN or by Norwegian BBAN. */
  readonly counterpartyAccount?: { readonly iban: string } | { readonly bban: string } | undefined;
  readonly remittanceUnstructured?: string | undefined;
  /** A structured reference, such as a KID. */
  readonly remittanceReference?: string | undefined;
}

export interface LedgerPosting {
  /** Applying the same key twice records the posting once (e.g. `payment:<id>:debit`). */
  readonly idempotencyKey: string;
  readonly status: PostingStatus;
  /** YYYY-MM-DD */
  readonly bookingDate: string;
  /** YYYY-MM-DD */
  readonly valueDate: string;
  readonly description: string;
  /** What the statement shows of it beyond amount and description; none when absent. */
  readonly details?: PostingDetails | undefined;
  readonly legs: readonly LedgerLeg[];
  /**
   * False for a posting that sets a balance (an opening balance, an adjustment) rather than moves
   * money: statements leave it out. Absent means true.
   */
  readonly onStatement?: boolean;
}

/**
 * Why a posting cannot be recorded, or undefined when it can: at least two legs, no zero leg,
 * and the legs of each currency sum to zero (double entry: money moves, it is never made).
 */
export function postingProblem(posting: LedgerPosting): string | undefined {
  return legsProblem(posting.legs);
}

/** {@link postingProblem} of the legs alone. */
export function legsProblem(legs: readonly LedgerLeg[]): string | undefined {
  if (legs.length < 2) {
    return 'a posting needs at least two legs';
  }
  if (legs.some((leg) => leg.amountMinor === 0n)) {
    return 'a posting leg cannot be zero';
  }
  const sums = new Map<string, bigint>();
  for (const leg of legs) {
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

/**
 * What forgetting accounts does to one posting (sandbox deletions): `undefined` when the posting
 * goes as a whole, because every leg is on a forgotten or a `disposable` account (the posting was
 * the forgotten accounts' own business with the bank), or because nothing would be left of it;
 * otherwise its legs afterwards: those on other accounts exactly as they were, and the forgotten
 * accounts' legs moved to `successor`, summed per currency with any leg it already had (a sum of
 * zero leaves no leg). The posting still balances, and no remaining account's leg changes.
 */
export function legsAfterForgetting(
  legs: readonly LedgerLeg[],
  forgotten: ReadonlySet<string>,
  disposable: ReadonlySet<string>,
  successor: string,
): LedgerLeg[] | undefined {
  if (forgotten.has(successor)) throw new Error(`the successor ${successor} cannot be forgotten itself`);
  if (legs.every((leg) => forgotten.has(leg.accountId) || disposable.has(leg.accountId))) return undefined;
  const kept: LedgerLeg[] = [];
  const moved = new Map<string, bigint>();
  for (const leg of legs) {
    if (forgotten.has(leg.accountId) || leg.accountId === successor) {
      moved.set(leg.currency, (moved.get(leg.currency) ?? 0n) + leg.amountMinor);
    } else {
      kept.push(leg);
    }
  }
  for (const [currency, amountMinor] of moved) {
    if (amountMinor !== 0n) kept.push({ accountId: successor, currency, amountMinor });
  }
  // Only the forgotten accounts' legs and the successor's, cancelling out: nothing is left.
  return kept.length === 0 ? undefined : kept;
}
