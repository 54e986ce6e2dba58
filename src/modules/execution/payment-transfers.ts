import type { AccountReference, PaymentInstruction } from '../../bank/core-banking.port.js';
import { parseAmount } from '../../domain/money.js';
import type { Payment } from '../payments/payment.model.js';
import type { BulkItem } from '../payments/payment.schemas.js';

/**
 * The parts of a stored body a transfer is made of: shared by single payments and bulk items. (A
 * KID sent in the deprecated single `remittanceInformationStructured` is stored in the array:
 * payment-document.ts.)
 */
type TransferFields = Pick<
  BulkItem,
  'instructedAmount' | 'creditorAccount' | 'creditorName' | 'remittanceInformationUnstructured' | 'remittanceInformationStructuredArray'
>;

function itemsOf(payment: Payment): readonly TransferFields[] {
  return payment.service === 'bulk-payments' ? payment.body.payments : [payment.body];
}

/**
 * A bulk whose PSU prefers one booking entry (Berlin Group `batchBookingPreferred: true`): the bank
 * executes all its payments or none (docs/design.md §3), as one entry cannot be booked in part.
 */
export function executesAllOrNone(payment: Payment): boolean {
  return payment.service === 'bulk-payments' && payment.body.batchBookingPreferred === true;
}

/**
 * What the bank is handed to execute a payment (the core-banking port's submission): one
 * instruction for a single payment, one per payment of a bulk (item 1, 2, … in order), each
 * executed by the bank at most once however often it is submitted, and a batch-booked bulk's all
 * or none ({@link executesAllOrNone}). Pure.
 */
export function instructionsOf(payment: Payment, executionDate: string): PaymentInstruction[] {
  const allOrNone = executesAllOrNone(payment) ? true : undefined;
  return itemsOf(payment).map((item, index) => ({
    paymentId: payment.id,
    item: payment.service === 'bulk-payments' ? index + 1 : undefined,
    allOrNone,
    debtorAccountId: payment.debtorAccountId,
    amount: amountOf(item),
    creditorAccount: referenceOf(item.creditorAccount),
    creditorName: item.creditorName,
    executionDate,
    description: descriptionOf(item),
    // The fee quoted at initiation (a Straks payment's: a single payment) is charged as quoted.
    fee:
      payment.service !== 'bulk-payments' && payment.transactionFee && payment.transactionFee.minor > 0n
        ? payment.transactionFee
        : undefined,
  }));
}

function amountOf(item: TransferFields) {
  const parsed = parseAmount(item.instructedAmount.amount, item.instructedAmount.currency);
  if (!parsed.ok) throw new Error(`a stored payment has an amount that does not parse: ${item.instructedAmount.amount}`);
  return parsed.value;
}

function referenceOf(account: TransferFields['creditorAccount']): AccountReference | undefined {
  if (account.iban !== undefined) return { iban: account.iban };
  if (account.bban !== undefined) return { bban: account.bban };
  return undefined;
}

/** What the account statement says: to whom, and the KID or message. */
function descriptionOf(item: TransferFields): string {
  const references = (item.remittanceInformationStructuredArray ?? []).map((structured) => structured.reference);
  const remittance = item.remittanceInformationUnstructured ?? (references.length > 0 ? references.join(', ') : undefined);
  return remittance === undefined ? item.creditorName : `${item.creditorName}: ${remittance}`;
}
