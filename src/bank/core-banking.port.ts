import type { Money } from '../domain/money.js';

/**
 * The core-banking port (docs/design.md §1, §8): everything payments, SCA, batch runs and account
 * information need from the bank behind the API, in the bank's words. No database handle and no
 * sandbox type appears here: a bank puts nordic-xs2a in front of its core system by writing one
 * adapter of this interface, and proves it with the contract suite in
 * test/bank/core-banking.contract.ts. The sandbox bank is one such adapter
 * (src/modules/sandbox/sandbox-core-banking.ts).
 *
 * Failures on the bank's side are thrown as {@link BankError} (./bank-error.ts); the HTTP layer
 * maps them once. Amounts are {@link Money} (exact integer minor units).
 */

/**
 * The TPP on whose behalf the server asks (its organizationIdentifier), passed to every call. A
 * bank logs it (which TPP read which account); the sandbox keeps each TPP's mock data apart with
 * it, so one TPP never sees another's customers. It grants nothing: what a PSU may see or do is
 * the bank's answer to {@link CoreBanking.permission}.
 */
export interface RequestingTpp {
  readonly tppId: string;
}

/** An account as a payment or a consent names it: by Norwegian BBAN or by IBAN. */
export type AccountReference = { readonly bban: string } | { readonly iban: string };

export interface BankAccount {
  /** The bank's own stable id of the account; never shown to a TPP as is. */
  readonly id: string;
  readonly bban: string;
  readonly iban: string;
  readonly currency: string;
  readonly name: string;
  /** The bank's product name (BRUKSKONTO, SPAREKONTO…). */
  readonly product: string;
  /** ISO 20022 ExternalCashAccountType1Code (CACC, SVGS…). */
  readonly cashAccountType: string;
  /** The owner's name, as Berlin Group `ownerName` shows it. */
  readonly ownerName: string;
  /** The owner's customer number (national identity number for persons). */
  readonly ownerCustomerNumber: string;
  readonly ownerType: 'PRIVATE' | 'CORPORATE';
  /** Organisation number of the corporate agreement the account belongs to, if any. */
  readonly organisationNumber?: string | undefined;
}

/** An account found by its number, and what a PSU may do with it ({@link CoreBanking.findAccountWithPermission}). */
export interface AccountWithPermission {
  readonly account: BankAccount;
  readonly permission: AccountPermission;
}

/** What a PSU may do with an account (engagement roles REGISTER / VIEW and their limits). */
export interface AccountPermission {
  readonly canView: boolean;
  /** Register (initiate) payments from it; approving is registering within the approval limit. */
  readonly canRegister: boolean;
  /** Largest amount the PSU may register; undefined when unlimited. */
  readonly registerLimit?: Money | undefined;
  /** Largest amount the PSU may approve alone; above it another approver is needed. */
  readonly approvalLimit?: Money | undefined;
  /**
   * Under a corporate agreement: the PSU may not share the account's information with a TPP alone.
   * A consent granting it waits (partiallyAuthorised) until another PSU of the same agreement, one
   * who may view and register on every account granted, approves it too. Absent or false: the
   * PSU's approval suffices. A private owner's accounts never need a second approver.
   */
  readonly consentNeedsSecondApprover?: boolean | undefined;
}

/**
 * Berlin Group balance types of an account, in its currency, as the bank keeps them. Payments the
 * server holds (authorised, not yet submitted) are not the bank's to know: the server takes them
 * off expected and interimAvailable itself (src/modules/accounts/payments-on-account.ts).
 */
export interface AccountBalances {
  /**
   * Booked entries only: those booked up to the end of the closing date asked for (all of them
   * when none is asked for). Entries booked after it (today's) count in expected only.
   */
  readonly closingBooked: Money;
  /** All booked entries and the bank's pending ones (card reservations, payments it has accepted but not booked). */
  readonly expected: Money;
  /** What may be spent now: expected plus any credit line. */
  readonly interimAvailable: Money;
}

export type BookingStatus = 'booked' | 'pending';

/**
 * A page of an account's (or card account's) transactions, newest first: by booking date
 * (transaction date for card transactions), then the bank's own order. `after` is the `next` of
 * the previous page: pages continue after the last entry seen, so a transaction arriving while a
 * TPP pages neither repeats an entry nor makes one be skipped.
 */
export interface TransactionQuery {
  readonly bookingStatus: BookingStatus | 'both';
  /** YYYY-MM-DD, inclusive. */
  readonly dateFrom?: string | undefined;
  /** YYYY-MM-DD, inclusive. */
  readonly dateTo?: string | undefined;
  /** Opaque: the `next` of the page before. */
  readonly after?: string | undefined;
  /**
   * Opaque: the `asOf` of an earlier page. The list is then read as it stood then: entries the
   * bank recorded later are left out, whatever their dates, so positions in it (the offsets a TPP
   * pages by) stay put while new transactions are booked. A value the bank did not give is
   * ignored (the list is read as of now), never an error.
   */
  readonly asOf?: string | undefined;
  /** At most this many entries (at least 1). */
  readonly limit: number;
}

export interface TransactionPage<T> {
  readonly transactions: readonly T[];
  /** Present when more entries follow: pass it as `after`. */
  readonly next?: string | undefined;
  /**
   * The moment this page was read as of, when the bank can bound a list by one: pass it back as
   * `asOf` to read the rest of the same list. Absent: the bank reads every page as of now.
   */
  readonly asOf?: string | undefined;
}

export interface BankTransaction {
  /** Stable and never reused: a pending transaction keeps it when it is booked. */
  readonly id: string;
  readonly status: BookingStatus;
  /** YYYY-MM-DD; for a pending transaction the day it is expected to be booked. */
  readonly bookingDate: string;
  readonly valueDate: string;
  /** Signed, as seen from the account: negative is a debit. */
  readonly amount: Money;
  readonly counterpartyName?: string | undefined;
  readonly counterpartyAccount?: AccountReference | undefined;
  readonly remittanceUnstructured?: string | undefined;
  /** A structured reference (KID). */
  readonly remittanceReference?: string | undefined;
  /** The payment this transaction executed, when it was one of this server's payments. */
  readonly paymentId?: string | undefined;
  /** The payer's end-to-end reference, when the bank has it. */
  readonly endToEndId?: string | undefined;
  /** ISO 20022 Domain-Family-SubFamily (e.g. PMNT-ICDT-DMCT), when the bank has one. */
  readonly bankTransactionCode?: string | undefined;
  /** The bank's own transaction code (its statement's text code), when it has one. */
  readonly proprietaryBankTransactionCode?: string | undefined;
  /** What the bank's statement says. */
  readonly description: string;
}

export interface BankCardAccount {
  readonly id: string;
  /** e.g. 525412******3241 */
  readonly maskedPan: string;
  readonly name: string;
  readonly product: string;
  readonly currency: string;
  readonly creditLimit: Money;
  readonly ownerName: string;
  readonly ownerCustomerNumber: string;
}

export interface BankCardTransaction {
  /** Stable and never reused: a pending transaction keeps it when it is booked. */
  readonly id: string;
  readonly maskedPan: string;
  readonly status: BookingStatus;
  /** YYYY-MM-DD: the day of the purchase. */
  readonly transactionDate: string;
  /** Absent while pending. */
  readonly bookingDate?: string | undefined;
  /** Signed, in the card account's currency: a purchase is negative. */
  readonly amount: Money;
  /** The amount in the currency the merchant charged, when it was another. */
  readonly originalAmount?: Money | undefined;
  /** With originalAmount: card-currency units per unit of its currency, as decimal text ("11.7"). */
  readonly exchangeRate?: string | undefined;
  /** The merchant and place, as the card network reports them. */
  readonly merchant?: string | undefined;
  /** The card acceptor's id at the card network, when the bank has it. */
  readonly merchantId?: string | undefined;
  readonly merchantCategoryCode?: string | undefined;
}

/**
 * An authorised payment handed to the bank for execution. The bank executes each
 * (paymentId, item) at most once, however often it is submitted.
 */
export interface PaymentInstruction {
  readonly paymentId: string;
  /** A bulk's payment, from 1; absent for a single payment. */
  readonly item?: number | undefined;
  /**
   * Set on every payment of a bulk whose PSU asked for one booking (Berlin Group
   * `batchBookingPreferred: true`): the bank executes the payments of this paymentId all or none.
   * They are always submitted together, in one {@link CoreBanking.submitPayments} call, one after
   * another. When not every one can be executed, none is: each that could not answers its own
   * outcome (`pending-funds` or `rejected`), the others `pending-funds` (they are submitted again
   * with the rest), and nothing is moved.
   */
  readonly allOrNone?: boolean | undefined;
  /** The debtor account's {@link BankAccount.id}. */
  readonly debtorAccountId: string;
  /** What the creditor receives; the debtor is debited its value in the account's currency. */
  readonly amount: Money;
  /** Credited when it is an account of this bank. */
  readonly creditorAccount?: AccountReference | undefined;
  readonly creditorName: string;
  /** YYYY-MM-DD: the bank day it is executed on. */
  readonly executionDate: string;
  /** The statement text: to whom, and the KID or message. */
  readonly description: string;
  /**
   * What the bank charges the debtor for this payment, as it answered {@link CoreBanking.instantPaymentFee}
   * when the payment was made (a Straks payment's fee); absent when nothing is charged. Executing the
   * payment debits it too, once, and only together with the payment.
   */
  readonly fee?: Money | undefined;
}

/**
 * The bank's answer to a submission: executed (now, or by an earlier submission of the same
 * payment), not executed for lack of funds (submit again to retry), rejected with a reason a TPP
 * may read, or accepted, its outcome to follow in {@link CoreBanking.outcomesSince}.
 */
export type SubmissionOutcome =
  | { readonly kind: 'executed' }
  | { readonly kind: 'pending-funds' }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'accepted' };

/** An outcome the bank reports after the submission: each executed or rejected payment once. */
export interface ReportedOutcome {
  readonly paymentId: string;
  readonly item?: number | undefined;
  readonly outcome: { readonly kind: 'executed' } | { readonly kind: 'rejected'; readonly reason: string };
}

export interface OutcomeFeedPage {
  readonly outcomes: readonly ReportedOutcome[];
  /** Where the next poll continues; the same cursor again gives nothing already given. */
  readonly cursor: string;
}

/** What a fee is asked for: an instant (Straks) payment from one of the bank's accounts. */
export interface InstantPaymentFeeQuery {
  /** The debtor account's {@link BankAccount.id}. */
  readonly debtorAccountId: string;
  /** What the creditor is to receive. */
  readonly amount: Money;
  readonly creditorAccount: AccountReference;
}

export interface CoreBanking {
  findAccount(tpp: RequestingTpp, reference: AccountReference): Promise<BankAccount | undefined>;
  /** One account by its id; undefined when there is none (or none the TPP may ask about). */
  account(tpp: RequestingTpp, accountId: string): Promise<BankAccount | undefined>;
  /** The accounts a PSU may use: its own (private), or through the agreement of `organisationNumber`. */
  accountsOf(tpp: RequestingTpp, psuId: string, organisationNumber?: string): Promise<readonly BankAccount[]>;
  permission(tpp: RequestingTpp, psuId: string, accountId: string, organisationNumber?: string): Promise<AccountPermission>;
  /**
   * Optional: {@link findAccount}, and {@link permission} of a PSU on the account found, in one
   * call: a payment names its debtor account by number, and the server then asks what its PSU may
   * do with it. Without it the server makes the two calls (account-and-permission.ts).
   */
  findAccountWithPermission?(
    tpp: RequestingTpp,
    reference: AccountReference,
    psuId: string,
    organisationNumber?: string,
  ): Promise<AccountWithPermission | undefined>;
  /**
   * An account's or card account's balances; BankError `unknown-account` when there is none.
   * `closingDate` (YYYY-MM-DD): closingBooked is the booked balance at the end of that day (the
   * server asks for the previous bank day); absent: every booked entry.
   */
  balances(tpp: RequestingTpp, accountId: string, closingDate?: string): Promise<AccountBalances>;
  /** A page of an account's transactions; BankError `unknown-account` when there is none. */
  transactions(tpp: RequestingTpp, accountId: string, query: TransactionQuery): Promise<TransactionPage<BankTransaction>>;
  /**
   * Optional: how many entries the list of `query` has, read as of `query.asOf`, without paging
   * through it. With it the server answers a page by offset reading only up to that page; without
   * it the server walks the list to its end to give the `last` link.
   */
  transactionCount?(tpp: RequestingTpp, accountId: string, query: Omit<TransactionQuery, 'after' | 'limit'>): Promise<number>;
  /** One transaction of an account; undefined when the account has no such transaction. */
  transaction(tpp: RequestingTpp, accountId: string, transactionId: string): Promise<BankTransaction | undefined>;
  /** The card accounts a PSU holds. */
  cardAccountsOf(tpp: RequestingTpp, psuId: string): Promise<readonly BankCardAccount[]>;
  cardAccount(tpp: RequestingTpp, cardAccountId: string): Promise<BankCardAccount | undefined>;
  /** A page of a card account's transactions; BankError `unknown-account` when there is none. */
  cardTransactions(tpp: RequestingTpp, cardAccountId: string, query: TransactionQuery): Promise<TransactionPage<BankCardTransaction>>;
  /**
   * The funds check: whether `amount` can be debited from the account now (its interimAvailable,
   * in the account's currency at the bank's rate). The server adds to `amount` the payments from
   * the account it holds and has not submitted (see {@link AccountBalances}). BankError
   * `unknown-account` for an unknown account, `refused` when the bank has no rate for the currency.
   */
  fundsAvailable(tpp: RequestingTpp, account: AccountReference, amount: Money): Promise<boolean>;
  /**
   * The fee the bank charges the debtor for this instant (Straks) payment, by its price list or
   * what it agreed with the PSU: in the debtor account's currency, zero when it is free. Asked
   * for the Straks fee information and when a Straks payment is initiated (Berlin Group
   * `transactionFees`). BankError `unknown-account` when the TPP may not see the debtor account,
   * `refused` when the bank will not price it (no instant payments from that account).
   */
  instantPaymentFee(tpp: RequestingTpp, query: InstantPaymentFeeQuery): Promise<Money>;
  /**
   * Hands an authorised payment (or one payment of a bulk) to the bank for execution, idempotent
   * by (paymentId, item): submitting it again never moves money twice and answers its outcome.
   */
  submitPayment(tpp: RequestingTpp, instruction: PaymentInstruction): Promise<SubmissionOutcome>;
  /**
   * Hands a file of authorised payments to the bank at once, as banks take payment files: the
   * answers are the outcomes {@link submitPayment} would give for each instruction submitted one
   * after another in the order given (each later one funded by what the earlier ones left), one
   * answer per instruction, in the same order. Idempotent by (paymentId, item) as submitPayment,
   * also within one file: an instruction repeated moves money once and answers its outcome again.
   * A throw means no answer for any of them (what was executed is answered by the next submission).
   */
  submitPayments(tpp: RequestingTpp, instructions: readonly PaymentInstruction[]): Promise<readonly SubmissionOutcome[]>;
  /**
   * The outcomes the bank reports after the submission, in order, from `cursor` on (undefined:
   * from the start): each executed payment once, and, for a bank that decides later, each
   * rejection. Polled by the server; at most `limit` at a time.
   */
  outcomesSince(cursor: string | undefined, limit?: number): Promise<OutcomeFeedPage>;
}
