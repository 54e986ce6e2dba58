/**
 * `/v1/sandbox/card-accounts` and their transactions: a card account has a masked PAN, a credit
 * limit and ledger balances (what is available adds the limit); a card transaction is booked when
 * it has a booking date (not before the purchase, not in the future) and pending otherwise; the
 * list filters by booking status and dates and pages with offset and limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { balancesOf, createCustomer, identityNumber, osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sandbox card accounts (%s)', (dialect) => {
  let server: TestServer;
  let holder: { customerNumber: string };
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    holder = await createCustomer(server.client);
  });
  afterAll(() => server.close());

  async function card(extra: Record<string, unknown> = {}) {
    const response = await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: holder.customerNumber, ...extra });
    expect(response.status).toBe(201);
    return response;
  }

  it('creates a card account: 201, Location, links, balances that include the credit limit', async () => {
    const response = await card({
      maskedPan: '525412******3241',
      name: 'Kari Mastercard',
      product: 'Mastercard Gold',
      creditLimit: { currency: 'NOK', amount: '50000' },
    });
    const { resourceId } = response.body;
    const self = `${server.config.publicUrl}/v1/sandbox/card-accounts/${resourceId}`;
    expect(response.headers.location).toBe(self);
    expect(response.body).toEqual({
      resourceId,
      customerNumber: holder.customerNumber,
      maskedPan: '525412******3241',
      name: 'Kari Mastercard',
      product: 'Mastercard Gold',
      currency: 'NOK',
      creditLimit: { currency: 'NOK', amount: '50000.00' },
      balances: [
        { balanceType: 'closingBooked', balanceAmount: { currency: 'NOK', amount: '0.00' }, creditLimitIncluded: false },
        { balanceType: 'expected', balanceAmount: { currency: 'NOK', amount: '0.00' }, creditLimitIncluded: false },
        { balanceType: 'interimAvailable', balanceAmount: { currency: 'NOK', amount: '50000.00' }, creditLimitIncluded: true },
      ],
      _links: { self: { href: self, verbs: ['GET', 'PATCH'] }, transactions: { href: `${self}/transactions`, verbs: ['GET', 'POST'] } },
    });
    expect((await server.client.get<any>(`/v1/sandbox/card-accounts/${resourceId}`)).body).toEqual(response.body);
  });

  it('generates a masked PAN when none is given', async () => {
    expect((await card()).body.maskedPan).toMatch(/^525412\*{6}[0-9]{4}$/);
  });

  it.each([
    [{ maskedPan: '5254123241' }, 'maskedPan', ''],
    [{ currency: 'ABC' }, 'currency', 'ABC'],
    [{ creditLimit: { currency: 'EUR', amount: '100.00' } }, 'creditLimit.currency', "account's currency NOK"],
    [{ creditLimit: { currency: 'NOK', amount: '-1.00' } }, 'creditLimit.amount', 'must not be negative'],
    [{ customerNumber: identityNumber() }, 'customerNumber', 'your sandbox does not have'],
  ])('refuses %j with 400 naming %s', async (extra, field, text) => {
    const before = (await server.client.get<any>('/v1/sandbox/card-accounts')).body;
    const response = await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: holder.customerNumber, ...extra });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: field }] });
    expect(response.body.message).toContain(text);
    expectBerlinGroupSchema('Error400_NG_AIS', response.body);
    expect((await server.client.get<any>('/v1/sandbox/card-accounts')).body).toEqual(before);
  });

  it("lists every card account with its own balances, as each card's GET shows them", async () => {
    const limited = (await card({ creditLimit: { currency: 'NOK', amount: '2000.00' } })).body;
    const purchase = await server.client.post(`/v1/sandbox/card-accounts/${limited.resourceId}/transactions`, {
      transactionDate: osloDay(-2),
      bookingDate: osloDay(-1),
      transactionAmount: { currency: 'NOK', amount: '-300.00' },
    });
    expect(purchase.status).toBe(201);
    const plain = (await card()).body;

    const listed = new Map<string, any>(
      (await server.client.get<any>('/v1/sandbox/card-accounts')).body.cardAccounts.map((item: any) => [item.resourceId, item]),
    );
    for (const id of [limited.resourceId, plain.resourceId]) {
      expect(listed.get(id)).toEqual((await server.client.get<any>(`/v1/sandbox/card-accounts/${id}`)).body);
    }
    expect(balancesOf(listed.get(limited.resourceId))).toMatchObject({ closingBooked: '-300.00', interimAvailable: '1700.00' });
    expect(balancesOf(listed.get(plain.resourceId))).toMatchObject({ closingBooked: '0.00', interimAvailable: '0.00' });
  });

  it('books purchases and keeps pending ones out of closingBooked', async () => {
    const { resourceId } = (await card({ creditLimit: { currency: 'NOK', amount: '10000.00' } })).body;
    const path = `/v1/sandbox/card-accounts/${resourceId}/transactions`;
    const booked = await server.client.post<any>(path, {
      transactionDate: osloDay(-3),
      bookingDate: osloDay(-2),
      transactionAmount: { currency: 'NOK', amount: '-1170.00' },
      originalAmount: { currency: 'EUR', amount: '100.00' },
      merchantCategoryCode: '5942',
      transactionDetails: 'Amazon EU S.a.r.l., Luxembourg',
    });
    expect(booked.status).toBe(201);
    const self = `${server.config.publicUrl}${path}/${booked.body.cardTransactionId}`;
    expect(booked.headers.location).toBe(self);
    expect(booked.body).toEqual({
      cardTransactionId: booked.body.cardTransactionId,
      transactionDate: osloDay(-3),
      bookingDate: osloDay(-2),
      transactionAmount: { currency: 'NOK', amount: '-1170.00' },
      originalAmount: { currency: 'EUR', amount: '100.00' },
      // No rate given: derived from the two amounts.
      currencyExchange: [
        { sourceCurrency: 'EUR', exchangeRate: '11.7', unitCurrency: 'EUR', targetCurrency: 'NOK', quotationDate: osloDay(-3) },
      ],
      merchantCategoryCode: '5942',
      maskedPAN: expect.stringMatching(/^525412/),
      transactionDetails: 'Amazon EU S.a.r.l., Luxembourg',
      _links: { self: { href: self, verbs: ['GET'] } },
    });
    // The whole cardTransaction schema does not compile in ajv (a phone pattern with an escape the
    // u flag refuses), so its amounts are checked against the standard's `amount`.
    expectBerlinGroupSchema('amount', booked.body.transactionAmount);
    expectBerlinGroupSchema('amount', booked.body.originalAmount);
    const pending = await server.client.post<any>(path, {
      transactionDate: osloDay(0),
      transactionAmount: { currency: 'NOK', amount: '-249.00' },
    });
    expect(pending.status).toBe(201);
    expect(pending.body.bookingDate).toBeUndefined();
    const account = await server.client.get<any>(`/v1/sandbox/card-accounts/${resourceId}`);
    expect(balancesOf(account.body)).toEqual({ closingBooked: '-1170.00', expected: '-1419.00', interimAvailable: '8581.00' });

    const report = await server.client.get<any>(path);
    expect(report.body.cardTransactions.booked.map((t: any) => t.cardTransactionId)).toEqual([booked.body.cardTransactionId]);
    expect(report.body.cardTransactions.pending.map((t: any) => t.cardTransactionId)).toEqual([pending.body.cardTransactionId]);
    expect((await server.client.get<any>(`${path}?bookingStatus=pending`)).body.cardTransactions.booked).toEqual([]);
    expect((await server.client.get<any>(`${path}?bookingStatus=booked`)).body.cardTransactions.pending).toEqual([]);
    expect((await server.client.get<any>(`${path}?dateTo=${osloDay(-1)}`)).body.cardTransactions.pending).toEqual([]);
    const paged = (await server.client.get<any>(`${path}?limit=1&offset=1`)).body.cardTransactions;
    expect([...paged.booked, ...paged.pending].map((t: any) => t.cardTransactionId)).toEqual([booked.body.cardTransactionId]);
    expect((await server.client.get<any>(`${path}/${pending.body.cardTransactionId}`)).body).toEqual(pending.body);
  });

  it.each([
    [
      { transactionDate: osloDay(1), transactionAmount: { currency: 'NOK', amount: '-1.00' } },
      'transactionDate',
      'must not be in the future',
    ],
    [
      { transactionDate: osloDay(-1), bookingDate: osloDay(1), transactionAmount: { currency: 'NOK', amount: '-1.00' } },
      'bookingDate',
      'must not be in the future',
    ],
    [
      { transactionDate: osloDay(-1), bookingDate: osloDay(-2), transactionAmount: { currency: 'NOK', amount: '-1.00' } },
      'bookingDate',
      'must not be before transactionDate',
    ],
    [
      { transactionDate: osloDay(-1), transactionAmount: { currency: 'SEK', amount: '-1.00' } },
      'transactionAmount.currency',
      "account's currency NOK",
    ],
    [{ transactionDate: osloDay(-1), transactionAmount: { currency: 'NOK', amount: '0' } }, 'transactionAmount.amount', 'must not be zero'],
    [
      {
        transactionDate: osloDay(-1),
        transactionAmount: { currency: 'NOK', amount: '-1.00' },
        originalAmount: { currency: 'JPY', amount: '1.5' },
      },
      'originalAmount.amount',
      'JPY has no decimals',
    ],
    [
      { transactionDate: osloDay(-1), transactionAmount: { currency: 'NOK', amount: '-1.00' }, merchantCategoryCode: 'BOB' },
      'merchantCategoryCode',
      '',
    ],
  ])('refuses %j with 400 naming %s', async (body, field, text) => {
    const { resourceId } = (await card()).body;
    const response = await server.client.post<any>(`/v1/sandbox/card-accounts/${resourceId}/transactions`, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: field }] });
    expect(response.body.message).toContain(text);
    const report = (await server.client.get<any>(`/v1/sandbox/card-accounts/${resourceId}/transactions`)).body.cardTransactions;
    expect([...report.booked, ...report.pending]).toEqual([]);
  });

  it.each(['bookingStatus=all', 'limit=0', 'offset=-1', 'offset=1e308', 'offset=999999999999999999999', 'dateFrom=yesterday'])(
    'refuses the query %s with 400',
    async (query) => {
      const { resourceId } = (await card()).body;
      const response = await server.client.get<any>(`/v1/sandbox/card-accounts/${resourceId}/transactions?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.tppMessages[0].path).toBe(query.split('=')[0]);
    },
  );

  it('answers unknown card accounts and transactions with 404', async () => {
    expect((await server.client.get('/v1/sandbox/card-accounts/nope')).status).toBe(404);
    expect(
      (
        await server.client.post('/v1/sandbox/card-accounts/nope/transactions', {
          transactionDate: osloDay(-1),
          transactionAmount: { currency: 'NOK', amount: '-1.00' },
        })
      ).status,
    ).toBe(404);
    const { resourceId } = (await card()).body;
    const missing = await server.client.get<any>(`/v1/sandbox/card-accounts/${resourceId}/transactions/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.tppMessages[0].path).toBe('cardTransactionId');
  });
});
