/**
 * Reading and writing a stored payment body (payment-document.ts), pure:
 * - written: the body as JSON, and always the current version;
 * - read: version 1, and a row without a version (null), give the body of the service as stored;
 * - version 2: a KID in the deprecated remittanceInformationStructured is written, and read from
 *   version 1, as a one-entry remittanceInformationStructuredArray, in every service's transfers;
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

  const kid = { reference: '1234567890128', referenceType: 'SCOR' };
  const withKid: PaymentBody<'payments'> = { ...single, remittanceInformationStructured: kid };
  const withArray: PaymentBody<'payments'> = { ...single, remittanceInformationStructuredArray: [kid] };

  it('writes a KID sent in remittanceInformationStructured as remittanceInformationStructuredArray, in every service', () => {
    expect(JSON.parse(writePaymentDocument({ service: 'payments', body: withKid }).body)).toEqual(withArray);
    const bulk = writePaymentDocument({
      service: 'bulk-payments',
      body: { debtorAccount: { bban: '12345678903' }, payments: [withKid, single] },
    });
    expect(JSON.parse(bulk.body)).toEqual({ debtorAccount: { bban: '12345678903' }, payments: [withArray, single] });
    const periodic = writePaymentDocument({
      service: 'periodic-payments',
      body: { ...withKid, startDate: '2026-12-01', frequency: 'Monthly' },
    });
    expect(JSON.parse(periodic.body)).toEqual({ ...withArray, startDate: '2026-12-01', frequency: 'Monthly' });
  });

  it.each([1, null])('upgrades version %s: its remittanceInformationStructured is read as the array', (version) => {
    expect(readPaymentDocument('payments', { body: JSON.stringify(withKid), body_version: version }).body).toEqual(withArray);
    const bulk = readPaymentDocument('bulk-payments', {
      body: JSON.stringify({ debtorAccount: { bban: '12345678903' }, payments: [single, withKid] }),
      body_version: version,
    });
    expect(bulk.body.payments).toEqual([single, withArray]);
  });

  it('reads version 2 as stored', () => {
    expect(readPaymentDocument('payments', { body: JSON.stringify(withArray), body_version: 2 }).body).toEqual(withArray);
  });

  it.each([
    ['payments', JSON.stringify(single), 3, 'unknown body version 3'],
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
