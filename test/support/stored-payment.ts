import type { StoredRequestContext } from '../../src/http/headers/request-headers.js';
import { localized, type Localized } from '../../src/domain/localized.js';
import type { ConfirmationLine } from '../../src/modules/authorisations/authorisation-subject.js';
import type { PaymentService } from '../../src/modules/payments/payment-products.js';
import type { Payment, PaymentFields } from '../../src/modules/payments/payment.model.js';

/**
 * Payments as the repository returns them, built without a database, for the pure tests of what
 * the confirmation pages show (test/payments/payment-confirmation.test.ts,
 * test/signing-baskets/signing-basket-confirmation.test.ts).
 */

/** The request context of a payment created with no optional header. */
export const NO_HEADERS: StoredRequestContext = {
  acceptFixes: [],
  biometricAuthentication: false,
  tppExplicitAuthorisationPreferred: false,
  psuContext: {},
};

export const DEBTOR = '12345678903';
export const CREDITOR = '86011117947';

let nextId = 1;

/**
 * What a test gives: any field, the service, and a body. The body is taken as it is, not as its
 * service's type: these tests give only the members the code under test reads.
 */
export type StoredPaymentOverrides<S extends PaymentService = PaymentService> = Partial<PaymentFields> & {
  readonly service?: S;
  readonly body: Record<string, unknown>;
};

/** A received NDCT payment of 1234.56 NOK from {@link DEBTOR}, with whatever the test overrides. */
export function storedPayment<S extends PaymentService = 'payments'>(overrides: StoredPaymentOverrides<S>): Payment<S> {
  const n = String(nextId++).padStart(12, '0');
  return {
    id: `3f1e0c4e-6a53-4c1e-9b8e-${n}`,
    tppId: 'PSDNO-FSA-123456789',
    service: 'payments',
    product: 'norwegian-domestic-credit-transfers',
    status: 'RCVD',
    statusReason: undefined,
    fundsAvailable: undefined,
    requestId: `b8c5d0a2-0000-4000-8000-${n}`,
    psuId: '13039319955',
    psuCorporateId: undefined,
    basketId: undefined,
    awaitingFundsSince: undefined,
    transactionFee: undefined,
    debtorAccountId: `account-${DEBTOR}`,
    currency: 'NOK',
    amountMinor: 123456n,
    requestedExecutionDate: undefined,
    requestContext: NO_HEADERS,
    createdAt: '2026-11-20T08:00:00.000Z',
    statusChangedAt: '2026-11-20T08:00:00.000Z',
    ...overrides,
  } as unknown as Payment<S>;
}

const NBSP = '\u00a0';

/** Intl writes group separators and the currency with no-break spaces; the expectations use plain ones. */
export const money = (en: string, nb: string): Localized => localized(en.replace(/ /g, NBSP), nb.replace(/ /g, NBSP));

/** A confirmation line as the expectations write it. */
export const line = (en: string, nb: string, value: Localized | string): ConfirmationLine => ({
  label: localized(en, nb),
  value: typeof value === 'string' ? localized(value, value) : value,
});
