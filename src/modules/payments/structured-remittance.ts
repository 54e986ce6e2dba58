import type { PaymentService } from './payment-products.js';
import type { StructuredRemittance } from './payment.schemas.js';

/*
 * A KID travels in Berlin Group `remittanceInformationStructuredArray`; the single
 * `remittanceInformationStructured` is deprecated in its favour (docs/design.md §2). A payment may
 * still be sent with the single one (never with both), but it is stored and answered as the array
 * only: the single entry becomes an array of one. Pure.
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

/**
 * A payment body of any service with every transfer's structured remittance as the array: the
 * body itself for a single or periodic payment, each of its payments for a bulk.
 */
export function bodyWithStructuredArrays<B extends object>(service: PaymentService, body: B): B {
  if (service === 'bulk-payments') {
    const bulk = body as B & { payments?: unknown };
    if (!Array.isArray(bulk.payments)) return body;
    return { ...bulk, payments: (bulk.payments as StructuredFields[]).map(withStructuredArray) };
  }
  return withStructuredArray(body as B & StructuredFields);
}
