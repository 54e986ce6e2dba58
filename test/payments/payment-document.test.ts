/**
 * Reading and writing a stored payment body (payment-document.ts), pure:
 * - written: the body as JSON, and always the current version;
 * - read: version 1, and a row without a version (null), give the body of the service as stored;
 * - not read, with the payment and the reason named: a version this server does not know, text
 *   that is not JSON or not an object, a bulk without payments, a standing order without its
 *   schedule, a single payment without instructedAmount.
 */
import { describe, expect, it } from 'vitest';
import {
  CURRENT_PAYMENT_BODY_VERSION,
  readPaymentDocument,
  writePaymentDocument,
  type PaymentBody,
} from '../../src/modules/payments/payment-document.js';

const single: PaymentBody<'payments'> = {
  debtorAccount: { bban: '12345678903' },
  instructedAmount: { currency: 'NOK', amount: '1.00' },
  creditorAccount: { bban: '86011117947' },
  creditorName: 'Kari Nordmann',
  creditorAddress: { streetName: 'Storgata', postalCode: '0155', townName: 'Oslo', country: 'NO' },
};

describe('a stored payment body', () => {
  it('is written as JSON with the current version', () => {
    expect(writePaymentDocument({ service: 'payments', body: single })).toEqual({
      body: JSON.stringify(single),
      body_version: CURRENT_PAYMENT_BODY_VERSION,
    });
  });

  it.each([1, '1', null, undefined])('is read from version %s as stored', (version) => {
    const document = readPaymentDocument('payments', { body: JSON.stringify(single), body_version: version }, 'p1');
    expect(document).toEqual({ service: 'payments', body: single });
  });

  it('round-trips every service', () => {
    const bulk: PaymentBody<'bulk-payments'> = { debtorAccount: { bban: '12345678903' }, payments: [single] };
    const periodic: PaymentBody<'periodic-payments'> = { ...single, startDate: '2026-12-01', frequency: 'Monthly' };
    expect(readPaymentDocument('bulk-payments', writePaymentDocument({ service: 'bulk-payments', body: bulk })).body).toEqual(bulk);
    expect(readPaymentDocument('periodic-payments', writePaymentDocument({ service: 'periodic-payments', body: periodic })).body).toEqual(
      periodic,
    );
  });

  it.each([
    ['payments', JSON.stringify(single), 2, 'unknown body version 2'],
    ['payments', '{"debtorAccount":', 1, 'not JSON'],
    ['payments', '[]', 1, 'not a JSON object'],
    ['payments', '{}', 1, 'a payment without instructedAmount'],
    ['bulk-payments', JSON.stringify(single), 1, 'a bulk payment without payments'],
    ['periodic-payments', JSON.stringify(single), 1, 'a periodic payment without its schedule'],
  ] as const)('of %s %s version %s is not read: %s', (service, body, version, why) => {
    expect(() => readPaymentDocument(service, { body, body_version: version }, 'p1')).toThrow(
      `payment p1 has a stored body that cannot be read: ${why}`,
    );
  });
});
