import type { PaymentService } from './payment-products.js';
import type { StructuredRemittance } from './payment.schemas.js';

/*
 * A KID travels in Berlin Group `remittanceInformationStructuredArray`; the single
 * `remittanceInformationStructured` is deprecated in its favour (docs/design.md §2). A payment may
 * still be sent with the single one (never with both), but it is stored and answered as the array
 * only: the single entry becomes an array of one. Pure.
 *
 * The message, likewise, travels in `remittanceInformationUnstructured` or, as Berlin Group also
 * defines it, in `remittanceInformationUnstructuredArray`. A Norwegian payment carries one message
 * of at most 140 characters (the rules refuse more entries, and the array with the plain field), so
 * an array of one is stored and answered as `remittanceInformationUnstructured`, the one message
 * the ledger, the account's transactions and the duplicate rule read; an empty array is no message.
 */

interface StructuredFields {
  readonly remittanceInformationStructured?: StructuredRemittance | undefined;
  readonly remittanceInformationStructuredArray?: readonly StructuredRemittance[] | undefined;
}

/** The transfer with its structured remittance as the array: the deprecated single entry moved into it, nothing else changed. */
export function withStructuredArray<T extends StructuredFields>(transfer: T): T {
  const { remittanceInformationStructured: single, ...rest } = transfer;
  if (single === undefined) return transfer;
  const array = [single, ...(transfer.remittanceInformationStructuredArray ?? [])];
  return { ...rest, remittanceInformationStructuredArray: array } as unknown as T;
}

interface UnstructuredFields {
  readonly remittanceInformationUnstructured?: string | undefined;
  readonly remittanceInformationUnstructuredArray?: readonly string[] | undefined;
}

/** The transfer with a message sent as an array of one as `remittanceInformationUnstructured`, an empty array dropped. */
function withUnstructuredText<T extends UnstructuredFields>(transfer: T): T {
  const { remittanceInformationUnstructuredArray: lines, ...rest } = transfer;
  if (lines === undefined) return transfer;
  return (lines.length === 0 ? rest : { ...rest, remittanceInformationUnstructured: lines[0] }) as unknown as T;
}

/** The transfer's remittance as it is stored: KIDs in the array, the message as the plain text. */
export function withStoredRemittance<T extends StructuredFields & UnstructuredFields>(transfer: T): T {
  return withUnstructuredText(withStructuredArray(transfer));
}

/**
 * A payment body of any service with every transfer's remittance as stored ({@link withStoredRemittance}):
 * the body itself for a single or periodic payment, each of its payments for a bulk.
 */
export function bodyWithStoredRemittance<B extends object>(service: PaymentService, body: B): B {
  if (service === 'bulk-payments') {
    const bulk = body as B & { payments?: unknown };
    if (!Array.isArray(bulk.payments)) return body;
    return { ...bulk, payments: (bulk.payments as StructuredFields[]).map(withStoredRemittance) };
  }
  return withStoredRemittance(body as B & StructuredFields);
}
