/**
 * The Straks fee information (docs/design.md §2b): `POST /v1/payments/instant-norwegian-domestic-
 * credit-transfers-straks/fee-information` answers the fee the bank charges for an instant payment,
 * refused as the Straks payment itself would be; the Straks payment's 201 and GET carry the same
 * Berlin Group `transactionFees` and `transactionFeeIndicator`. The sandbox bank prices by a list
 * each TPP may set through the mock-data API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  corporation,
  created,
  expectError,
  INDCTS,
  initiate,
  NDCT,
  ndctBody,
  pathOf,
  privatePsu,
  type Body,
  type Corporation,
  type Psu,
} from '../support/payments.js';
import { accountNumber } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FEE_INFORMATION = `/v1/payments/${INDCTS}/fee-information`;
const FEES = '/v1/sandbox/instant-payment-fees';

/** Asserts the fee answer's parts against the Berlin Group schemas they are named after. */
function expectFeeAnswer(body: any, currency: string, amount: string, indicator: boolean): void {
  expect({ transactionFees: body.transactionFees, transactionFeeIndicator: body.transactionFeeIndicator }).toEqual({
    transactionFees: { currency, amount },
    transactionFeeIndicator: indicator,
  });
  expectBerlinGroupSchema('amount', body.transactionFees);
  expectBerlinGroupSchema('transactionFeeIndicator', body.transactionFeeIndicator);
}

describe.each(DIALECTS)('Straks fee information (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let company: Corporation;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
    company = await corporation(server.client, '1000.00');
  });
  afterAll(() => server.close());

  const feeBody = (extra: Body = {}): Body => ({
    debtorAccount: { bban: psu.account.bban },
    instructedAmount: { currency: 'NOK', amount: '100.33' },
    creditorAccount: { bban: accountNumber().bban },
    ...extra,
  });
  const askFee = (body: unknown, headers: Record<string, string> = psu.headers, client: TppClient = server.client) =>
    client.post<any>(FEE_INFORMATION, body, { headers });

  describe('the sandbox’s default price list', () => {
    it.each([
      ['100.33', '5.00'],
      ['99999.99', '5.00'],
      ['100000.00', '10.00'],
    ])('prices %s NOK at %s NOK, transactionFeeIndicator true', async (amount, fee) => {
      const response = await askFee(feeBody({ instructedAmount: { currency: 'NOK', amount } }));
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ transactionFees: { currency: 'NOK', amount: fee }, transactionFeeIndicator: true });
      expectFeeAnswer(response.body, 'NOK', fee, true);
    });

    it('takes the amount as `amount` too, and the accounts by IBAN', async () => {
      const creditor = accountNumber();
      const response = await askFee({
        debtorAccount: { iban: psu.account.iban },
        amount: { currency: 'NOK', amount: '250.00' },
        creditorAccount: { iban: creditor.iban },
      });
      expect(response.status, response.text).toBe(200);
      expectFeeAnswer(response.body, 'NOK', '5.00', true);
    });

    it('is answered without PSU-ID too: nobody is named whose right to pay must be checked', async () => {
      const response = await askFee(feeBody(), {});
      expect(response.status, response.text).toBe(200);
      expectFeeAnswer(response.body, 'NOK', '5.00', true);
    });
  });

  describe('refused as the Straks payment would be', () => {
    /** The same fields in a Straks payment's body, to compare the two answers. */
    const paymentBody = (fee: Body): Body => {
      const { amount, ...rest } = fee;
      return ndctBody(psu.account, { ...rest, ...(amount === undefined ? {} : { instructedAmount: amount }) });
    };

    it.each<[string, () => Body, Record<string, string> | undefined, number, string, string | undefined]>([
      [
        'a debtor BBAN failing MOD11',
        () => feeBody({ debtorAccount: { bban: '12345678901' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'debtorAccount.bban',
      ],
      [
        'a debtor account of no bank customer',
        () => feeBody({ debtorAccount: accountNumber() }),
        undefined,
        400,
        'PAYMENT_FAILED',
        'debtorAccount',
      ],
      [
        'a debtor currency other than the account’s',
        () => feeBody({ debtorAccount: { bban: psu.account.bban, currency: 'EUR' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'debtorAccount.currency',
      ],
      [
        'an amount in EUR',
        () => feeBody({ instructedAmount: { currency: 'EUR', amount: '1.00' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'instructedAmount.currency',
      ],
      [
        'a zero amount',
        () => feeBody({ instructedAmount: { currency: 'NOK', amount: '0.00' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'instructedAmount.amount',
      ],
      [
        'an amount with three decimals',
        () => feeBody({ instructedAmount: { currency: 'NOK', amount: '1.001' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'instructedAmount.amount',
      ],
      [
        'an amount as a JSON number',
        () => feeBody({ instructedAmount: { currency: 'NOK', amount: 1 } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'instructedAmount.amount',
      ],
      [
        'a creditor BBAN failing MOD11',
        () => feeBody({ creditorAccount: { bban: '12345678901' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'creditorAccount.bban',
      ],
      [
        'a foreign creditor IBAN',
        () => feeBody({ creditorAccount: { iban: 'DE89370400440532013000' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'creditorAccount.iban',
      ],
      [
        'a creditor account in SEK',
        () => feeBody({ creditorAccount: { ...accountNumber(), currency: 'SEK' } }),
        undefined,
        400,
        'FORMAT_ERROR',
        'creditorAccount.currency',
      ],
      ['an unknown field', () => feeBody({ chargeBearr: 'SLEV' }), undefined, 400, 'FORMAT_ERROR', 'chargeBearr'],
    ])('%s', async (_name, body, headers, status, code, path) => {
      const sent = body();
      expectError(await askFee(sent, headers ?? psu.headers), status, code, path);
      const payment = await initiate(server.client, 'payments', INDCTS, paymentBody(sent), { headers: headers ?? psu.headers });
      expectError(payment, status, code, path);
    });

    it('refuses a PSU who may not pay from the account, as the payment does', async () => {
      const stranger = await privatePsu(server.client);
      expectError(await askFee(feeBody(), stranger.headers), 400, 'PAYMENT_FAILED', 'debtorAccount');
      const payment = await initiate(server.client, 'payments', INDCTS, ndctBody(psu.account), { headers: stranger.headers });
      expectError(payment, 400, 'PAYMENT_FAILED', 'debtorAccount');
    });

    it("refuses an amount above the corporate PSU's registration limit, and a corporate account without PSU-Corporate-ID", async () => {
      const body = feeBody({ debtorAccount: { bban: company.account.bban }, instructedAmount: { currency: 'NOK', amount: '1000.01' } });
      expectError(await askFee(body, company.registrar.headers), 400, 'PAYMENT_FAILED', 'instructedAmount');
      expectError(await askFee(body, { 'psu-id': company.registrar.customerNumber }), 400, 'FORMAT_ERROR', 'PSU-Corporate-ID');
      const within = feeBody({ debtorAccount: { bban: company.account.bban }, instructedAmount: { currency: 'NOK', amount: '1000.00' } });
      const response = await askFee(within, company.registrar.headers);
      expect(response.status, response.text).toBe(200);
    });

    it('refuses instructedAmount and amount together, and neither, with 400 FORMAT_ERROR', async () => {
      const both = feeBody({ amount: { currency: 'NOK', amount: '100.33' } });
      const together = await askFee(both);
      expectError(together, 400, 'FORMAT_ERROR', 'amount');
      expect(together.body.tppMessages[0].text).toContain('instructedAmount');
      const { instructedAmount: _dropped, ...neither } = feeBody();
      expectError(await askFee(neither), 400, 'FORMAT_ERROR', 'instructedAmount');
    });

    it('refuses a TPP without PSP_PI with 401 ROLE_INVALID', async () => {
      const reader = await server.newTpp('PSDNO-FSA-918273645', ['PSP_AI']);
      expectError(await askFee(feeBody(), {}, reader.client), 401, 'ROLE_INVALID');
    });

    it('refuses an unsigned request', async () => {
      const response = await server.anonymous.post<any>(FEE_INFORMATION, feeBody());
      expect(response.status, response.text).toBe(401);
    });
  });

  it('is in the served /openapi.json, with its body and answer', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, any> };
    const operation = document.paths[FEE_INFORMATION]?.post;
    expect(operation?.operationId).toBe('getInstantPaymentFeeInformation_INDCTS');
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['amount', 'creditorAccount', 'debtorAccount', 'instructedAmount']);
    const answer = operation.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties).sort()).toEqual(['transactionFeeIndicator', 'transactionFees']);
  });

  describe('the Straks payment', () => {
    it('answers the fee on its 201 and its GET, in Berlin Group shapes; an NDCT payment has none', async () => {
      const straks = await created(initiate(server.client, 'payments', INDCTS, ndctBody(psu.account), { headers: psu.headers }));
      expectFeeAnswer(straks.response.body, 'NOK', '5.00', true);
      expectBerlinGroupSchema('paymentInitiationRequestResponse-201', straks.response.body);
      const read = await server.client.get<any>(straks.path);
      expect(read.status, read.text).toBe(200);
      expectFeeAnswer(read.body, 'NOK', '5.00', true);
      expectBerlinGroupSchema('paymentInitiationWithStatusResponse', read.body);

      const ndct = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
      expect(ndct.response.body).not.toHaveProperty('transactionFees');
      expect(ndct.response.body).not.toHaveProperty('transactionFeeIndicator');
      const ndctRead = await server.client.get<any>(pathOf(String(ndct.response.headers.location)));
      expect(ndctRead.body).not.toHaveProperty('transactionFees');
    });
  });
});

describe.each(DIALECTS)('sandbox price list of instant payments (%s)', (dialect) => {
  let server: TestServer;
  let client: TppClient;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    client = (await server.newTpp('PSDNO-FSA-192837465')).client;
    psu = await privatePsu(client);
  });
  afterAll(() => server.close());

  const ask = async (amount: string) => {
    const response = await client.post<any>(
      FEE_INFORMATION,
      { debtorAccount: { bban: psu.account.bban }, instructedAmount: { currency: 'NOK', amount }, creditorAccount: accountNumber() },
      { headers: psu.headers },
    );
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  it('starts with the default list, is set per TPP, and answers what it set', async () => {
    const start = await client.get<any>(FEES);
    expect(start.body).toEqual({
      tiers: [
        { fromAmount: '0.00', fee: '5.00' },
        { fromAmount: '100000.00', fee: '10.00' },
      ],
    });
    const tiers = [
      { fromAmount: '0', fee: '0' },
      { fromAmount: '500.00', fee: '1.50' },
      { fromAmount: '20000', fee: '3.00' },
    ];
    const set = await client.put<any>(FEES, { tiers });
    expect(set.status, set.text).toBe(200);
    const written = {
      tiers: [
        { fromAmount: '0.00', fee: '0.00' },
        { fromAmount: '500.00', fee: '1.50' },
        { fromAmount: '20000.00', fee: '3.00' },
      ],
    };
    expect(set.body).toEqual(written);
    expect((await client.get<any>(FEES)).body).toEqual(written);

    expectFeeAnswer(await ask('499.99'), 'NOK', '0.00', false);
    expectFeeAnswer(await ask('500.00'), 'NOK', '1.50', true);
    expectFeeAnswer(await ask('20000.00'), 'NOK', '3.00', true);
    // Another TPP's sandbox keeps its own (default) list.
    expect((await server.client.get<any>(FEES)).body.tiers[0]).toEqual({ fromAmount: '0.00', fee: '5.00' });
  });

  it('keeps the fee quoted when a Straks payment was made, whatever the list says later', async () => {
    await client.put<any>(FEES, { tiers: [{ fromAmount: '0.00', fee: '7.00' }] });
    const straks = await created(initiate(client, 'payments', INDCTS, ndctBody(psu.account), { headers: psu.headers }));
    expectFeeAnswer(straks.response.body, 'NOK', '7.00', true);
    await client.put<any>(FEES, { tiers: [{ fromAmount: '0.00', fee: '9.00' }] });
    expectFeeAnswer((await client.get<any>(straks.path)).body, 'NOK', '7.00', true);
    expectFeeAnswer(await ask('100.00'), 'NOK', '9.00', true);
  });

  it.each<[string, unknown, string]>([
    ['no tier', { tiers: [] }, 'tiers'],
    ['a first tier not from 0', { tiers: [{ fromAmount: '1.00', fee: '1.00' }] }, 'tiers[0].fromAmount'],
    [
      'tiers not ascending',
      {
        tiers: [
          { fromAmount: '0.00', fee: '1.00' },
          { fromAmount: '0.00', fee: '2.00' },
        ],
      },
      'tiers[1].fromAmount',
    ],
    ['a negative fee', { tiers: [{ fromAmount: '0.00', fee: '-1.00' }] }, 'tiers[0].fee'],
    ['a fee with three decimals', { tiers: [{ fromAmount: '0.00', fee: '1.001' }] }, 'tiers[0].fee'],
    ['an unknown field', { tiers: [{ fromAmount: '0.00', fee: '1.00', currency: 'NOK' }] }, 'tiers[0].currency'],
  ])('refuses %s with 400 FORMAT_ERROR naming the field, changing nothing', async (_name, body, path) => {
    const before = (await client.get<any>(FEES)).body;
    expectError(await client.put<any>(FEES, body), 400, 'FORMAT_ERROR', path);
    expect((await client.get<any>(FEES)).body).toEqual(before);
  });

  it('goes back to the default list when the sandbox is initialized', async () => {
    await client.put<any>(FEES, { tiers: [{ fromAmount: '0.00', fee: '1.00' }] });
    const initialized = await client.post<any>('/v1/sandbox/initialize', {});
    expect(initialized.status, initialized.text).toBe(200);
    expect((await client.get<any>(FEES)).body.tiers[0]).toEqual({ fromAmount: '0.00', fee: '5.00' });
  });
});
