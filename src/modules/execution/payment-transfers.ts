import type { AccountReference } from '../../bank/core-banking.port.js';
import type { OutgoingTransfer } from '../sandbox/sandbox-core-banking.js';
import { parseAmount } from '../../domain/money.js';
import type { Payment } from '../payments/payment.repository.js';
import type { BulkItem } from '../payments/payment.schemas.js';

/** The parts of a stored body a transfer is made of: shared by single payments and bulk items. */
type TransferFields = Pick<
  BulkItem,
  | 'instructedAmount'
  | 'creditorAccount'
  | 'creditorName'
  | 'remittanceInformationUnstructured'
  | 'remittanceInformationStructured'
  | 'remittanceInformationStructuredArray'
>;

/**
 * The transfers that execute a payment: one for a single payment, one per payment of a bulk, each
 * under its own idempotency key so a retried run moves no money twice. Pure; the stored body was
 * validated when the payment was created.
 */
export function transfersOf(payment: Payment, bookingDate: string): OutgoingTransfer[] {
  const items: readonly TransferFields[] =
    payment.service === 'bulk-payments' ? (payment.body.payments as TransferFields[]) : [payment.body as unknown as TransferFields];
  return items.map((item, index) => ({
    idempotencyKey: payment.service === 'bulk-payments' ? `payment:${payment.id}:${index + 1}` : `payment:${payment.id}`,
    debtorAccountId: payment.debtorAccountId,
    amount: amountOf(item),
    creditorAccount: referenceOf(item.creditorAccount),
    bookingDate,
    description: descriptionOf(item),
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
  const references = [
    ...(item.remittanceInformationStructured ? [item.remittanceInformationStructured] : []),
    ...(item.remittanceInformationStructuredArray ?? []),
  ].map((structured) => structured.reference);
  const remittance = item.remittanceInformationUnstructured ?? (references.length > 0 ? references.join(', ') : undefined);
  return remittance === undefined ? item.creditorName : `${item.creditorName}: ${remittance}`;
}
