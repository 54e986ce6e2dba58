import type { AccountReference, BankCardTransaction, BankTransaction, BookingStatus } from '../../bank/core-banking.port.js';
import type { AcceptFixName } from '../../domain/accept-fix.js';
import type { Money } from '../../domain/money.js';
import { amountOf } from './account-views.js';
import { cardTransactionAmounts } from './card-transaction-amounts.js';

/*
 * The Berlin Group shapes of a statement (docs/design.md §2b): `transactions` entries of an account
 * report, `cardTransaction` entries of a card account report, standing orders as `information`.
 * Amounts are strings. Pure: the caller brings the entries and where their details are.
 */

/** A structured remittance reference: a KID is `{ reference, referenceType: 'SCOR' }`. */
export interface RemittanceReference {
  readonly reference: string;
  readonly referenceType?: string | undefined;
}

/** One line of an account's statement, whether the bank has it or it is one of our payments not yet executed. */
export interface StatementEntry {
  readonly id: string;
  readonly status: BookingStatus;
  readonly bookingDate: string;
  readonly valueDate: string;
  /** Signed, as seen from the account: negative is a debit. */
  readonly amount: Money;
  readonly counterpartyName?: string | undefined;
  readonly counterpartyAccount?: AccountReference | undefined;
  readonly remittanceUnstructured?: string | undefined;
  readonly remittanceReferences?: readonly RemittanceReference[] | undefined;
  readonly endToEndId?: string | undefined;
  readonly bankTransactionCode?: string | undefined;
  readonly proprietaryBankTransactionCode?: string | undefined;
}

/** A standing order as an `information` entry: what is paid, to whom and when. */
export interface StandingOrderEntry extends Omit<StatementEntry, 'status' | 'bookingDate' | 'valueDate'> {
  readonly startDate: string;
  readonly endDate?: string | undefined;
  readonly frequency: string;
  readonly executionRule?: string | undefined;
  readonly dayOfExecution?: string | undefined;
  readonly monthsOfExecution?: readonly string[] | undefined;
}

/**
 * A bank transaction as a statement entry (before what our own payment adds to it), with the
 * payment it comes from, if it is ours.
 */
export function entryOfBankTransaction(transaction: BankTransaction): StatementEntry & { readonly paymentId: string | undefined } {
  return {
    id: transaction.id,
    status: transaction.status,
    bookingDate: transaction.bookingDate,
    valueDate: transaction.valueDate,
    amount: transaction.amount,
    counterpartyName: transaction.counterpartyName,
    counterpartyAccount: transaction.counterpartyAccount,
    remittanceUnstructured: transaction.remittanceUnstructured,
    remittanceReferences:
      transaction.remittanceReference === undefined ? undefined : [{ reference: transaction.remittanceReference, referenceType: 'SCOR' }],
    endToEndId: transaction.endToEndId,
    bankTransactionCode: transaction.bankTransactionCode,
    proprietaryBankTransactionCode: transaction.proprietaryBankTransactionCode,
    paymentId: transaction.paymentId,
  };
}

function referenceView(reference: AccountReference): Record<string, string> {
  return 'iban' in reference ? { iban: reference.iban } : { bban: reference.bban };
}

/**
 * Writes the fields both a statement line and a standing order show, in Berlin Group names, into
 * `view`. Built by assignment rather than by spreading optional parts into a literal: V8 takes a
 * slow path for a spread followed by other properties, and a page builds 200 of these.
 */
function writeTransferFields(view: Record<string, unknown>, entry: Omit<StatementEntry, 'status' | 'bookingDate' | 'valueDate'>): void {
  // The counterparty of a debit is its creditor; of a credit, its debtor.
  const side = entry.amount.minor < 0n ? 'creditor' : 'debtor';
  if (entry.endToEndId !== undefined) view['endToEndId'] = entry.endToEndId.slice(0, 35);
  view['transactionAmount'] = amountOf(entry.amount);
  if (entry.counterpartyName !== undefined) view[`${side}Name`] = entry.counterpartyName.slice(0, 70);
  if (entry.counterpartyAccount !== undefined) view[`${side}Account`] = referenceView(entry.counterpartyAccount);
  if (entry.remittanceUnstructured !== undefined) view['remittanceInformationUnstructured'] = entry.remittanceUnstructured.slice(0, 140);
  if (entry.remittanceReferences !== undefined && entry.remittanceReferences.length > 0) {
    view['remittanceInformationStructuredArray'] = entry.remittanceReferences.map((item) =>
      item.referenceType === undefined ? { reference: item.reference } : { reference: item.reference, referenceType: item.referenceType },
    );
  }
  if (entry.bankTransactionCode !== undefined) view['bankTransactionCode'] = entry.bankTransactionCode;
  if (entry.proprietaryBankTransactionCode !== undefined) {
    view['proprietaryBankTransactionCode'] = entry.proprietaryBankTransactionCode.slice(0, 35);
  }
}

/** A Berlin Group `transactions` entry, with the link to its details. */
export function transactionView(entry: StatementEntry, detailsHref: string): Record<string, unknown> {
  const view: Record<string, unknown> = { transactionId: entry.id };
  writeTransferFields(view, entry);
  view['bookingDate'] = entry.bookingDate;
  view['valueDate'] = entry.valueDate;
  view['_links'] = { transactionDetails: { href: detailsHref } };
  return view;
}

/**
 * A standing order as a Berlin Group `information` entry (bank transaction code PMNT-ICDT-STDO),
 * without a `transactionId`: it is not a transaction, and Berlin Group's `transactionId` is "given
 * by the attribute transactionId of the corresponding entry of a transaction list" to read its
 * details, which a standing order has none of (the member is optional: only transactionAmount is
 * required).
 */
export function standingOrderView(order: StandingOrderEntry): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  writeTransferFields(view, { ...order, bankTransactionCode: order.bankTransactionCode ?? 'PMNT-ICDT-STDO' });
  view['additionalInformationStructured'] = {
    standingOrderDetails: {
      startDate: order.startDate,
      frequency: order.frequency,
      ...(order.endDate === undefined ? {} : { endDate: order.endDate }),
      ...(order.executionRule === undefined ? {} : { executionRule: order.executionRule }),
      ...(order.dayOfExecution === undefined ? {} : { dayOfExecution: order.dayOfExecution }),
      ...(order.monthsOfExecution === undefined ? {} : { monthsOfExecution: [...order.monthsOfExecution] }),
    },
  };
  return view;
}

/**
 * A card transaction's id as Berlin Group allows it (at most 35 characters): the bank's, or, when
 * longer, the bank's without its hyphens (a UUID's 32 hex digits), so it stays the same on every read.
 */
export function cardTransactionIdOf(bankId: string): string {
  return bankId.length <= 35 ? bankId : bankId.replace(/-/g, '').slice(0, 35);
}

/**
 * A Berlin Group `cardTransaction`. With the `cardaccount-switch-originalamount-and-transactionamount`
 * fix, `transactionAmount` is in the card account's currency and `originalAmount` what the
 * merchant charged; without it, the bank's historical swap of the two.
 */
export function cardTransactionView(transaction: BankCardTransaction, fixes: ReadonlySet<AcceptFixName>): Record<string, unknown> {
  const { transactionAmount, originalAmount } = cardTransactionAmounts(transaction, fixes);
  return {
    cardTransactionId: cardTransactionIdOf(transaction.id),
    transactionDate: transaction.transactionDate,
    ...(transaction.bookingDate === undefined ? {} : { bookingDate: transaction.bookingDate }),
    transactionAmount,
    ...(originalAmount === undefined ? {} : { originalAmount }),
    ...(transaction.merchantId === undefined ? {} : { cardAcceptorId: transaction.merchantId.slice(0, 35) }),
    ...(transaction.merchantCategoryCode === undefined ? {} : { merchantCategoryCode: transaction.merchantCategoryCode }),
    maskedPAN: transaction.maskedPan,
    ...(transaction.merchant === undefined ? {} : { transactionDetails: transaction.merchant.slice(0, 140) }),
  };
}
