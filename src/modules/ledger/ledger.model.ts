import type { PostingDetails, PostingStatus } from './ledger-posting.js';

export interface RecordedPosting {
  readonly transactionId: number;
  /** False when the idempotency key was already recorded: nothing was written this time. */
  readonly applied: boolean;
}

/** Forgetting accounts: who takes over their legs in postings that stay, and whose legs may go with theirs. */
export interface ForgetOptions {
  /** Takes over the forgotten accounts' legs in every posting that also has a leg elsewhere. */
  readonly successor: string;
  /** Accounts whose legs go with a posting otherwise only on forgotten accounts (a TPP's system accounts). */
  readonly disposable: readonly string[];
}

export interface ForgetResult {
  /** Transactions deleted with all their legs. */
  readonly removed: number;
  /** Transactions kept, the forgotten accounts' legs now the successor's. */
  readonly kept: number;
}

/** Which of an account's statement lines (postings on the statement) a statement reads. */
export interface StatementFilter {
  readonly status?: PostingStatus | undefined;
  readonly dateFrom?: string | undefined;
  readonly dateTo?: string | undefined;
  /** Only the posting of this key. */
  readonly key?: string | undefined;
  /** Only lines after this one in the statement's order (booking date, then id, both descending). */
  readonly before?: { readonly bookingDate: string; readonly id: number } | undefined;
  /**
   * Only postings recorded up to this one (ids grow as postings are recorded): a statement read
   * as of an earlier moment, so later postings, whatever their booking date, shift nothing.
   */
  readonly recordedUpTo?: number | undefined;
  readonly limit?: number | undefined;
}

/** One account's leg of a posting, with the posting's own fields. */
export interface StatementLine {
  readonly id: number;
  readonly idempotencyKey: string;
  readonly status: PostingStatus;
  readonly bookingDate: string;
  readonly valueDate: string;
  readonly description: string;
  readonly details: PostingDetails;
  /** The account's leg: positive credits it. */
  readonly amountMinor: bigint;
}
