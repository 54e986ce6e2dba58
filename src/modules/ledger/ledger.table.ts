import type { Generated } from 'kysely';

/**
 * One business event on the ledger (a payment's debit, a sandbox transaction, a balance
 * adjustment), applied at most once: its idempotency key is unique.
 */
export interface LedgerTransactionTable {
  id: Generated<number>;
  idempotency_key: string;
  /** booked | pending: pending entries count in `expected`, not in `closingBooked`. */
  status: string;
  booking_date: string;
  value_date: string;
  description: string;
  /** What the statement shows beside amount and description (migration 0025); null when not given. */
  counterparty_name: string | null;
  counterparty_iban: string | null;
  counterparty_bban: string | null;
  remittance_unstructured: string | null;
  remittance_reference: string | null;
  created_at: string;
  /** False for a posting that sets a balance rather than moves money: no statement line. 1 or 0 on SQLite. */
  on_statement: Generated<boolean | number>;
}

/**
 * The legs of a transaction: signed amounts in integer minor units (credit to the account
 * positive, debit negative) that sum to zero per currency, so money is never created or lost.
 */
export interface LedgerEntryTable {
  id: Generated<number>;
  transaction_id: number;
  account_id: string;
  currency: string;
  /** bigint on both databases; read it with `cast(… as text)` so no digit is lost. */
  amount_minor: bigint | string;
  /**
   * Its posting's booking date, copied so a statement is read in order from an index (nullable in
   * the database, as added to a filled table; written with every entry).
   */
  booking_date: string;
}

/**
 * An account's sums per currency, so a funds check reads one row instead of summing every entry.
 * A cache of the entries, never written on its own: the repository changes it in the same
 * transaction that inserts, books or deletes the entries, so it cannot drift from them. A missing
 * row means both sums are 0.
 */
export interface LedgerBalanceTable {
  account_id: string;
  currency: string;
  /** Sum of the entries of booked transactions; bigint, read with `cast(… as text)`. */
  booked_minor: bigint | string;
  /** Sum of all entries, booked and pending; bigint, read with `cast(… as text)`. */
  expected_minor: bigint | string;
}

/**
 * An account's totals per currency, booking date and status (migration 0027): how many statement
 * lines (entries of postings on the statement) it has, so a statement's length is a sum of a few
 * rows instead of a count of its history; and the sum of all its entries, on the statement or
 * not, so a balance at the end of a day is the kept sum less a few rows, not less every entry
 * booked since. A cache of the entries, changed only with them, like ledger_balance.
 */
export interface LedgerDayTotalTable {
  account_id: string;
  currency: string;
  booking_date: string;
  status: string;
  /** bigint on both databases (a count); read with `cast(… as text)`. */
  lines: bigint | number | string;
  /** Sum of the entries in integer minor units; bigint, read with `cast(… as text)`. */
  amount_minor: Generated<bigint | string>;
}
