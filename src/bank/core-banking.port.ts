import type { DbOrTx } from '../db/create-db.js';
import type { Money } from '../domain/money.js';
import type { LedgerPosting } from '../modules/ledger/ledger-posting.js';

/**
 * The core-banking port (DESIGN §1, §8): everything payments, SCA and batch runs need from the
 * bank behind the API. The sandbox bank (its ledger and mock data) is the first implementation;
 * a bank deploying nordic-xs2a implements this interface against its own core system.
 *
 * `scope` separates sandbox tenants: in the sandbox every TPP has its own customers and accounts,
 * so one TPP can never see or wipe another's data. A production adapter ignores it.
 */
export interface BankScope {
  /** The TPP whose sandbox data is meant (its organizationIdentifier). */
  readonly tppId: string;
}

/** An account as a payment names it: by Norwegian BBAN or by IBAN. */
export type AccountReference = { readonly bban: string } | { readonly iban: string };

export interface BankAccount {
  readonly id: string;
  readonly bban: string;
  readonly iban: string;
  readonly currency: string;
  readonly name: string;
  /** The owner's customer number (national identity number for persons). */
  readonly ownerCustomerNumber: string;
  readonly ownerType: 'PRIVATE' | 'CORPORATE';
  /** Organisation number of the corporate agreement the account belongs to, if any. */
  readonly organisationNumber?: string | undefined;
}

/** What a PSU may do with an account (engagement roles REGISTER / VIEW and their limits). */
export interface AccountPermission {
  readonly canView: boolean;
  readonly canRegister: boolean;
  /** Largest amount the PSU may register; undefined when unlimited. */
  readonly registerLimit?: Money | undefined;
  /** Largest amount the PSU may approve alone; above it another approver is needed. */
  readonly approvalLimit?: Money | undefined;
}

/** Berlin Group balance types of an account, in its currency. */
export interface AccountBalances {
  readonly closingBooked: Money;
  readonly expected: Money;
  readonly interimAvailable: Money;
}

/** The outcome of a posting: applied now, or already applied earlier under the same key. */
export interface PostingResult {
  readonly applied: boolean;
}

/**
 * One outgoing payment (or one payment of a bulk) to execute: the creditor receives `amount`;
 * the debtor account is debited its value in the account's currency, at the bank's own rate.
 */
export interface OutgoingTransfer {
  /** Executing the same key twice moves the money once (e.g. `payment:<id>`, `payment:<id>:3`). */
  readonly idempotencyKey: string;
  readonly debtorAccountId: string;
  readonly amount: Money;
  /** The creditor's account as the payment names it; credited when it is an account of this bank. */
  readonly creditorAccount?: AccountReference | undefined;
  /** The bank date it is booked and valued on. */
  readonly bookingDate: string;
  readonly description: string;
}

/**
 * What executing a transfer did: booked now, booked by an earlier attempt under the same key,
 * nothing for lack of funds (interimAvailable below the debit), or nothing because the bank
 * cannot make it (e.g. no rate for the currency), with the reason in words a TPP may read.
 */
export type TransferResult =
  | { readonly kind: 'booked'; readonly creditedInBank: boolean }
  | { readonly kind: 'already-booked' }
  | { readonly kind: 'insufficient-funds' }
  | { readonly kind: 'refused'; readonly reason: string };

export interface CoreBanking {
  findAccount(scope: BankScope, reference: AccountReference): Promise<BankAccount | undefined>;
  /** The accounts a PSU may use: its own (private), or through the agreement of `organisationNumber`. */
  accountsOf(scope: BankScope, psuId: string, organisationNumber?: string): Promise<readonly BankAccount[]>;
  permission(scope: BankScope, psuId: string, accountId: string, organisationNumber?: string): Promise<AccountPermission>;
  balances(scope: BankScope, accountId: string): Promise<AccountBalances>;
  /**
   * Posts a debit or credit exactly once under its idempotency key. `trx` is the caller's
   * transaction, so the posting commits with the status change that causes it.
   */
  post(trx: DbOrTx, scope: BankScope, posting: LedgerPosting): Promise<PostingResult>;
  /**
   * Executes a transfer exactly once under its idempotency key, in the caller's transaction: the
   * funds check and the posting happen under the bank's lock on the debtor account, so two
   * transfers from one account (in two processes) cannot both spend the same money.
   */
  transfer(trx: DbOrTx, scope: BankScope, transfer: OutgoingTransfer): Promise<TransferResult>;
}
