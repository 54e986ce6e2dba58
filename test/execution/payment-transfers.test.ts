/**
 * The transfers that execute a stored payment, pure:
 * - a single payment is one transfer under the key `payment:<id>`; a bulk is one transfer per
 *   payment, in order, under `payment:<id>:<n>` (1-based), so a retried run moves no money twice;
 * - each carries the debtor account, the booking date given, the instructed amount in exact minor
 *   units of its currency, and the creditor account as the payment names it (IBAN first, else BBAN);
 * - the statement text is the creditor's name and the KID or message: "Name: message".
 */
import { describe, expect, it } from 'vitest';
import { transfersOf } from '../../src/modules/execution/payment-transfers.js';
import { DEBTOR, storedPayment } from '../support/stored-payment.js';

const DATE = '2026-11-23';
const CREDITOR_BBAN = '86011117947';
const CREDITOR_IBAN = 'NO9386011117947';
const KID = '1234567890128';

function single(body: Record<string, unknown>) {
  return storedPayment({
    body: {
      debtorAccount: { bban: DEBTOR },
      instructedAmount: { currency: 'NOK', amount: '100.33' },
      creditorAccount: { bban: CREDITOR_BBAN },
      creditorName: 'Company 123',
      ...body,
    },
  });
}

describe('transfersOf a single payment', () => {
  it('is one transfer under payment:<id>, with the debtor, amount, creditor, booking date and statement text', () => {
    const payment = single({ remittanceInformationUnstructured: 'Kredittrente' });
    expect(transfersOf(payment, DATE)).toEqual([
      {
        idempotencyKey: `payment:${payment.id}`,
        debtorAccountId: payment.debtorAccountId,
        amount: { minor: 10033n, currency: 'NOK' },
        creditorAccount: { bban: CREDITOR_BBAN },
        bookingDate: DATE,
        description: 'Company 123: Kredittrente',
      },
    ]);
  });

  it('books on the date it is given', () => {
    expect(transfersOf(single({}), '2027-01-04')[0]!.bookingDate).toBe('2027-01-04');
  });

  it.each([
    ['100', 'NOK', 10000n],
    ['0.01', 'NOK', 1n],
    ['1234567.5', 'EUR', 123456750n],
    ['100', 'JPY', 100n],
    ['1.005', 'KWD', 1005n],
  ])('the amount %s %s is %s minor units of that currency', (amount, currency, minor) => {
    const [transfer] = transfersOf(single({ instructedAmount: { currency, amount } }), DATE);
    expect(transfer!.amount).toEqual({ minor, currency });
  });

  it('names the creditor by IBAN when the payment gives one (SEPA, cross-border)', () => {
    const [transfer] = transfersOf(single({ creditorAccount: { iban: 'DE89370400440532013000' } }), DATE);
    expect(transfer!.creditorAccount).toEqual({ iban: 'DE89370400440532013000' });
  });

  it('prefers the IBAN when both are given', () => {
    const [transfer] = transfersOf(single({ creditorAccount: { iban: CREDITOR_IBAN, bban: CREDITOR_BBAN } }), DATE);
    expect(transfer!.creditorAccount).toEqual({ iban: CREDITOR_IBAN });
  });

  it('has no creditor account when the payment names neither', () => {
    const [transfer] = transfersOf(single({ creditorAccount: {} }), DATE);
    expect(transfer!.creditorAccount).toBeUndefined();
  });

  it('the statement text: the creditor name and the KID of a structured remittance', () => {
    const [transfer] = transfersOf(single({ remittanceInformationStructured: { reference: KID, referenceType: 'SCOR' } }), DATE);
    expect(transfer!.description).toBe(`Company 123: ${KID}`);
  });

  it('the statement text without remittance information: the creditor name alone', () => {
    expect(transfersOf(single({}), DATE)[0]!.description).toBe('Company 123');
  });

  it('the statement text keeps the KIDs of remittanceInformationStructuredArray (a payment carries either KIDs or a message)', () => {
    const second = '0000000000018';
    const [transfer] = transfersOf(
      single({
        remittanceInformationStructuredArray: [
          { reference: KID, referenceType: 'SCOR' },
          { reference: second, referenceType: 'SCOR' },
        ],
      }),
      DATE,
    );
    expect(transfer!.description).toContain('Company 123');
    expect(transfer!.description).toContain(KID);
    expect(transfer!.description).toContain(second);
  });

  it('refuses (throws on) a stored amount that does not parse', () => {
    expect(() => transfersOf(single({ instructedAmount: { currency: 'NOK', amount: '1.234' } }), DATE)).toThrow(/does not parse/);
  });
});

describe('transfersOf a bulk payment', () => {
  const bulk = storedPayment({
    service: 'bulk-payments',
    amountMinor: 37533n,
    body: {
      paymentInformationId: 'bulk-1',
      debtorAccount: { bban: DEBTOR },
      requestedExecutionDate: DATE,
      payments: [
        {
          instructedAmount: { currency: 'NOK', amount: '250.00' },
          creditorAccount: { bban: CREDITOR_BBAN },
          creditorName: 'Leverandør AS',
          remittanceInformationUnstructured: 'Faktura 1',
        },
        {
          instructedAmount: { currency: 'NOK', amount: '12.50' },
          creditorAccount: { iban: CREDITOR_IBAN },
          creditorName: 'Strøm AS',
          remittanceInformationStructured: { reference: KID },
        },
        {
          instructedAmount: { currency: 'NOK', amount: '112.83' },
          creditorAccount: { bban: '12345678903' },
          creditorName: 'Utleier',
        },
      ],
    },
  });

  it('is one transfer per payment, in order, each under payment:<id>:<n> (1-based)', () => {
    const transfers = transfersOf(bulk, DATE);
    expect(transfers.map((transfer) => transfer.idempotencyKey)).toEqual([
      `payment:${bulk.id}:1`,
      `payment:${bulk.id}:2`,
      `payment:${bulk.id}:3`,
    ]);
  });

  it("each with its own amount, creditor and statement text, and the bulk's debtor and booking date", () => {
    expect(transfersOf(bulk, DATE)).toEqual([
      {
        idempotencyKey: `payment:${bulk.id}:1`,
        debtorAccountId: bulk.debtorAccountId,
        amount: { minor: 25000n, currency: 'NOK' },
        creditorAccount: { bban: CREDITOR_BBAN },
        bookingDate: DATE,
        description: 'Leverandør AS: Faktura 1',
      },
      {
        idempotencyKey: `payment:${bulk.id}:2`,
        debtorAccountId: bulk.debtorAccountId,
        amount: { minor: 1250n, currency: 'NOK' },
        creditorAccount: { iban: CREDITOR_IBAN },
        bookingDate: DATE,
        description: `Strøm AS: ${KID}`,
      },
      {
        idempotencyKey: `payment:${bulk.id}:3`,
        debtorAccountId: bulk.debtorAccountId,
        amount: { minor: 11283n, currency: 'NOK' },
        creditorAccount: { bban: '12345678903' },
        bookingDate: DATE,
        description: 'Utleier',
      },
    ]);
  });

  it('a bulk of one payment is still keyed payment:<id>:1, not as a single payment', () => {
    const one = storedPayment({ service: 'bulk-payments', body: { ...bulk.body, payments: [(bulk.body.payments as unknown[])[0]] } });
    expect(transfersOf(one, DATE).map((transfer) => transfer.idempotencyKey)).toEqual([`payment:${one.id}:1`]);
  });
});
