/**
 * The rules of a payment body (docs/design.md §2): amounts as strings within the currency's
 * minor units, ISO currencies and countries, Norwegian account numbers (MOD11, IBAN mod-97), the
 * product's currency and creditor fields, BICs, addresses in either spelling, KID (MOD10 or
 * MOD11) and the one-of-two remittance rule, field lengths, currency-register reporting for
 * NCBCT, and execution dates. Each refusal is a 400 naming the field in tppMessages[0].path and
 * creates nothing; each rule also has an acceptance next to it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  bulkItem,
  CBCT,
  crossBorderBody,
  expectError,
  germanIban,
  INDCTS,
  initiate,
  NCBCT,
  NDCT,
  ndctBody,
  paymentsOfRequest,
  privatePsu,
  SCT,
  sctBody,
  type Body,
  type Product,
  type Psu,
} from '../support/payments.js';
import { accountNumber, osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

type Build = (debtor: { bban: string }) => Body;
/** The IBAN registry's example of a Brazilian account: outside the SEPA schemes. */
const BRAZILIAN_IBAN = 'BR1800360305000010009795493C1';
const amount = (currency: string, value: unknown) => ({ instructedAmount: { currency, amount: value } });
const kids = (...references: string[]) => ({
  remittanceInformationUnstructured: undefined,
  remittanceInformationStructuredArray: references.map((reference) => ({ reference, referenceType: 'SCOR' })),
});

/** [what, product, body, status, wire code, path] */
const REFUSALS: [string, Product, Build, number, string, string][] = [
  // Amounts
  ['a numeric amount', NDCT, (d) => ndctBody(d, amount('NOK', 100.33)), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['NOK with three decimals', NDCT, (d) => ndctBody(d, amount('NOK', '1.234')), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['JPY with decimals', CBCT, (d) => crossBorderBody(d, amount('JPY', '100.5')), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['a zero amount', NDCT, (d) => ndctBody(d, amount('NOK', '0.00')), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['a negative amount', NDCT, (d) => ndctBody(d, amount('NOK', '-5.00')), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['an amount with a comma', NDCT, (d) => ndctBody(d, amount('NOK', '100,33')), 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
  ['an unknown currency', CBCT, (d) => crossBorderBody(d, amount('ABC', '10.00')), 400, 'FORMAT_ERROR', 'instructedAmount.currency'],
  ['NDCT in EUR', NDCT, (d) => ndctBody(d, amount('EUR', '10.00')), 400, 'FORMAT_ERROR', 'instructedAmount.currency'],
  ['INDCTS in SEK', INDCTS, (d) => ndctBody(d, amount('SEK', '10.00')), 400, 'FORMAT_ERROR', 'instructedAmount.currency'],
  ['SCT in NOK', SCT, (d) => sctBody(d, amount('NOK', '10.00')), 400, 'FORMAT_ERROR', 'instructedAmount.currency'],
  // Accounts
  [
    'a BBAN with a wrong MOD11 check digit',
    NDCT,
    (d) => ndctBody(d, { creditorAccount: { bban: '86011117948' } }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.bban',
  ],
  [
    'an IBAN with wrong check digits',
    NDCT,
    (d) => ndctBody(d, { creditorAccount: { iban: 'NO9386011117948' } }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.iban',
  ],
  [
    'a bban and an iban naming different accounts',
    NDCT,
    (d) => ndctBody(d, { creditorAccount: { bban: accountNumber().bban, iban: 'NO9386011117947' } }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.iban',
  ],
  ['a debtor BBAN with a wrong check digit', NDCT, () => ndctBody({ bban: '86011117948' }), 400, 'FORMAT_ERROR', 'debtorAccount.bban'],
  [
    'a foreign IBAN on a domestic product',
    NDCT,
    (d) => ndctBody(d, { creditorAccount: { iban: germanIban() } }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.iban',
  ],
  [
    'an SCT creditor without iban',
    SCT,
    (d) => sctBody(d, { creditorAccount: { bban: accountNumber().bban } }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.iban',
  ],
  // An SCT reaches only the SEPA schemes' countries (EPC409-09).
  [
    'an SCT to a Brazilian IBAN',
    SCT,
    (d) => sctBody(d, { ...amount('EUR', '80.08'), creditorAccount: { iban: BRAZILIAN_IBAN }, creditorName: 'Muster GmbH' }),
    400,
    'FORMAT_ERROR',
    'creditorAccount.iban',
  ],
  // Creditor agent and address
  ['the published BIC "AAA100"', NCBCT, (d) => crossBorderBody(d, { creditorAgent: 'AAA100' }), 400, 'FORMAT_ERROR', 'creditorAgent'],
  ['a lower-case BIC', CBCT, (d) => crossBorderBody(d, { creditorAgent: 'essesess' }), 400, 'FORMAT_ERROR', 'creditorAgent'],
  ['an NCBCT without creditorAgent', NCBCT, (d) => crossBorderBody(d, { creditorAgent: undefined }), 400, 'FORMAT_ERROR', 'creditorAgent'],
  [
    'an NCBCT without creditorAddress',
    NCBCT,
    (d) => crossBorderBody(d, { creditorAddress: undefined }),
    400,
    'FORMAT_ERROR',
    'creditorAddress',
  ],
  [
    'an NCBCT address without city',
    NCBCT,
    (d) => crossBorderBody(d, { creditorAddress: { street: 'Kungsgatan', country: 'SE' } }),
    400,
    'FORMAT_ERROR',
    'creditorAddress.city',
  ],
  [
    'an NDCT address with city and townName naming different towns',
    NDCT,
    (d) => ndctBody(d, { creditorAddress: { city: 'Oslo', townName: 'Bergen', country: 'NO' } }),
    400,
    'FORMAT_ERROR',
    'creditorAddress.townName',
  ],
  [
    'a country code not in ISO 3166',
    NDCT,
    (d) => ndctBody(d, { creditorAddress: { townName: 'Oslo', country: 'XX' } }),
    400,
    'FORMAT_ERROR',
    'creditorAddress.country',
  ],
  [
    'a cross-border country code not in ISO 3166',
    CBCT,
    (d) => crossBorderBody(d, { creditorAddress: { city: 'Nowhere', country: 'XX' } }),
    400,
    'FORMAT_ERROR',
    'creditorAddress.country',
  ],
  // Remittance
  [
    'a KID that fails MOD10 and MOD11',
    NDCT,
    (d) => ndctBody(d, kids('99754667145676221')),
    400,
    'FORMAT_ERROR',
    'remittanceInformationStructuredArray[0].reference',
  ],
  [
    'a KID in remittanceInformationStructured that fails',
    NDCT,
    (d) => ndctBody(d, { remittanceInformationUnstructured: undefined, remittanceInformationStructured: { reference: '12345' } }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationStructured.reference',
  ],
  [
    'structured and unstructured remittance together',
    NDCT,
    (d) => ndctBody(d, { remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }] }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationStructuredArray',
  ],
  [
    'remittanceInformationStructured and unstructured together',
    SCT,
    (d) => sctBody(d, { remittanceInformationStructured: { reference: '12344' } }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationStructured',
  ],
  [
    'a misspelt referencType',
    NDCT,
    (d) =>
      ndctBody(d, {
        remittanceInformationUnstructured: undefined,
        remittanceInformationStructuredArray: [
          { reference: '12344', referenceType: 'SCOR' },
          { reference: '33523568', referencType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
        ],
      }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationStructuredArray[1].referencType',
  ],
  // Lengths
  ['a creditorName of 71 characters', NDCT, (d) => ndctBody(d, { creditorName: 'N'.repeat(71) }), 400, 'FORMAT_ERROR', 'creditorName'],
  [
    'a remittanceInformationUnstructured of 141 characters',
    NDCT,
    (d) => ndctBody(d, { remittanceInformationUnstructured: 'R'.repeat(141) }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationUnstructured',
  ],
  [
    'an endToEndIdentification of 36 characters',
    NDCT,
    (d) => ndctBody(d, { endToEndIdentification: 'E'.repeat(36) }),
    400,
    'FORMAT_ERROR',
    'endToEndIdentification',
  ],
  ['an unknown field', NDCT, (d) => ndctBody(d, { creditorNickname: 'Bob' }), 400, 'FORMAT_ERROR', 'creditorNickname'],
  ['a missing creditorName', NDCT, (d) => ndctBody(d, { creditorName: undefined }), 400, 'FORMAT_ERROR', 'creditorName'],
  ['a creditorName of spaces only', NDCT, (d) => ndctBody(d, { creditorName: '   ' }), 400, 'FORMAT_ERROR', 'creditorName'],
  [
    'a creditorName with a control character',
    NDCT,
    (d) => ndctBody(d, { creditorName: 'Kari\u0007Nordmann' }),
    400,
    'FORMAT_ERROR',
    'creditorName',
  ],
  [
    'a remittance message with a line break',
    NDCT,
    (d) => ndctBody(d, { remittanceInformationUnstructured: 'Faktura\n123' }),
    400,
    'FORMAT_ERROR',
    'remittanceInformationUnstructured',
  ],
  // Currency-register reporting (NCBCT)
  [
    'a regulatoryReportingCode not in the register list',
    NCBCT,
    (d) => crossBorderBody(d, { regulatoryReportingCode: '99', regulatoryReportingInformation: 'Rent' }),
    400,
    'FORMAT_ERROR',
    'regulatoryReportingCode',
  ],
  [
    'NOK 100 000.00 without code and information',
    NCBCT,
    (d) => crossBorderBody(d, amount('NOK', '100000.00')),
    400,
    'FORMAT_ERROR',
    'regulatoryReportingCode',
  ],
  [
    'EUR 10 000.00 (over NOK 100 000 at the default rate) without code and information',
    NCBCT,
    (d) => crossBorderBody(d, amount('EUR', '10000.00')),
    400,
    'FORMAT_ERROR',
    'regulatoryReportingCode',
  ],
  [
    'a code without information',
    NCBCT,
    (d) => crossBorderBody(d, { regulatoryReportingCode: '26' }),
    400,
    'FORMAT_ERROR',
    'regulatoryReportingInformation',
  ],
  [
    'a regulatoryReportingAmount larger than the instructed amount',
    NCBCT,
    (d) =>
      crossBorderBody(d, {
        regulatoryReportingCode: '26',
        regulatoryReportingInformation: 'Rent',
        regulatoryReportingAmount: { currency: 'SEK', amount: '100.34' },
      }),
    400,
    'FORMAT_ERROR',
    'regulatoryReportingAmount',
  ],
  // Dates
  [
    'a requestedExecutionDate yesterday',
    NDCT,
    (d) => ndctBody(d, { requestedExecutionDate: osloDay(-1) }),
    400,
    'EXECUTION_DATE_INVALID',
    'requestedExecutionDate',
  ],
  [
    'a requestedExecutionDate 400 days ahead',
    NDCT,
    (d) => ndctBody(d, { requestedExecutionDate: osloDay(400) }),
    400,
    'EXECUTION_DATE_INVALID',
    'requestedExecutionDate',
  ],
  [
    'the date 2026-02-30',
    NDCT,
    (d) => ndctBody(d, { requestedExecutionDate: '2026-02-30' }),
    400,
    'FORMAT_ERROR',
    'requestedExecutionDate',
  ],
  [
    'an INDCTS dated tomorrow',
    INDCTS,
    (d) => ndctBody(d, { requestedExecutionDate: osloDay(1) }),
    400,
    'EXECUTION_DATE_INVALID',
    'requestedExecutionDate',
  ],
];

/** [what, product, body] — each answered 201. */
const ACCEPTANCES: [string, Product, Build][] = [
  ['an amount without decimals', NDCT, (d) => ndctBody(d, amount('NOK', '100'))],
  ['JPY without decimals', CBCT, (d) => crossBorderBody(d, amount('JPY', '15000'))],
  ['a creditor by NO IBAN', NDCT, (d) => ndctBody(d, { creditorAccount: { iban: 'NO9386011117947' } })],
  [
    'a creditor by bban and the same account as iban',
    NDCT,
    (d) => ndctBody(d, { ...amount('NOK', '200.00'), creditorAccount: { bban: '86011117947', iban: 'NO9386011117947' } }),
  ],
  ['a KID passing MOD10 (12344)', NDCT, (d) => ndctBody(d, kids('12344'))],
  ['a KID passing MOD11 (12343)', NDCT, (d) => ndctBody(d, kids('12343'))],
  ['a KID with MOD11 check "-" (1000005-)', INDCTS, (d) => ndctBody(d, kids('1000005-'))],
  [
    'a KID and an invoice reference with referenceType spelled right',
    NDCT,
    (d) =>
      ndctBody(d, {
        remittanceInformationUnstructured: undefined,
        remittanceInformationStructuredArray: [
          { reference: '12344', referenceType: 'SCOR' },
          { reference: '33523568', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
        ],
      }),
  ],
  [
    'a domestic address with streetName, postCode and townName',
    NDCT,
    (d) =>
      ndctBody(d, { creditorAddress: { streetName: 'Storgata', buildingNumber: '1', postCode: '0155', townName: 'Oslo', country: 'NO' } }),
  ],
  [
    'a domestic address with street, postalCode and city',
    NDCT,
    (d) => ndctBody(d, { creditorAddress: { street: 'Storgata', buildingNumber: '1', postalCode: '0155', city: 'Oslo', country: 'NO' } }),
  ],
  ['a creditorName of 70 characters', NDCT, (d) => ndctBody(d, { creditorName: 'N'.repeat(70) })],
  [
    'a remittanceInformationUnstructured of 140 characters',
    NDCT,
    (d) => ndctBody(d, { remittanceInformationUnstructured: 'R'.repeat(140) }),
  ],
  ['an endToEndIdentification of 35 characters', NDCT, (d) => ndctBody(d, { endToEndIdentification: 'E'.repeat(35) })],
  ['a valid BIC DNBANOKKXXX', NCBCT, (d) => crossBorderBody(d, { creditorAgent: 'DNBANOKKXXX' })],
  [
    'regulatory reporting code "26" with information',
    NCBCT,
    (d) => crossBorderBody(d, { regulatoryReportingCode: '26', regulatoryReportingInformation: 'Rent for skiapartment' }),
  ],
  ['NOK 99 999.99 without code and information', NCBCT, (d) => crossBorderBody(d, amount('NOK', '99999.99'))],
  [
    'NOK 100 000.00 with code, information and a regulatoryReportingAmount equal to it',
    NCBCT,
    (d) =>
      crossBorderBody(d, {
        ...amount('NOK', '100000.00'),
        regulatoryReportingCode: '14',
        regulatoryReportingInformation: 'Goods',
        regulatoryReportingAmount: { currency: 'NOK', amount: '100000.00' },
      }),
  ],
  ['EUR 10 000.00 on CBCT, where reporting is not required', CBCT, (d) => crossBorderBody(d, amount('EUR', '10000.00'))],
  [
    'SCT with the regulatory reporting fields',
    SCT,
    (d) => sctBody(d, { regulatoryReportingCode: '29', regulatoryReportingInformation: 'Consulting', creditorAgent: 'COBADEFFXXX' }),
  ],
  ['SCT to a creditor IBAN', SCT, (d) => sctBody(d, { creditorAccount: { iban: 'DE89370400440532013000', currency: 'EUR' } })],
  ['SCT to a Swiss IBAN', SCT, (d) => sctBody(d, { creditorAccount: { iban: 'CH9300762011623852957' } })],
  ['SCT to a British IBAN', SCT, (d) => sctBody(d, { creditorAccount: { iban: 'GB29NWBK60161331926819' } })],
  ['CBCT to a Brazilian IBAN, which SCT cannot reach', CBCT, (d) => crossBorderBody(d, { creditorAccount: { iban: BRAZILIAN_IBAN } })],
  ['a requestedExecutionDate today', NDCT, (d) => ndctBody(d, { requestedExecutionDate: osloDay(0) })],
  ['a requestedExecutionDate 365 days ahead', NDCT, (d) => ndctBody(d, { requestedExecutionDate: osloDay(365) })],
  ['an INDCTS dated today', INDCTS, (d) => ndctBody(d, { requestedExecutionDate: osloDay(0) })],
];

describe.each(DIALECTS)('payment body rules (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it.each(REFUSALS)('refuses %s (%s), naming the field, and creates nothing', async (_, product, build, status, code, path) => {
    const requestId = randomUUID();
    const response = await initiate(server.client, 'payments', product, build(psu.account), { headers: psu.headers, requestId });
    expectError(response, status, code, path);
    expectBerlinGroupSchema('Error400_NG_PIS', { tppMessages: response.body.tppMessages });
    expect(response.body.message).toContain(path);
    expect(await paymentsOfRequest(server, requestId)).toEqual([]);
  });

  it.each(ACCEPTANCES)('accepts %s (%s)', async (_, product, build) => {
    const response = await initiate(server.client, 'payments', product, build(psu.account), { headers: psu.headers });
    expect(response.status, response.text).toBe(201);
    expect(response.body.transactionStatus).toBe('RCVD');
  });

  it('says why an SCT to a Brazilian IBAN is refused, in English and in Bokmål', async () => {
    const body = sctBody(psu.account, { creditorAccount: { iban: BRAZILIAN_IBAN } });
    const english = await initiate(server.client, 'payments', SCT, body, { headers: psu.headers });
    expect(english.body.tppMessages[0].text).toContain('is an account in BR, outside the countries of the SEPA schemes');
    const bokmal = await initiate(server.client, 'payments', SCT, body, { headers: { ...psu.headers, 'Accept-Language': 'nb' } });
    expect(bokmal.body.tppMessages[0].text).toContain('er en konto i BR, utenfor landene i SEPA-ordningene');
  });

  it('refuses a payment body that is not an object, and an empty body, with 400 FORMAT_ERROR', async () => {
    expectError(await initiate(server.client, 'payments', NDCT, [1, 2], { headers: psu.headers }), 400, 'FORMAT_ERROR', 'body');
    expectError(await initiate(server.client, 'payments', NDCT, {}, { headers: psu.headers }), 400, 'FORMAT_ERROR', 'debtorAccount');
  });

  describe('bulk payments', () => {
    const bulk = (extra: Body, requestId?: string) =>
      initiate(server.client, 'bulk-payments', NDCT, bulkBody(psu.account, extra), { headers: psu.headers, requestId });
    const items = (count: number, amount: string) =>
      Array.from({ length: count }, () =>
        bulkItem({ instructedAmount: { currency: 'NOK', amount }, remittanceInformationUnstructured: undefined }),
      );

    it.each([
      [
        'a wrong check digit in the second payment',
        [bulkItem(), bulkItem({ creditorAccount: { bban: '86011117948' } })],
        'payments[1].creditorAccount.bban',
      ],
      [
        'EUR in the second payment',
        [bulkItem(), bulkItem({ instructedAmount: { currency: 'EUR', amount: '1.00' } })],
        'payments[1].instructedAmount.currency',
      ],
      [
        'an invalid KID in the first payment',
        [bulkItem({ remittanceInformationUnstructured: undefined, remittanceInformationStructured: { reference: '12345' } })],
        'payments[0].remittanceInformationStructured.reference',
      ],
      ['a debtorAccount inside a payment', [bulkItem({ debtorAccount: { bban: '86011117947' } })], 'payments[0].debtorAccount'],
      ['no payments', [], 'payments'],
    ])('refuses a bulk with %s, naming the payment by its index', async (_, payments, path) => {
      expectError(await bulk({ payments }), 400, 'FORMAT_ERROR', path);
    });

    it('refuses a bulk dated yesterday with 400 EXECUTION_DATE_INVALID', async () => {
      expectError(await bulk({ requestedExecutionDate: osloDay(-1) }), 400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate');
    });

    it('accepts a bulk of 1000 payments and refuses one of 1001 at payments', async () => {
      const accepted = await bulk({ payments: items(1000, '1.00') });
      expect(accepted.status, accepted.text).toBe(201);
      expectError(await bulk({ payments: items(1001, '1.00') }), 400, 'FORMAT_ERROR', 'payments');
    });

    it('refuses a bulk whose total does not fit an amount (1000 × NOK 99 999 999 999 999.99) with 400, never 500', async () => {
      const requestId = randomUUID();
      const response = await bulk({ payments: items(1000, '99999999999999.99') }, requestId);
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe('FORMAT_ERROR');
      expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    });
  });
});
