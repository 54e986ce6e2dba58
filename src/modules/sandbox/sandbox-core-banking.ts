import type { Db, DbOrTx } from '../../db/create-db.js';
import { withTransaction } from '../../db/create-db.js';
import type { Money } from '../../domain/money.js';
import { convertMinor, type NokRates } from '../../domain/regulatory-reporting.js';
import { BankError } from '../../bank/bank-error.js';
import type {
  AccountPermission,
  AccountReference,
  BankAccount,
  BankCardAccount,
  BankCardTransaction,
  BankTransaction,
  CoreBanking,
  PaymentInstruction,
  ReportedOutcome,
  RequestingTpp,
  SubmissionOutcome,
} from '../../bank/core-banking.port.js';
import { decodeCursor, encodeCursor, matches, pageOf } from '../../bank/transaction-paging.js';
import { transferLegs, type LedgerLeg, type LedgerPosting } from '../ledger/ledger-posting.js';
import type { StatementLine } from '../ledger/ledger.model.js';
import { balanceKey, type Ledger } from '../ledger/ledger.service.js';
import { accountRepository, type LedgerKey } from './account.repository.js';
import { agreementRepository } from './agreement.repository.js';
import { cardAccountRepository } from './card-account.repository.js';
import { faultError } from './core-system-fault.js';
import { coreSystemFaultRepository } from './core-system-fault.repository.js';
import { customerRepository } from './customer.repository.js';
import { instantPaymentFeeOf } from './instant-payment-fee.js';
import { instantPaymentFeeRepository } from './instant-payment-fee.repository.js';
import { sandboxBankRepository } from './sandbox-bank.repository.js';
import { sandboxSystemAccount, type SandboxAccount, type SandboxCardAccount, type SandboxCardTransaction } from './sandbox-bank.model.js';
import { sandboxBookkeeping } from './sandbox-bookkeeping.js';

/**
 * One outgoing payment (or one payment of a bulk) to execute in the server's own transaction: the
 * creditor receives `amount`; the debtor account is debited its value in the account's currency,
 * at the bank's own rate.
 */
export interface OutgoingTransfer {
  /** Executing the same key twice moves the money once (`payment:<id>`, `payment:<id>:3`). */
  readonly idempotencyKey: string;
  readonly debtorAccountId: string;
  readonly amount: Money;
  /** The creditor's account as the payment names it; credited when it is an account of this bank. */
  readonly creditorAccount?: AccountReference | undefined;
  /** The bank date it is booked and valued on. */
  readonly bookingDate: string;
  readonly description: string;
  /** What the bank charges the debtor beside the amount, posted under a key of its own; absent: nothing. */
  readonly fee?: { readonly idempotencyKey: string; readonly amount: Money } | undefined;
  /**
   * Transfers next to each other with the same group are booked all or none (a batch-booked
   * bulk's payments, {@link PaymentInstruction.allOrNone}); absent: on its own.
   */
  readonly allOrNoneGroup?: string | undefined;
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
  | { readonly kind: 'refused'; readonly reason: string }
  /** Could have been booked, but another transfer of its all-or-none group could not: nothing moved. */
  | { readonly kind: 'withheld' };

/**
 * The sandbox ledger's own postings, inside a caller's transaction (what the sandbox's tests post
 * with). The server never uses it: it executes payments through the port only.
 */
export interface SandboxLedgerExecution {
  /**
   * Posts a debit or credit exactly once under its idempotency key, in the caller's transaction,
   * on the TPP's own accounts only.
   */
  post(trx: DbOrTx, tpp: RequestingTpp, posting: LedgerPosting): Promise<{ readonly applied: boolean }>;
}

/** The sandbox adapter: the port, and its ledger execution for the sandbox's own tests. */
export type SandboxCoreBanking = CoreBanking & SandboxLedgerExecution;

const NO_PERMISSION: AccountPermission = { canView: false, canRegister: false };

/** A private account's owner may do everything with it, without limits. */
const OWNER_PERMISSION: AccountPermission = { canView: true, canRegister: true };

const MOCK_TRANSACTION = 'sandbox:transaction:';
const PAYMENT = 'payment:';
const PAYMENT_FEE = 'payment-fee:';

/** ISO 20022 for the charges of an issued credit transfer, and the text code a Norwegian statement gives a fee. */
const FEE_CODE = 'PMNT-ICDT-CHRG';
const FEE_TEXT = 'Gebyr';

function toBankAccount(account: SandboxAccount): BankAccount {
  return {
    id: account.id,
    bban: account.bban,
    iban: account.iban,
    currency: account.currency,
    name: account.name,
    product: account.product,
    cashAccountType: account.cashAccountType,
    ownerName: account.owner.name,
    ownerCustomerNumber: account.owner.customerNumber,
    ownerType: account.owner.customerType,
    organisationNumber: account.organisationNumber,
  };
}

function toBankCardAccount(card: SandboxCardAccount): BankCardAccount {
  return {
    id: card.id,
    maskedPan: card.maskedPan,
    name: card.name,
    product: card.product,
    currency: card.currency,
    creditLimit: card.creditLimit,
    ownerName: card.owner.name,
    ownerCustomerNumber: card.owner.customerNumber,
  };
}

function toBankCardTransaction(item: SandboxCardTransaction): BankCardTransaction {
  return {
    id: item.id,
    maskedPan: item.maskedPan,
    status: item.status,
    transactionDate: item.transactionDate,
    bookingDate: item.bookingDate,
    amount: item.amount,
    originalAmount: item.originalAmount,
    exchangeRate: item.exchangeRate,
    merchant: item.transactionDetails,
    merchantCategoryCode: item.merchantCategoryCode,
  };
}

/** The idempotency key of a payment (or of a bulk's `item`-th payment). */
export function paymentKey(paymentId: string, item?: number): string {
  return item === undefined ? `${PAYMENT}${paymentId}` : `${PAYMENT}${paymentId}:${item}`;
}

/** The key of the fee charged with a payment (or with a bulk's `item`-th payment). */
function paymentFeeKey(paymentId: string, item?: number): string {
  return item === undefined ? `${PAYMENT_FEE}${paymentId}` : `${PAYMENT_FEE}${paymentId}:${item}`;
}

/** The payment and bulk item a `payment:` key names. */
function paymentOfKey(key: string): { paymentId: string; item?: number } {
  const [paymentId, item] = key.slice(PAYMENT.length).split(':');
  return item === undefined ? { paymentId: paymentId! } : { paymentId: paymentId!, item: Number(item) };
}

/**
 * A statement line's transaction id: a mock transaction's own id, a payment's id (with `-<n>` for
 * a bulk's n-th payment), and that id with `-fee` for the fee charged with it. Each stays when the
 * posting is booked, and none is ever reused.
 */
function transactionIdOf(key: string): string {
  if (key.startsWith(MOCK_TRANSACTION)) return key.slice(MOCK_TRANSACTION.length);
  if (key.startsWith(PAYMENT_FEE)) {
    const [paymentId, item] = key.slice(PAYMENT_FEE.length).split(':');
    return item === undefined ? `${paymentId}-fee` : `${paymentId}-${item}-fee`;
  }
  if (key.startsWith(PAYMENT)) {
    const { paymentId, item } = paymentOfKey(key);
    return item === undefined ? paymentId : `${paymentId}-${item}`;
  }
  return Buffer.from(key).toString('base64url');
}

/** The ledger keys a transaction id may stand for (the inverse of {@link transactionIdOf}). */
function keysOf(transactionId: string): string[] {
  const bulk = /^(.+)-([1-9][0-9]*)$/.exec(transactionId);
  const fee = /^(.+)-fee$/.exec(transactionId);
  const bulkFee = /^(.+)-([1-9][0-9]*)-fee$/.exec(transactionId);
  return [
    `${MOCK_TRANSACTION}${transactionId}`,
    paymentKey(transactionId),
    ...(bulk ? [paymentKey(bulk[1]!, Number(bulk[2]))] : []),
    ...(fee ? [paymentFeeKey(fee[1]!)] : []),
    ...(bulkFee ? [paymentFeeKey(bulkFee[1]!, Number(bulkFee[2]))] : []),
    Buffer.from(transactionId, 'base64url').toString(),
  ];
}

/** The sandbox's ISO 20022 statement code, by direction: a domestic credit transfer out or in. */
function bankTransactionCode(amountMinor: bigint): string {
  return amountMinor >= 0n ? 'PMNT-RCDT-DMCT' : 'PMNT-ICDT-DMCT';
}

/** The bank's own text code, as a Norwegian statement shows it. */
function proprietaryBankTransactionCode(amountMinor: bigint, kid: string | undefined): string {
  if (amountMinor >= 0n) return 'Innbetaling';
  return kid === undefined ? 'Overførsel' : 'Giro';
}

/** A statement's `asOf` as this adapter gives it (the last posting id then); anything else is no snapshot. */
function postingIdOf(asOf: string | undefined): number | undefined {
  return asOf !== undefined && /^(0|[1-9][0-9]{0,14})$/.test(asOf) ? Number(asOf) : undefined;
}

/** A statement line as the bank port gives it: the posting's own details (a mock transaction's, for one). */
function toBankTransaction(line: StatementLine, currency: string): BankTransaction {
  const details = line.details;
  const fee = line.idempotencyKey.startsWith(PAYMENT_FEE);
  // One literal, no spread of the codes into it: V8 builds a spread followed by other properties
  // on a slow path, and a page builds 200 of these.
  return {
    bankTransactionCode: fee ? FEE_CODE : bankTransactionCode(line.amountMinor),
    proprietaryBankTransactionCode: fee ? FEE_TEXT : proprietaryBankTransactionCode(line.amountMinor, details.remittanceReference),
    id: transactionIdOf(line.idempotencyKey),
    status: line.status,
    bookingDate: line.bookingDate,
    valueDate: line.valueDate,
    amount: { minor: line.amountMinor, currency },
    counterpartyName: details.counterpartyName,
    counterpartyAccount: details.counterpartyAccount,
    remittanceUnstructured: details.remittanceUnstructured,
    remittanceReference: details.remittanceReference,
    paymentId: line.idempotencyKey.startsWith(PAYMENT) ? paymentOfKey(line.idempotencyKey).paymentId : undefined,
    description: line.description,
  };
}

/**
 * The ledger account a sandbox payment's other leg goes to (the TPP's clearing account), for
 * callers that build postings for {@link SandboxLedgerExecution.post}.
 */
export function sandboxClearingAccount(tpp: RequestingTpp): string {
  return sandboxSystemAccount(tpp.tppId, 'clearing');
}

/**
 * The core-banking port over the sandbox bank: the mock data of the calling TPP and the
 * double-entry ledger. Private customers use their own accounts with no limit; a corporate
 * context (PSU-Corporate-ID = the agreement's organisation number) gives a PSU the accounts its
 * engagements name, with their roles and limits. Another TPP's data is never found.
 *
 * An account's transactions are its ledger postings (mock transactions, executed payments; not
 * the postings that set balances), with the details each posting carries.
 * Payments execute synchronously: {@link CoreBanking.submitPayment} answers every outcome at
 * once, and also reports each execution and rejection once in the outcome feed
 * (`sandbox_payment_outcome`), numbered in commit order.
 */
export function createSandboxCoreBanking(db: Db, ledger: Ledger, now: () => Date, rates: NokRates): SandboxCoreBanking {
  const bookkeeping = sandboxBookkeeping(ledger);

  async function engagementOf(tpp: RequestingTpp, psuId: string, accountId: string, organisationNumber: string) {
    const agreement = await agreementRepository.findByOrganisationNumber(db, tpp.tppId, organisationNumber);
    if (!agreement) return undefined;
    const engagements = await agreementRepository.listEngagementsOfPsu(db, tpp.tppId, agreement.id, psuId);
    return engagements.find((engagement) => engagement.account.id === accountId);
  }

  /** What a PSU may do with a sandbox account: its private owner everything, a corporate PSU its engagement's roles. */
  async function permissionOn(
    tpp: RequestingTpp,
    psuId: string,
    account: SandboxAccount,
    organisationNumber: string | undefined,
  ): Promise<AccountPermission> {
    if (organisationNumber === undefined) {
      return account.owner.customerType === 'PRIVATE' && account.owner.customerNumber === psuId ? OWNER_PERMISSION : NO_PERMISSION;
    }
    if (account.organisationNumber !== organisationNumber) return NO_PERMISSION;
    const engagement = await engagementOf(tpp, psuId, account.id, organisationNumber);
    if (!engagement) return NO_PERMISSION;
    // A register limit of 0 is the documented way to withhold the right to register.
    const canRegister =
      engagement.roles.includes('REGISTER') && (engagement.registerLimit === undefined || engagement.registerLimit.minor > 0n);
    return {
      canView: engagement.roles.includes('VIEW'),
      canRegister,
      registerLimit: canRegister ? engagement.registerLimit : undefined,
      approvalLimit: canRegister ? engagement.approvalLimit : undefined,
      ...(engagement.consentNeedsSecondApprover ? { consentNeedsSecondApprover: true } : {}),
    };
  }

  /** Legs may touch only this TPP's accounts, card accounts and system accounts, in their currency. */
  async function assertInScope(trx: DbOrTx, tpp: RequestingTpp, accountId: string, currency: string): Promise<void> {
    if (accountId.startsWith(`sandbox-system:${tpp.tppId}:`)) return;
    const account =
      (await accountRepository.findById(trx, tpp.tppId, accountId)) ?? (await cardAccountRepository.findById(trx, tpp.tppId, accountId));
    if (!account || account.currency !== currency) {
      throw new Error(`posting leg on ${accountId} (${currency}) is not an account of the sandbox of ${tpp.tppId}`);
    }
  }

  async function existingAccount(tpp: RequestingTpp, accountId: string): Promise<SandboxAccount> {
    const account = await accountRepository.findById(db, tpp.tppId, accountId);
    if (!account) throw new BankError('unknown-account', `no account ${accountId}`);
    return account;
  }

  /** A statement or balance read of a mock account told to simulate a core-system fault fails as it says. */
  async function failIfFaulty(tpp: RequestingTpp, accountId: string): Promise<void> {
    const fault = await coreSystemFaultRepository.faultOf(db, tpp.tppId, accountId);
    if (fault) throw faultError(fault, accountId);
  }

  /**
   * Executes transfers exactly once each under its idempotency key (and its fee under the fee's),
   * its caller holding the TPP's sandbox lock, so two transfers from one account in two processes
   * cannot both spend the same money. In the order given, in a few statements whatever their
   * number: the keys already recorded, the accounts and their balances read at once, each funds
   * check (amount and fee) made in memory on what the transfers before it left (debits and credits
   * alike), and the postings written together. The answers are those of transferring each in turn,
   * but for an all-or-none group (a batch-booked bulk) one of which cannot be booked: then none is,
   * what its members booked in memory taken back before anything is written (the others `withheld`).
   */
  async function transferAllLocked(trx: DbOrTx, tpp: RequestingTpp, transfers: readonly OutgoingTransfer[]): Promise<TransferResult[]> {
    const recorded = await ledger.recordedAmong(
      trx,
      transfers.map((transfer) => transfer.idempotencyKey),
    );
    const ledgerKeyOf = await accountRepository.ledgerKeysOf(trx, tpp.tppId, [
      ...transfers.map((transfer) => ({ id: transfer.debtorAccountId })),
      ...transfers.flatMap((transfer) => (transfer.creditorAccount ? [transfer.creditorAccount] : [])),
    ]);
    const debtors = transfers.flatMap((transfer) => {
      const debtor = ledgerKeyOf({ id: transfer.debtorAccountId });
      return debtor ? [{ accountId: debtor.id, currency: debtor.currency }] : [];
    });
    // What each debtor account has, as the transfers before the current one left it.
    const expected = new Map([...(await ledger.balancesOf(trx, debtors))].map(([key, balances]) => [key, balances.expected]));
    const clearing = sandboxClearingAccount(tpp);
    const booked = new Set<string>();
    const postings: LedgerPosting[] = [];
    /**
     * Books one transfer in memory; `undo`, given for a member of an all-or-none group, is the
     * group's own record of each balance as it was before the group first moved it.
     */
    const book = (transfer: OutgoingTransfer, undo?: Map<string, bigint>): TransferResult => {
      if (recorded.has(transfer.idempotencyKey) || booked.has(transfer.idempotencyKey)) return { kind: 'already-booked' };
      const debtor = ledgerKeyOf({ id: transfer.debtorAccountId });
      if (!debtor) return { kind: 'refused', reason: 'The debtor account no longer exists' };
      const debitMinor = convertMinor(transfer.amount, debtor.currency, rates);
      if (debitMinor === undefined) {
        return { kind: 'refused', reason: `The bank has no exchange rate from ${transfer.amount.currency} to ${debtor.currency}` };
      }
      const feeMinor = transfer.fee ? convertMinor(transfer.fee.amount, debtor.currency, rates) : 0n;
      if (feeMinor === undefined) {
        return { kind: 'refused', reason: `The bank has no exchange rate from ${transfer.fee!.amount.currency} to ${debtor.currency}` };
      }
      const available = expected.get(balanceKey(debtor.id, debtor.currency))! + debtor.creditLimitMinor;
      if (available < debitMinor + feeMinor) return { kind: 'insufficient-funds' };
      const found = transfer.creditorAccount && ledgerKeyOf(transfer.creditorAccount);
      const creditor = found && found.currency === transfer.amount.currency ? found : undefined;
      const legs = transferLegsOf(debtor, creditor, clearing, debitMinor, transfer.amount.minor);
      const fee = feePostingOf(tpp, transfer, debtor, feeMinor);
      for (const leg of [...legs, ...(fee?.legs ?? [])]) {
        const key = balanceKey(leg.accountId, leg.currency);
        const before = expected.get(key);
        if (before === undefined) continue;
        if (undo && !undo.has(key)) undo.set(key, before);
        expected.set(key, before + leg.amountMinor);
      }
      booked.add(transfer.idempotencyKey);
      postings.push(postingOf(transfer, legs), ...(fee ? [fee] : []));
      return { kind: 'booked', creditedInBank: creditor !== undefined };
    };
    const results: TransferResult[] = [];
    for (let start = 0; start < transfers.length;) {
      const group = transfers[start]!.allOrNoneGroup;
      if (group === undefined) {
        results.push(book(transfers[start]!));
        start++;
        continue;
      }
      let end = start + 1;
      while (end < transfers.length && transfers[end]!.allOrNoneGroup === group) end++;
      const members = transfers.slice(start, end);
      // All or none: booked in memory one after another, and taken back if any could not be.
      const undo = new Map<string, bigint>();
      const postingsBefore = postings.length;
      const outcomes = members.map((member) => book(member, undo));
      if (outcomes.some((outcome) => outcome.kind !== 'booked' && outcome.kind !== 'already-booked')) {
        for (const [key, before] of undo) expected.set(key, before);
        postings.length = postingsBefore;
        members.forEach((member, index) => {
          if (outcomes[index]!.kind === 'booked') {
            booked.delete(member.idempotencyKey);
            outcomes[index] = { kind: 'withheld' };
          }
        });
      }
      results.push(...outcomes);
      start = end;
    }
    const written = await ledger.postMany(trx, postings);
    // The keys were read under the sandbox's lock, which every posting of a payment takes: one
    // recorded meanwhile is a broken lock, and the funds checks above would not hold.
    if (written.some((posting) => !posting.applied)) throw new Error('a payment posting was recorded by someone else meanwhile');
    return results;
  }

  /**
   * A payment file in one transaction: the TPP's sandbox lock and its debtor accounts' row locks
   * (in id order) first, then the instructions in the order given (each funds check seeing what
   * the earlier ones left), and the file's outcomes in the feed at the end.
   */
  async function submitPayments(tpp: RequestingTpp, instructions: readonly PaymentInstruction[]): Promise<SubmissionOutcome[]> {
    if (instructions.length === 0) return [];
    return withTransaction(db, async (trx) => {
      await sandboxBankRepository.lockTenant(trx, tpp.tppId, now().toISOString());
      await accountRepository.lockAll(
        trx,
        tpp.tppId,
        instructions.map((instruction) => instruction.debtorAccountId),
      );
      const results = await transferAllLocked(trx, tpp, instructions.map(transferOf));
      const reports: FeedEntry[] = [];
      instructions.forEach((instruction, index) => {
        const result = results[index]!;
        if (result.kind === 'booked') reports.push({ instruction, outcome: { kind: 'executed' } });
        if (result.kind === 'refused') reports.push({ instruction, outcome: { kind: 'rejected', reason: result.reason } });
      });
      await report(trx, reports);
      return results.map(submissionOutcomeOf);
    });
  }

  const execution: SandboxLedgerExecution = {
    async post(trx, tpp, posting) {
      // The sandbox's lock, as every mock-data write takes it: an initialize cannot wipe the
      // accounts between the check below and the posting.
      await sandboxBankRepository.lockTenant(trx, tpp.tppId, now().toISOString());
      for (const leg of posting.legs) {
        await assertInScope(trx, tpp, leg.accountId, leg.currency);
      }
      const recorded = await ledger.post(trx, posting);
      return { applied: recorded.applied };
    },
  };

  return {
    ...execution,

    async findAccount(tpp, reference) {
      const account = await accountRepository.findByReference(db, tpp.tppId, reference);
      return account && toBankAccount(account);
    },

    async account(tpp, accountId) {
      const account = await accountRepository.findById(db, tpp.tppId, accountId);
      return account && toBankAccount(account);
    },

    async accountsOf(tpp, psuId, organisationNumber) {
      if (organisationNumber === undefined) {
        const customer = await customerRepository.findByNumber(db, tpp.tppId, psuId);
        if (!customer || customer.customerType !== 'PRIVATE') return [];
        return (await accountRepository.listOwnedBy(db, tpp.tppId, customer.id)).map(toBankAccount);
      }
      const agreement = await agreementRepository.findByOrganisationNumber(db, tpp.tppId, organisationNumber);
      if (!agreement) return [];
      const engagements = await agreementRepository.listEngagementsOfPsu(db, tpp.tppId, agreement.id, psuId);
      const accounts = await accountRepository.listOwnedBy(db, tpp.tppId, agreement.owner.id);
      const engaged = new Set(engagements.filter((engagement) => engagement.roles.length > 0).map((engagement) => engagement.account.id));
      return accounts.filter((account) => engaged.has(account.id)).map(toBankAccount);
    },

    async permission(tpp, psuId, accountId, organisationNumber) {
      const account = await accountRepository.findById(db, tpp.tppId, accountId);
      return account ? permissionOn(tpp, psuId, account, organisationNumber) : NO_PERMISSION;
    },

    async findAccountWithPermission(tpp, reference, psuId, organisationNumber) {
      const account = await accountRepository.findByReference(db, tpp.tppId, reference);
      return account && { account: toBankAccount(account), permission: await permissionOn(tpp, psuId, account, organisationNumber) };
    },

    async balances(tpp, accountId, closingDate) {
      await failIfFaulty(tpp, accountId);
      // An account's credit line, as a card account's limit, is part of what it has available.
      const account = await accountRepository.ledgerKeyById(db, tpp.tppId, accountId);
      if (account) {
        const creditLimit = { minor: account.creditLimitMinor, currency: account.currency };
        return bookkeeping.balances(db, account.id, account.currency, creditLimit, closingDate);
      }
      const card = await cardAccountRepository.findById(db, tpp.tppId, accountId);
      if (!card) throw new BankError('unknown-account', `no account ${accountId}`);
      return bookkeeping.balances(db, card.id, card.currency, card.creditLimit, closingDate);
    },

    async transactions(tpp, accountId, query) {
      const account = await existingAccount(tpp, accountId);
      await failIfFaulty(tpp, account.id);
      const after = query.after === undefined ? undefined : decodeCursor(query.after);
      const limit = Math.max(1, query.limit);
      // The snapshot is the newest posting's id: postings recorded later have greater ids.
      const recordedUpTo = postingIdOf(query.asOf) ?? (await ledger.lastPostingId(db));
      const lines = await ledger.statement(db, account.id, account.currency, {
        status: query.bookingStatus === 'both' ? undefined : query.bookingStatus,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        before: after && { bookingDate: after.date, id: Number(after.id) },
        recordedUpTo,
        limit: limit + 1,
      });
      const page = lines.slice(0, limit);
      const last = page.at(-1);
      return {
        transactions: page.map((line) => toBankTransaction(line, account.currency)),
        next: lines.length > limit && last ? encodeCursor({ date: last.bookingDate, id: String(last.id) }) : undefined,
        asOf: String(recordedUpTo),
      };
    },

    async transactionCount(tpp, accountId, query) {
      const account = await existingAccount(tpp, accountId);
      await failIfFaulty(tpp, account.id);
      return ledger.statementLength(db, account.id, account.currency, {
        status: query.bookingStatus === 'both' ? undefined : query.bookingStatus,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        recordedUpTo: postingIdOf(query.asOf) ?? (await ledger.lastPostingId(db)),
      });
    },

    async transaction(tpp, accountId, transactionId) {
      const account = await accountRepository.findById(db, tpp.tppId, accountId);
      if (!account) return undefined;
      await failIfFaulty(tpp, account.id);
      for (const key of keysOf(transactionId)) {
        const [line] = await ledger.statement(db, account.id, account.currency, { key, limit: 1 });
        if (line) return toBankTransaction(line, account.currency);
      }
      return undefined;
    },

    async cardAccountsOf(tpp, psuId) {
      const cards = await cardAccountRepository.list(db, tpp.tppId);
      return cards.filter((card) => card.owner.customerNumber === psuId).map(toBankCardAccount);
    },

    async cardAccount(tpp, cardAccountId) {
      const card = await cardAccountRepository.findById(db, tpp.tppId, cardAccountId);
      return card && toBankCardAccount(card);
    },

    async cardTransactions(tpp, cardAccountId, query) {
      const card = await cardAccountRepository.findById(db, tpp.tppId, cardAccountId);
      if (!card) throw new BankError('unknown-account', `no card account ${cardAccountId}`);
      await failIfFaulty(tpp, card.id);
      // The snapshot is when the newest card transaction was recorded (an ISO time).
      const asOf =
        query.asOf !== undefined && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(query.asOf)
          ? query.asOf
          : await cardAccountRepository.lastTransactionRecordedAt(db, tpp.tppId, card.id);
      const all = await cardAccountRepository.listTransactions(db, tpp.tppId, card.id, {
        status: query.bookingStatus === 'both' ? undefined : query.bookingStatus,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        recordedUpTo: asOf,
        offset: 0,
        limit: Number.MAX_SAFE_INTEGER,
      });
      const wanted = all.filter((item) => matches(query, item.status, item.transactionDate));
      const page = pageOf(wanted, (item) => ({ date: item.transactionDate, id: item.id }), query);
      return { transactions: page.transactions.map(toBankCardTransaction), next: page.next, asOf };
    },

    async fundsAvailable(tpp, reference, amount) {
      const account = await accountRepository.findByReference(db, tpp.tppId, reference);
      if (!account) throw new BankError('unknown-account', 'no such account');
      const debitMinor = convertMinor(amount, account.currency, rates);
      if (debitMinor === undefined) {
        throw new BankError('refused', `The bank has no exchange rate from ${amount.currency} to ${account.currency}`);
      }
      return (await bookkeeping.balances(db, account.id, account.currency, account.creditLimit)).interimAvailable.minor >= debitMinor;
    },

    async instantPaymentFee(tpp, query) {
      const account = await existingAccount(tpp, query.debtorAccountId);
      // The price list is in NOK, by the amount's NOK value; the fee is charged in the account's currency.
      const amountNok = convertMinor(query.amount, 'NOK', rates);
      if (amountNok === undefined) throw new BankError('refused', `The bank has no exchange rate from ${query.amount.currency} to NOK`);
      const feeNok = instantPaymentFeeOf(await instantPaymentFeeRepository.tiersOf(db, tpp.tppId), amountNok);
      const fee = convertMinor(feeNok, account.currency, rates);
      if (fee === undefined) throw new BankError('refused', `The bank has no exchange rate from NOK to ${account.currency}`);
      return { minor: fee, currency: account.currency };
    },

    async submitPayment(tpp, instruction) {
      const [outcome] = await submitPayments(tpp, [instruction]);
      return outcome!;
    },

    submitPayments,

    async outcomesSince(cursor, limit = 100) {
      const after = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isSafeInteger(after) || after < 0) throw new Error(`not an outcome cursor of this bank: ${cursor}`);
      const rows = await db
        .selectFrom('sandbox_payment_outcome')
        .select(['seq', 'payment_id', 'item', 'kind', 'reason'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(Math.max(1, limit))
        .execute();
      const outcomes = rows.map((row): ReportedOutcome => ({
        paymentId: row.payment_id,
        ...(row.item === 0 ? {} : { item: row.item }),
        outcome: row.kind === 'executed' ? { kind: 'executed' } : { kind: 'rejected', reason: row.reason ?? 'Rejected by the bank' },
      }));
      return { outcomes, cursor: String(rows.at(-1)?.seq ?? after) };
    },
  };

  /**
   * Puts a file's outcomes in the feed, each (payment, item) once, in the submission's
   * transaction and as its last step. Their numbers come from the counter row, whose lock is held
   * until this transaction commits: numbers are handed out in commit order, so a poller that has
   * read number n never later finds a smaller one appear. Taken last, and for the whole file in
   * one statement, that lock is held for a moment only.
   */
  async function report(trx: DbOrTx, entries: readonly FeedEntry[]): Promise<void> {
    const unique = new Map<string, FeedEntry>();
    for (const entry of entries) {
      const key = `${entry.instruction.paymentId}:${entry.instruction.item ?? 0}`;
      if (!unique.has(key)) unique.set(key, entry);
    }
    if (unique.size === 0) return;
    const paymentIds = [...new Set([...unique.values()].map((entry) => entry.instruction.paymentId))];
    for (let start = 0; start < paymentIds.length; start += FEED_SLICE) {
      const reported = await trx
        .selectFrom('sandbox_payment_outcome')
        .select(['payment_id', 'item'])
        .where('payment_id', 'in', paymentIds.slice(start, start + FEED_SLICE))
        .execute();
      for (const row of reported) unique.delete(`${row.payment_id}:${row.item}`);
    }
    const fresh = [...unique.values()];
    if (fresh.length === 0) return;
    const next = await trx
      .updateTable('sandbox_outcome_sequence')
      .set((eb) => ({ last_seq: eb('last_seq', '+', fresh.length) }))
      .where('id', '=', 1)
      .returning('last_seq')
      .executeTakeFirstOrThrow();
    const first = Number(next.last_seq) - fresh.length + 1;
    const at = now().toISOString();
    for (let start = 0; start < fresh.length; start += FEED_SLICE) {
      await trx
        .insertInto('sandbox_payment_outcome')
        .values(
          fresh.slice(start, start + FEED_SLICE).map(({ instruction, outcome }, index) => ({
            seq: first + start + index,
            payment_id: instruction.paymentId,
            item: instruction.item ?? 0,
            kind: outcome.kind,
            reason: outcome.kind === 'rejected' ? outcome.reason : null,
            recorded_at: at,
          })),
        )
        .execute();
    }
  }
}

/**
 * The legs of a transfer: the debtor debited `debitMinor` (its currency), and the creditor, when
 * it is an account of this bank in the instructed currency, credited; otherwise the money leaves
 * through the TPP's clearing account.
 */
function transferLegsOf(
  debtor: LedgerKey,
  creditor: LedgerKey | undefined,
  clearing: string,
  debitMinor: bigint,
  creditMinor: bigint,
): LedgerLeg[] {
  if (creditor && creditor.currency === debtor.currency) return transferLegs(debtor.id, creditor.id, debtor.currency, debitMinor);
  return [
    ...transferLegs(debtor.id, clearing, debtor.currency, debitMinor),
    // A currency exchange into an account of this bank goes through the clearing account.
    ...(creditor ? transferLegs(clearing, creditor.id, creditor.currency, creditMinor) : []),
  ];
}

/** The booked posting of a transfer, under its idempotency key. */
function postingOf(transfer: OutgoingTransfer, legs: readonly LedgerLeg[]): LedgerPosting {
  return {
    idempotencyKey: transfer.idempotencyKey,
    status: 'booked',
    bookingDate: transfer.bookingDate,
    valueDate: transfer.bookingDate,
    description: transfer.description,
    legs,
  };
}

/** An outcome a submission puts in the sandbox's feed. */
interface FeedEntry {
  readonly instruction: PaymentInstruction;
  readonly outcome: ReportedOutcome['outcome'];
}

/** Feed rows read or written per statement (both databases cap the bound parameters of one statement). */
const FEED_SLICE = 500;

/** The in-transaction transfer of a submitted payment, under the key the batch runner uses too. */
function transferOf(instruction: PaymentInstruction): OutgoingTransfer {
  return {
    idempotencyKey: paymentKey(instruction.paymentId, instruction.item),
    debtorAccountId: instruction.debtorAccountId,
    amount: instruction.amount,
    creditorAccount: instruction.creditorAccount,
    bookingDate: instruction.executionDate,
    description: instruction.description,
    fee: instruction.fee && { idempotencyKey: paymentFeeKey(instruction.paymentId, instruction.item), amount: instruction.fee },
    allOrNoneGroup: instruction.allOrNone ? instruction.paymentId : undefined,
  };
}

/**
 * The posting that charges a transfer's fee, a statement line of its own beside the payment's:
 * from the debtor's account to the TPP's sandbox fee account, on the payment's day, its text
 * naming the payment it is for. Undefined when nothing is charged.
 */
function feePostingOf(tpp: RequestingTpp, transfer: OutgoingTransfer, debtor: LedgerKey, feeMinor: bigint): LedgerPosting | undefined {
  if (!transfer.fee || feeMinor === 0n) return undefined;
  const text = `${FEE_TEXT}: ${transfer.description}`;
  return {
    idempotencyKey: transfer.fee.idempotencyKey,
    status: 'booked',
    bookingDate: transfer.bookingDate,
    valueDate: transfer.bookingDate,
    description: text,
    details: { remittanceUnstructured: text },
    legs: transferLegs(debtor.id, sandboxSystemAccount(tpp.tppId, 'fees'), debtor.currency, feeMinor),
  };
}

function submissionOutcomeOf(result: TransferResult): SubmissionOutcome {
  switch (result.kind) {
    case 'booked':
    case 'already-booked':
      return { kind: 'executed' };
    // Withheld: submitted again with the rest of its group, it is booked when they all can be.
    case 'insufficient-funds':
    case 'withheld':
      return { kind: 'pending-funds' };
    case 'refused':
      return { kind: 'rejected', reason: result.reason };
  }
}
