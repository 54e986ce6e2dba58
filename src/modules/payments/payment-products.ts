/**
 * The payment services and products this bank offers (docs/design.md §2). Single payments come in five
 * products; bulk and periodic payments only as Norwegian domestic credit transfers.
 */
export const PAYMENT_SERVICES = ['payments', 'bulk-payments', 'periodic-payments'] as const;
export type PaymentService = (typeof PAYMENT_SERVICES)[number];

export const PAYMENT_PRODUCTS = [
  'norwegian-domestic-credit-transfers',
  'instant-norwegian-domestic-credit-transfers-straks',
  'norwegian-cross-border-credit-transfers',
  'cross-border-credit-transfers',
  'sepa-credit-transfers',
] as const;
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];

/** Which products each service offers. */
export const PRODUCTS_OF_SERVICE: Readonly<Record<PaymentService, readonly PaymentProduct[]>> = {
  payments: PAYMENT_PRODUCTS,
  'bulk-payments': ['norwegian-domestic-credit-transfers'],
  'periodic-payments': ['norwegian-domestic-credit-transfers'],
};

/** The short names the bank's documentation uses. */
export const PRODUCT_SHORT_NAMES: Readonly<Record<PaymentProduct, string>> = {
  'norwegian-domestic-credit-transfers': 'NDCT',
  'instant-norwegian-domestic-credit-transfers-straks': 'INDCTS',
  'norwegian-cross-border-credit-transfers': 'NCBCT',
  'cross-border-credit-transfers': 'CBCT',
  'sepa-credit-transfers': 'SCT',
};

export function isPaymentProduct(value: string): value is PaymentProduct {
  return (PAYMENT_PRODUCTS as readonly string[]).includes(value);
}

export function offers(service: PaymentService, product: string): product is PaymentProduct {
  return (PRODUCTS_OF_SERVICE[service] as readonly string[]).includes(product);
}

/** Instant (Straks) payments: dated today, and settled at approval rather than in a batch run. */
export function isInstant(product: PaymentProduct): boolean {
  return product === 'instant-norwegian-domestic-credit-transfers-straks';
}

/** Products paid in NOK from a NOK account to a Norwegian account. */
export function isDomestic(service: PaymentService, product: PaymentProduct): boolean {
  return (
    service !== 'payments' ||
    product === 'norwegian-domestic-credit-transfers' ||
    product === 'instant-norwegian-domestic-credit-transfers-straks'
  );
}
