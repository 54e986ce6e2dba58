import type { DbOrTx } from '../../db/create-db.js';
import { postingProblem, type LedgerPosting } from './ledger-posting.js';
import type { ForgetOptions, ForgetResult, RecordedPosting, StatementFilter, StatementLine } from './ledger.model.js';
import { ledgerRepository, sumsKey, type AccountSums } from './ledger.repository.js';

/** Berlin Group balance types, in integer minor units. */
export interface LedgerBalances {
  /** Booked entries only: all of them, or those dated up to the closing date asked for. */
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
  /**
   * {@link post} for many postings in one go (a payment file): the same result as posting each
   * in turn, in a few statements whatever their number.
   */
  postMany(trx: DbOrTx, postings: readonly LedgerPosting[]): Promise<RecordedPosting[]>;
  /**
   * An account's balances; with `closingDate`, closingBooked is the booked balance at the end of
   * that day (entries booked later, today's say, count in expected only).
   */
  balances(db: DbOrTx, accountId: string, currency: string, closingDate?: string): Promise<LedgerBalances>;
  /** {@link balances} of many accounts in one go, keyed by {@link balanceKey}. */
  balancesOf(db: DbOrTx, accounts: readonly { accountId: string; currency: string }[]): Promise<Map<string, LedgerBalances>>;
  /** Which of these idempotency keys have been recorded. */
  recordedAmong(db: DbOrTx, idempotencyKeys: readonly string[]): Promise<Set<string>>;
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

/** The key of an account's balances in what {@link Ledger.balancesOf} answers. */
export function balanceKey(accountId: string, currency: string): string {
  return sumsKey(accountId, currency);
}

function balancesOfSums(sums: AccountSums): LedgerBalances {
  return { closingBooked: sums.booked, expected: sums.expected, interimAvailable: sums.expected };
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

    async postMany(trx, postings) {
      for (const posting of postings) {
        const problem = postingProblem(posting);
        if (problem) throw new Error(`ledger posting ${posting.idempotencyKey} refused: ${problem}`);
      }
      return postings.length === 0 ? [] : ledgerRepository.recordMany(trx, postings, now().toISOString());
    },

    async balances(db, accountId, currency, closingDate) {
      return balancesOfSums(
        closingDate === undefined
          ? await ledgerRepository.sums(db, accountId, currency)
          : await ledgerRepository.sumsAtClose(db, accountId, currency, closingDate),
      );
    },

    async balancesOf(db, accounts) {
      const sums = await ledgerRepository.sumsOf(db, accounts);
      return new Map(
        accounts.map(({ accountId, currency }) => {
          const key = balanceKey(accountId, currency);
          return [key, balancesOfSums(sums.get(key) ?? { booked: 0n, expected: 0n })];
        }),
      );
    },

    async recordedAmong(db, idempotencyKeys) {
      return ledgerRepository.recordedAmong(db, idempotencyKeys);
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
