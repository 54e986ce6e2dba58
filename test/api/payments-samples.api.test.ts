/**
 * The sample bodies the bank's developer portal publishes (docs/design.md §2), sent as
 * published and then corrected one fault at a time. None of them can be sent as it stands: they
 * carry an invalid KID next to a free-text message, a misspelt field, a 6-character "BIC", IBANs
 * with spaces or too short, dates in 2018 and an account of another bank as debtor (their
 * addresses, in `street`, `postalCode` and `city`, are accepted as published on every product).
 * Each step asserts the exact refusal (status, wire code, path) the fault causes, so a TPP copying
 * the sample learns what to fix; the last step is a 201.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  CBCT,
  expectError,
  INDCTS,
  initiate,
  NCBCT,
  NDCT,
  privatePsu,
  SCT,
  type Body,
  type Psu,
  type Service,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The refusal a step expects: status, wire code and tppMessages[0].path. */
type Refusal = readonly [number, string, string];
/** A correction: what it fixes and why, the change, and what the bank answers after it. */
type Step = readonly [fix: string, change: (body: Body, psu: Psu) => Body, answer: Refusal | 'created'];

const clone = (body: Body): Body => JSON.parse(JSON.stringify(body)) as Body;
const without = (body: Body, field: string): Body => ({ ...body, [field]: undefined });
const debtor = (psu: Psu) => ({ bban: psu.account.bban, currency: 'NOK' });

/** §4.1 NDCT single payment, as published. */
const NDCT_SAMPLE: Body = {
  instructedAmount: { amount: '100.33', currency: 'NOK' },
  creditorName: 'Company 123',
  creditorAccount: { bban: '95360573002', currency: 'NOK' },
  creditorAddress: { country: 'NO' },
  debtorAccount: { bban: '95360573002', currency: 'NOK' },
  ultimateDebtor: 'Company CBA',
  remittanceInformationUnstructured: 'Kredittrente',
  remittanceInformationStructuredArray: [
    { reference: '99754667145676221', referenceType: 'SCOR' },
    { reference: '33523568', referencType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
  ],
  requestedExecutionDate: '2018-06-07',
};

/** §4.2 INDCTS (Straks), the minimal sample. */
const INDCTS_SAMPLE: Body = {
  instructedAmount: { amount: '100.33', currency: 'NOK' },
  creditorName: 'Company 123',
  creditorAccount: { bban: '95360573002', currency: 'NOK' },
  creditorAddress: { country: 'NO' },
  debtorAccount: { bban: '95360573002', currency: 'NOK' },
};

/** §4.3 NCBCT, as published (no regulatoryReportingAmount). */
const NCBCT_SAMPLE: Body = {
  instructedAmount: { amount: '100.33', currency: 'SEK' },
  creditorName: 'Company 123',
  creditorAgent: 'AAA100',
  creditorAccount: { bban: '95360573002', currency: 'SEK' },
  creditorAddress: { street: 'Street', buildingNumber: '56', postalCode: '7014', city: 'Trondheim', country: 'NO' },
  debtorAccount: { bban: '95360573002', currency: 'NOK' },
  regulatoryReportingCode: '26',
  regulatoryReportingInformation: 'Rent for skiapartment',
};

/** §4.4 CBCT: the NCBCT sample without the regulatory fields. */
const CBCT_SAMPLE: Body = without(without(NCBCT_SAMPLE, 'regulatoryReportingCode'), 'regulatoryReportingInformation');

/** §4.5 SCT, with the sample's sloppy IBANs. */
const SCT_SAMPLE: Body = {
  instructedAmount: { amount: '100.33', currency: 'EUR' },
  creditorName: 'Company 123',
  creditorAccount: { iban: 'DE89 3704 0044 0532 0130 00', currency: 'EUR' },
  debtorAccount: { iban: 'NO95360573002', currency: 'NOK' },
};

/** §4.6 Bulk NDCT. */
const BULK_SAMPLE: Body = {
  paymentInformationId: 'some id',
  debtorAccount: { bban: '95360573002', currency: 'NOK' },
  requestedExecutionDate: '2018-06-07',
  payments: [
    {
      instructedAmount: { amount: '100.33', currency: 'NOK' },
      creditorName: 'Company 123',
      creditorAccount: { bban: '95360573002', currency: 'NOK' },
      creditorAddress: { street: 'Street', buildingNumber: '56', postalCode: '7014', city: 'Trondheim', country: 'NO' },
      ultimateDebtor: 'Company CBA',
      remittanceInformationUnstructured: 'Kredittrente',
      remittanceInformationStructuredArray: [{ reference: '99754667145676221', referenceType: 'SCOR' }],
    },
  ],
};

/** §4.7 Periodic NDCT. */
const PERIODIC_SAMPLE: Body = {
  instructedAmount: { amount: '100.23', currency: 'NOK' },
  creditorName: 'Company 123',
  creditorAccount: { bban: '95360573002', iban: 'NO0995360573002', currency: 'NOK' },
  creditorAddress: { street: 'Street', buildingNumber: '56', postalCode: '7014', city: 'Trondheim', country: 'NO' },
  debtorAccount: { bban: '95360573002', iban: 'NO0995360573002', currency: 'NOK' },
  ultimateDebtor: 'Company CBA',
  remittanceInformationUnstructured: 'Kredittrente',
  startDate: '2018-06-07',
  executionRule: 'preceeding',
  endDate: '2020-06-07',
  frequency: 'Monthly',
  dayOfExecution: '12',
};

/** The published debtor 95360573002 is a valid account number, but of another bank: never of this sandbox. */
const NOT_OUR_ACCOUNT: Refusal = [400, 'PAYMENT_FAILED', 'debtorAccount'];

describe.each(DIALECTS)('the published sample bodies (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  /** Sends the sample as published, then after each correction in turn; returns the created payment's path. */
  async function walk(service: Service, product: string, published: Body, refusal: Refusal, steps: readonly Step[]): Promise<string> {
    const psu = await privatePsu(server.client);
    let body = clone(published);
    let response = await initiate(server.client, service, product, body, { headers: psu.headers });
    expect(response.status, `as published: ${response.text}`).toBe(refusal[0]);
    expectError(response, ...refusal);
    expectBerlinGroupSchema('Error400_NG_PIS', { tppMessages: response.body.tppMessages });
    // A clear message: the field's name in it whenever the body is at fault.
    if (refusal[1] === 'FORMAT_ERROR') expect(response.body.message).toContain(refusal[2]);
    for (const [fix, change, answer] of steps) {
      body = change(clone(body), psu);
      response = await initiate(server.client, service, product, body, { headers: psu.headers });
      if (answer === 'created') {
        expect(response.status, `after "${fix}": ${response.text}`).toBe(201);
      } else {
        expect({ status: response.status, path: response.body.tppMessages?.[0]?.path }, `after "${fix}": ${response.text}`).toEqual({
          status: answer[0],
          path: answer[2],
        });
        expectError(response, ...answer);
      }
    }
    expect(response.status).toBe(201);
    return new URL(String(response.headers.location)).pathname;
  }

  // 4.1: the sample misspells referenceType (an unknown field is refused, never ignored), sends a
  // KID and a free-text message together (a payment carries one or the other), and its KID
  // 99754667145676221 passes neither MOD10 nor MOD11. 12344 is a valid MOD10 KID. The 2018 date
  // and the debtor account of another bank are replaced by a date a week ahead and a sandbox account.
  it('4.1 NDCT: refused for the misspelt referencType, then the remittance conflict and the KID; corrected, 201', async () => {
    await walk(
      'payments',
      NDCT,
      NDCT_SAMPLE,
      [400, 'FORMAT_ERROR', 'remittanceInformationStructuredArray[1].referencType'],
      [
        [
          'referencType spelled referenceType',
          (b) => ({
            ...b,
            remittanceInformationStructuredArray: [
              { reference: '99754667145676221', referenceType: 'SCOR' },
              { reference: '33523568', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
            ],
          }),
          [400, 'FORMAT_ERROR', 'remittanceInformationStructuredArray'],
        ],
        [
          'the free-text message dropped: the KID carries the reference',
          (b) => without(b, 'remittanceInformationUnstructured'),
          [400, 'FORMAT_ERROR', 'remittanceInformationStructuredArray[0].reference'],
        ],
        [
          'a valid KID (12344, MOD10)',
          (b) => ({
            ...b,
            remittanceInformationStructuredArray: [
              { reference: '12344', referenceType: 'SCOR' },
              { reference: '33523568', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
            ],
          }),
          [400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate'],
        ],
        ['the 2018 date moved a week ahead', (b) => ({ ...b, requestedExecutionDate: osloDay(7) }), NOT_OUR_ACCOUNT],
        ['a sandbox account as debtor', (b, psu) => ({ ...b, debtorAccount: debtor(psu) }), 'created'],
      ],
    );
  });

  // 4.2: the minimal Straks sample is well formed; only its debtor account is not one of this
  // bank's. With a sandbox account it is created (same-day, no date needed).
  it('4.2 INDCTS: refused because the debtor is not an account of this bank; with a sandbox account, 201', async () => {
    await walk('payments', INDCTS, INDCTS_SAMPLE, NOT_OUR_ACCOUNT, [
      ['a sandbox account as debtor', (b, psu) => ({ ...b, debtorAccount: debtor(psu) }), 'created'],
    ]);
  });

  // 4.3: "AAA100" is 6 characters; a BIC (ISO 9362) has 8 or 11, e.g. ESSESESS for a SEK account
  // at SEB. The regulatory fields ("26", rent) are valid as published.
  it('4.3 NCBCT: refused for the creditorAgent "AAA100"; with a valid BIC and a sandbox debtor, 201', async () => {
    await walk(
      'payments',
      NCBCT,
      NCBCT_SAMPLE,
      [400, 'FORMAT_ERROR', 'creditorAgent'],
      [
        ['a valid BIC (ESSESESS)', (b) => ({ ...b, creditorAgent: 'ESSESESS' }), NOT_OUR_ACCOUNT],
        ['a sandbox account as debtor', (b, psu) => ({ ...b, debtorAccount: debtor(psu) }), 'created'],
      ],
    );
  });

  // 4.4: the same "AAA100" as 4.3; corrected the same way.
  it('4.4 CBCT: refused for the creditorAgent "AAA100"; with a valid BIC and a sandbox debtor, 201', async () => {
    await walk(
      'payments',
      CBCT,
      CBCT_SAMPLE,
      [400, 'FORMAT_ERROR', 'creditorAgent'],
      [
        ['a valid BIC (DNBANOKKXXX)', (b) => ({ ...b, creditorAgent: 'DNBANOKKXXX' }), NOT_OUR_ACCOUNT],
        ['a sandbox account as debtor', (b, psu) => ({ ...b, debtorAccount: debtor(psu) }), 'created'],
      ],
    );
  });

  // 4.5: the debtor IBAN "NO95360573002" has 13 characters (a Norwegian IBAN has 15), so it is
  // refused first; replaced by the sandbox account's IBAN, the creditor IBAN is refused for its
  // spaces (the paper format); written without them it is the valid DE89370400440532013000.
  it('4.5 SCT: refused for the short debtor IBAN, then the creditor IBAN with spaces; corrected, 201', async () => {
    await walk(
      'payments',
      SCT,
      SCT_SAMPLE,
      [400, 'FORMAT_ERROR', 'debtorAccount.iban'],
      [
        [
          "the sandbox account's IBAN as debtor",
          (b, psu) => ({ ...b, debtorAccount: { iban: psu.account.iban, currency: 'NOK' } }),
          [400, 'FORMAT_ERROR', 'creditorAccount.iban'],
        ],
        [
          'the creditor IBAN without spaces',
          (b) => ({ ...b, creditorAccount: { iban: 'DE89370400440532013000', currency: 'EUR' } }),
          'created',
        ],
      ],
    );
  });

  // 4.6: the bulk's payment address (street, postalCode, city) is accepted as published; its 2018
  // date is past; it sends the KID and a message together, and the KID is invalid. Corrected like
  // 4.1 and 4.7.
  it('4.6 bulk NDCT: refused for the date, the KID/message conflict and the KID; corrected, 201', async () => {
    const item = (b: Body) => (b['payments'] as Body[])[0]!;
    const withItem = (b: Body, change: Body) => ({ ...b, payments: [{ ...item(b), ...change }] });
    await walk(
      'bulk-payments',
      NDCT,
      BULK_SAMPLE,
      [400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate'],
      [
        [
          'the 2018 date moved a week ahead',
          (b) => ({ ...b, requestedExecutionDate: osloDay(7) }),
          [400, 'FORMAT_ERROR', 'payments[0].remittanceInformationStructuredArray'],
        ],
        [
          'the free-text message dropped: the KID carries the reference',
          (b) => withItem(b, { remittanceInformationUnstructured: undefined }),
          [400, 'FORMAT_ERROR', 'payments[0].remittanceInformationStructuredArray[0].reference'],
        ],
        [
          'a valid KID (12344, MOD10)',
          (b) => withItem(b, { remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }] }),
          NOT_OUR_ACCOUNT,
        ],
        ['a sandbox account as debtor', (b, psu) => ({ ...b, debtorAccount: debtor(psu) }), 'created'],
      ],
    );
  });

  // 4.7: the periodic sample's address (street, postalCode, city) is accepted as published and
  // read back in those names; its schedule (2018-06-07 to 2020-06-07) lies in the past;
  // "preceeding" is accepted as documented and read back as "preceding". The debtor (bban and its
  // IBAN) is replaced by a sandbox account.
  it('4.7 periodic NDCT: refused for the past startDate and endDate; corrected, 201', async () => {
    const path = await walk(
      'periodic-payments',
      NDCT,
      PERIODIC_SAMPLE,
      [400, 'EXECUTION_DATE_INVALID', 'startDate'],
      [
        ['startDate moved a week ahead', (b) => ({ ...b, startDate: osloDay(7) }), [400, 'FORMAT_ERROR', 'endDate']],
        ['endDate moved two years after it', (b) => ({ ...b, endDate: osloDay(7 + 730) }), NOT_OUR_ACCOUNT],
        [
          'a sandbox account as debtor (bban and its iban)',
          (b, psu) => ({ ...b, debtorAccount: { bban: psu.account.bban, iban: psu.account.iban, currency: 'NOK' } }),
          'created',
        ],
      ],
    );
    const read = await server.client.get<any>(path);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ executionRule: 'preceding', dayOfExecution: '12', frequency: 'Monthly', transactionStatus: 'RCVD' });
    expect(read.body.creditorAddress).toEqual(PERIODIC_SAMPLE['creditorAddress']);
  });
});
