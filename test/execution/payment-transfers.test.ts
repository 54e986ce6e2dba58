/**
 * What the bank is handed to execute a stored payment (the port's instructions), pure:
 * - a single payment is one instruction without an item; a bulk is one instruction per payment, in
 *   order, items 1, 2, … so the bank executes each once however often it is submitted;
 * - each carries the payment's id, the debtor account, the execution date given, the instructed
 *   amount in exact minor units of its currency, the creditor's name and account as the payment
 *   names it (IBAN first, else BBAN);
 * - the statement text is the creditor's name and the KID or message: "Name: message";
 * - a single payment's quoted fee (a Straks payment's) goes with it; none with a fee of 0, none
 *   with a bulk's payments;
 * - a bulk with batchBookingPreferred true has every payment marked all-or-none.
 */
import { describe, expect, it } from 'vitest';
import { executesAllOrNone, instructionsOf } from '../../src/modules/execution/payment-transfers.js';
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

describe('instructionsOf a single payment', () => {
  it('is one instruction without an item, with the debtor, amount, creditor, execution date and statement text', () => {
    const payment = single({ remittanceInformationUnstructured: 'Kredittrente' });
    expect(instructionsOf(payment, DATE)).toEqual([
      {
        paymentId: payment.id,
        item: undefined,
        debtorAccountId: payment.debtorAccountId,
        amount: { minor: 10033n, currency: 'NOK' },
        creditorAccount: { bban: CREDITOR_BBAN },
        creditorName: 'Company 123',
        executionDate: DATE,
        description: 'Company 123: Kredittrente',
        fee: undefined,
      },
    ]);
  });

  it('executes on the date it is given', () => {
    expect(instructionsOf(single({}), '2027-01-04')[0]!.executionDate).toBe('2027-01-04');
  });

  it("carries a single payment's quoted fee (a Straks payment's), and none for a fee of 0", () => {
    const fee = { minor: 500n, currency: 'NOK' };
    expect(instructionsOf({ ...single({}), transactionFee: fee }, DATE)[0]!.fee).toEqual(fee);
    expect(instructionsOf({ ...single({}), transactionFee: { minor: 0n, currency: 'NOK' } }, DATE)[0]!.fee).toBeUndefined();
  });

  it.each([
    ['100', 'NOK', 10000n],
    ['0.01', 'NOK', 1n],
    ['1234567.5', 'EUR', 123456750n],
    ['100', 'JPY', 100n],
    ['1.005', 'KWD', 1005n],
  ])('the amount %s %s is %s minor units of that currency', (amount, currency, minor) => {
    const [transfer] = instructionsOf(single({ instructedAmount: { currency, amount } }), DATE);
    expect(transfer!.amount).toEqual({ minor, currency });
  });

  it('names the creditor by IBAN when the payment gives one (SEPA, cross-border)', () => {
    const [transfer] = instructionsOf(single({ creditorAccount: { iban: 'DE89370400440532013000' } }), DATE);
    expect(transfer!.creditorAccount).toEqual({ iban: 'DE89370400440532013000' });
  });

  it('prefers the IBAN when both are given', () => {
    const [transfer] = instructionsOf(single({ creditorAccount: { iban: CREDITOR_IBAN, bban: CREDITOR_BBAN } }), DATE);
    expect(transfer!.creditorAccount).toEqual({ iban: CREDITOR_IBAN });
  });

  it('has no creditor account when the payment names neither', () => {
    const [transfer] = instructionsOf(single({ creditorAccount: {} }), DATE);
    expect(transfer!.creditorAccount).toBeUndefined();
  });

  it('the statement text: the creditor name and the KID of a structured remittance', () => {
    const [transfer] = instructionsOf(single({ remittanceInformationStructuredArray: [{ reference: KID, referenceType: 'SCOR' }] }), DATE);
    expect(transfer!.description).toBe(`Company 123: ${KID}`);
  });

  it('the statement text without remittance information: the creditor name alone', () => {
    expect(instructionsOf(single({}), DATE)[0]!.description).toBe('Company 123');
  });

  it('the statement text keeps the KIDs of remittanceInformationStructuredArray (a payment carries either KIDs or a message)', () => {
    const second = '0000000000018';
    const [transfer] = instructionsOf(
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
    expect(() => instructionsOf(single({ instructedAmount: { currency: 'NOK', amount: '1.234' } }), DATE)).toThrow(/does not parse/);
  });
});

describe('instructionsOf a bulk payment', () => {
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
          remittanceInformationStructuredArray: [{ reference: KID, referenceType: 'SCOR' }],
        },
        {
          instructedAmount: { currency: 'NOK', amount: '112.83' },
          creditorAccount: { bban: '12345678903' },
          creditorName: 'Utleier',
        },
      ],
    },
  });

  it('is one instruction per payment, in order, items 1, 2, 3', () => {
    expect(instructionsOf(bulk, DATE).map((instruction) => [instruction.paymentId, instruction.item])).toEqual([
      [bulk.id, 1],
      [bulk.id, 2],
      [bulk.id, 3],
    ]);
  });

  it("each with its own amount, creditor and statement text, the bulk's debtor and execution date, and no fee", () => {
    const common = { paymentId: bulk.id, debtorAccountId: bulk.debtorAccountId, executionDate: DATE, fee: undefined };
    expect(instructionsOf({ ...bulk, transactionFee: { minor: 500n, currency: 'NOK' } }, DATE)).toEqual([
      {
        ...common,
        item: 1,
        amount: { minor: 25000n, currency: 'NOK' },
        creditorAccount: { bban: CREDITOR_BBAN },
        creditorName: 'Leverandør AS',
        description: 'Leverandør AS: Faktura 1',
      },
      {
        ...common,
        item: 2,
        amount: { minor: 1250n, currency: 'NOK' },
        creditorAccount: { iban: CREDITOR_IBAN },
        creditorName: 'Strøm AS',
        description: `Strøm AS: ${KID}`,
      },
      {
        ...common,
        item: 3,
        amount: { minor: 11283n, currency: 'NOK' },
        creditorAccount: { bban: '12345678903' },
        creditorName: 'Utleier',
        description: 'Utleier',
      },
    ]);
  });

  it('marks every payment all-or-none when the bulk prefers one booking (batchBookingPreferred true), none otherwise', () => {
    const withFlag = (batchBookingPreferred: boolean | undefined) =>
      storedPayment({ service: 'bulk-payments', body: { ...bulk.body, batchBookingPreferred } });
    expect(instructionsOf(withFlag(true), DATE).map((instruction) => instruction.allOrNone)).toEqual([true, true, true]);
    expect(instructionsOf(withFlag(false), DATE).map((instruction) => instruction.allOrNone)).toEqual([undefined, undefined, undefined]);
    expect(instructionsOf(withFlag(undefined), DATE).map((instruction) => instruction.allOrNone)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(executesAllOrNone(withFlag(true))).toBe(true);
    expect(executesAllOrNone(withFlag(false))).toBe(false);
    expect(executesAllOrNone(single({}))).toBe(false);
  });

  it('a bulk of one payment is still item 1, not a single payment', () => {
    const one = storedPayment({ service: 'bulk-payments', body: { ...bulk.body, payments: [(bulk.body.payments as unknown[])[0]] } });
    expect(instructionsOf(one, DATE).map((instruction) => instruction.item)).toEqual([1]);
  });
});
