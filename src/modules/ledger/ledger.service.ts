import type { DbOrTx } from '../../db/create-db.js';
import { postingProblem, type LedgerPosting } from './ledger-posting.js';
import type { ForgetOptions, ForgetResult, RecordedPosting, StatementFilter, StatementLine } from './ledger.model.js';
import { ledgerRepository } from './ledger.repository.js';

/** Berlin Group balance types, in integer minor units. */
export interface LedgerBalances {
  /** Booked entries only. */
  readonly closingBooked: bigint;
  /** Booked and pending entries. */
  readonly expected: bigint;
  /** What may be spent now: expected, as sandbox accounts have no credit line. */
  readonly interimAvailable: bigint;
}

export interface Ledger {
  /**
   * Records a posting exactly once under its idempotency key, inside the caller's transaction so
   * it is atomic with the change that caused it. An unbalanced posting is a programming error.
   */
  post(trx: DbOrTx, posting: LedgerPosting): Promise<RecordedPosting>;
  balances(db: DbOrTx, accountId: string, currency: string): Promise<LedgerBalances>;
  /** Whether a posting under this idempotency key has been recorded. */
  isRecorded(db: DbOrTx, idempotencyKey: string): Promise<boolean>;
  /**
   * Forgets accounts, changing no other account's entries or balances: a posting only between
   * them and `disposable` accounts is deleted with all its legs; in a posting with a leg on any
   * other account, their legs move to `successor`. Only the sandbox uses it, when a TPP deletes
   * mock data; a real ledger never deletes a posting.
   */
  forget(trx: DbOrTx, accountIds: readonly string[], options: ForgetOptions): Promise<ForgetResult>;
  /** An account's legs of its postings, newest booking date first, as the filter narrows them. */
  statement(db: DbOrTx, accountId: string, currency: string, filter: StatementFilter): Promise<StatementLine[]>;
  /** How many lines the whole statement of `filter` has (no paging). */
  statementLength(db: DbOrTx, accountId: string, currency: string, filter: Omit<StatementFilter, 'before' | 'limit'>): Promise<number>;
  /** The newest posting's id, to read statements as of now later (`recordedUpTo`). */
  lastPostingId(db: DbOrTx): Promise<number>;
}

/**
 * The sandbox bank's double-entry ledger. Balances are kept per account in the same
 * transaction as the entries that change them (a funds check per payment must not sum
 * an account's whole history), so they always equal the sum of the entries.
 */
export function createLedger(now: () => Date): Ledger {
  return {
    async post(trx, posting) {
      const problem = postingProblem(posting);
      if (problem) {
        throw new Error(`ledger posting ${posting.idempotencyKey} refused: ${problem}`);
      }
      return ledgerRepository.record(trx, posting, now().toISOString());
    },

    async balances(db, accountId, currency) {
      const sums = await ledgerRepository.sums(db, accountId, currency);
      return { closingBooked: sums.booked, expected: sums.expected, interimAvailable: sums.expected };
    },

    async isRecorded(db, idempotencyKey) {
      return ledgerRepository.isRecorded(db, idempotencyKey);
    },

    async forget(trx, accountIds, options) {
      return ledgerRepository.forget(trx, accountIds, options);
    },

    async statement(db, accountId, currency, filter) {
      return ledgerRepository.statement(db, accountId, currency, filter);
    },

    async statementLength(db, accountId, currency, filter) {
      return ledgerRepository.statementLength(db, accountId, currency, filter);
    },

    async lastPostingId(db) {
      return ledgerRepository.lastPostingId(db);
    },
  };
}
