/**
 * What the sandbox bank gives account information (README "Sandbox data"): a credit line on an
 * account (in interimAvailable and the funds check, not in expected), pending items, card purchases
 * in a foreign currency with the rate, the core-system fault that makes the bank fail reads of an
 * account's or card account's balances and transactions while the account stays listed and
 * described, and an initialize whose history follows a seed. Through the real server, on every
 * database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { capturedLog, ERROR_LEVEL } from '../support/captured-log.js';
import { approvedConsent, consentBody } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { expectError } from '../support/payments.js';
import { balancesOf, createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** PATCH through the signing client (it has no shorthand for it). */
const patch = (client: TppClient, path: string, body: unknown) => client.call<any>('PATCH', path, { body });

/** `PUT …/core-system-fault` of a mock account (`accounts`) or card account (`card-accounts`). */
const setFault = (client: TppClient, kind: 'accounts' | 'card-accounts', mockId: string, fault: 'missing-data' | 'unavailable' | null) =>
  client.put<any>(`/v1/sandbox/${kind}/${mockId}/core-system-fault`, { fault });

/** A read with the PSU present, so that repeated reads are not counted against frequencyPerDay. */
const PSU_PRESENT = { 'psu-ip-address': '192.0.2.10' };

describe.each(DIALECTS)('the sandbox bank for account information (%s)', (dialect) => {
  let server: TestServer;
  let psuId: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psuId = (await createCustomer(server.client, 'PRIVATE', 'Kari Kreditt')).customerNumber;
  });
  afterAll(() => server.close());

  const consentFor = (bban: string) =>
    approvedConsent(
      server.client,
      consentBody({ accounts: [{ bban }], balances: [{ bban }], transactions: [{ bban }] }),
      { 'psu-id': psuId },
      (link) => walk(link),
    );
  const read = (path: string, consentId: string) => server.client.get<any>(path, { headers: { 'consent-id': consentId, ...PSU_PRESENT } });

  async function aisBalances(bban: string) {
    const consentId = await consentFor(bban);
    const list = await read('/v1/accounts', consentId);
    expect(list.status, list.text).toBe(200);
    const resourceId = list.body.accounts[0].resourceId as string;
    return { consentId, resourceId, response: await read(`/v1/accounts/${resourceId}/balances`, consentId) };
  }

  it('includes an account’s credit line in interimAvailable (creditLimitIncluded) and not in expected; PATCH changes it', async () => {
    const account = await createAccount(server.client, psuId, { creditLimit: { currency: 'NOK', amount: '5000.00' } });
    await server.client.put(`/v1/sandbox/accounts/${account.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount: '200.00' } });
    const mock = await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`);
    expect(mock.body.creditLimit).toEqual({ currency: 'NOK', amount: '5000.00' });
    expect(balancesOf(mock.body)).toEqual({ closingBooked: '200.00', expected: '200.00', interimAvailable: '5200.00' });

    const { response } = await aisBalances(account.bban);
    expect(response.status, response.text).toBe(200);
    expectBerlinGroupSchema('readAccountBalanceResponse-200', response.body);
    const byType = Object.fromEntries(response.body.balances.map((balance: any) => [balance.balanceType, balance]));
    expect(byType.expected.balanceAmount.amount).toBe('200.00');
    expect(byType.interimAvailable).toMatchObject({ balanceAmount: { amount: '5200.00' }, creditLimitIncluded: true });

    const patched = await patch(server.client, `/v1/sandbox/accounts/${account.resourceId}`, {
      creditLimit: { currency: 'NOK', amount: '0' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(balancesOf(patched.body).interimAvailable).toBe('200.00');
  });

  it('lets the funds check spend the credit line', async () => {
    // The funds check needs PSP_IC; the TPP asks about an account of its own sandbox.
    const issuer = (await server.newTpp('PSDNO-FSA-777777777', ['PSP_IC'])).client;
    const holder = await createCustomer(issuer);
    const account = await createAccount(issuer, holder.customerNumber, { creditLimit: { currency: 'NOK', amount: '1000.00' } });
    const ask = (amount: string) =>
      issuer.post<any>('/v1/funds-confirmations', { account: { bban: account.bban }, instructedAmount: { currency: 'NOK', amount } });
    const within = await ask('999.00');
    expect(within.status, within.text).toBe(200);
    expect(within.body.fundsAvailable).toBe(true);
    expect((await ask('1000.01')).body.fundsAvailable).toBe(false);
  });

  it.each([
    [{ creditLimit: { currency: 'NOK', amount: '-1.00' } }, 'creditLimit.amount'],
    [{ creditLimit: { currency: 'EUR', amount: '10.00' } }, 'creditLimit.currency'],
    // The core-system fault has its own endpoint (PUT …/core-system-fault), not a PATCH field.
    [{ reportsMissingData: true }, 'reportsMissingData'],
    [{}, ''],
    [{ name: 'Nytt navn' }, 'name'],
  ])('refuses the PATCH %j with 400 and changes nothing', async (body, path) => {
    const account = await createAccount(server.client, psuId);
    const response = await patch(server.client, `/v1/sandbox/accounts/${account.resourceId}`, body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe('FORMAT_ERROR');
    if (path !== '') expect(JSON.stringify(response.body)).toContain(path);
    const after = await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`);
    expect(after.body.creditLimit).toMatchObject({ amount: '0.00' });
  });

  it('answers 404 for a PATCH of an account this TPP does not have', async () => {
    const other = await server.newTpp('PSDNO-FSA-444444444');
    const account = await createAccount(other.client, (await createCustomer(other.client)).customerNumber);
    const response = await patch(server.client, `/v1/sandbox/accounts/${account.resourceId}`, {
      creditLimit: { currency: 'NOK', amount: '100.00' },
    });
    expect(response.status).toBe(404);
    expect((await other.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`)).body.creditLimit).toMatchObject({ amount: '0.00' });
  });

  it('keeps a pending item out of closingBooked and in expected; its date is when it is expected to be booked', async () => {
    const account = await createAccount(server.client, psuId);
    await server.client.put(`/v1/sandbox/accounts/${account.resourceId}/balance`, {
      balanceAmount: { currency: 'NOK', amount: '1000.00' },
    });
    const path = `/v1/sandbox/accounts/${account.resourceId}/transactions`;
    const pending = await server.client.post<any>(path, {
      bookingStatus: 'pending',
      bookingDate: osloDay(2),
      valueDate: osloDay(2),
      transactionAmount: { currency: 'NOK', amount: '-250.00' },
      creditorName: 'Fjordkraft AS',
      remittanceInformationStructured: { reference: '1234567890128', referenceType: 'SCOR' },
    });
    expect(pending.status, pending.text).toBe(201);
    const report = await server.client.get<any>(path);
    expect(report.body.transactions.pending.map((item: any) => item.transactionId)).toEqual([pending.body.transactionId]);
    const balances = balancesOf((await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`)).body);
    expect(balances).toEqual({ closingBooked: '1000.00', expected: '750.00', interimAvailable: '750.00' });

    for (const date of [osloDay(-1), osloDay(31)]) {
      const refused = await server.client.post<any>(path, {
        bookingStatus: 'pending',
        bookingDate: date,
        valueDate: date,
        transactionAmount: { currency: 'NOK', amount: '-1.00' },
      });
      expect(refused.status, date).toBe(400);
      expect(refused.body.tppMessages[0].path).toBe('bookingDate');
    }
    // A booked item still may not lie ahead.
    const ahead = await server.client.post<any>(path, {
      bookingDate: osloDay(1),
      valueDate: osloDay(1),
      transactionAmount: { currency: 'NOK', amount: '-1.00' },
    });
    expect(ahead.status).toBe(400);
  });

  it('keeps a card purchase abroad in its own currency with the rate it was converted at', async () => {
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: psuId });
    const path = `/v1/sandbox/card-accounts/${card.body.resourceId}/transactions`;
    const purchase = await server.client.post<any>(path, {
      transactionDate: osloDay(-1),
      bookingDate: osloDay(0),
      transactionAmount: { currency: 'NOK', amount: '-1574.21' },
      originalAmount: { currency: 'DKK', amount: '1001.34' },
      exchangeRate: '1.5721',
      transactionDetails: 'Hotel Skt. Petri, København',
    });
    expect(purchase.status, purchase.text).toBe(201);
    expect(purchase.body.currencyExchange).toEqual([
      { sourceCurrency: 'DKK', exchangeRate: '1.5721', unitCurrency: 'DKK', targetCurrency: 'NOK', quotationDate: osloDay(-1) },
    ]);
    expectBerlinGroupSchema('reportExchangeRate', purchase.body.currencyExchange[0]);
    const stored = await server.client.get<any>(`${path}/${purchase.body.cardTransactionId}`);
    expect(stored.body.currencyExchange).toEqual(purchase.body.currencyExchange);

    const base = { transactionDate: osloDay(-1), transactionAmount: { currency: 'NOK', amount: '-10.00' } };
    const sameCurrency = await server.client.post<any>(path, { ...base, originalAmount: { currency: 'NOK', amount: '10.00' } });
    expect(sameCurrency.status).toBe(400);
    expect(sameCurrency.body.tppMessages[0].path).toBe('originalAmount.currency');
    const rateAlone = await server.client.post<any>(path, { ...base, exchangeRate: '1.5' });
    expect(rateAlone.status).toBe(400);
    expect(rateAlone.body.tppMessages[0].path).toBe('exchangeRate');
    const badRate = await server.client.post<any>(path, {
      ...base,
      originalAmount: { currency: 'EUR', amount: '1.00' },
      exchangeRate: '-1',
    });
    expect(badRate.status).toBe(400);
  });

  // test/api/transactions.api.test.ts covers every read an account's fault fails and the
  // `unavailable` fault; here: the account stays listed and described while its data is missing.
  it('keeps an account whose core system answers without data listed and described; only its balances and transactions fail', async () => {
    const account = await createAccount(server.client, psuId);
    const set = await setFault(server.client, 'accounts', account.resourceId, 'missing-data');
    expect(set.status, set.text).toBe(200);
    // The mock account itself is unchanged in the sandbox API.
    const mock = await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`);
    expect(mock.status, mock.text).toBe(200);
    expect(mock.body.bban).toBe(account.bban);

    const { consentId, resourceId, response } = await aisBalances(account.bban);
    expectError(response, 500, 'SYSTEM_ERROR');
    expectError(await read(`/v1/accounts/${resourceId}/transactions`, consentId), 500, 'SYSTEM_ERROR');
    const list = await read('/v1/accounts', consentId);
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.map((entry: any) => entry.resourceId)).toEqual([resourceId]);
    const details = await read(`/v1/accounts/${resourceId}`, consentId);
    expect(details.status, details.text).toBe(200);
    expect(details.body.account.bban).toBe(account.bban);

    expect((await setFault(server.client, 'accounts', account.resourceId, null)).status).toBe(200);
    expect((await read(`/v1/accounts/${resourceId}/balances`, consentId)).status).toBe(200);
  });

  it('forgets a fault with its account: deleting the customer, or initialize, removes it', async () => {
    const faults = async (tppId: string) =>
      (await server.database.db.selectFrom('sandbox_core_system_fault').select('account_id').where('tpp_id', '=', tppId).execute()).map(
        (row) => row.account_id,
      );
    const { client } = await server.newTpp('PSDNO-FSA-555555555');
    const holder = await createCustomer(client);
    const kept = await createAccount(client, (await createCustomer(client)).customerNumber);
    const gone = await createAccount(client, holder.customerNumber);
    expect((await setFault(client, 'accounts', gone.resourceId, 'missing-data')).status).toBe(200);
    expect((await setFault(client, 'accounts', kept.resourceId, 'unavailable')).status).toBe(200);
    expect((await client.delete<any>(`/v1/sandbox/customers/${holder.customerId}`)).status).toBe(204);
    expect(await faults('PSDNO-FSA-555555555')).toEqual([kept.resourceId]);
    expect((await client.post<any>('/v1/sandbox/initialize', {})).status).toBe(200);
    expect(await faults('PSDNO-FSA-555555555')).toEqual([]);
  });

  it('has the same fault on a card account: its balances and transactions fail, the card account stays listed and described', async () => {
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: psuId });
    expect(card.status, card.text).toBe(201);
    const set = await setFault(server.client, 'card-accounts', card.body.resourceId, 'missing-data');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ fault: 'missing-data' });
    const maskedPan = card.body.maskedPan as string;
    const consentId = await approvedConsent(
      server.client,
      consentBody({ accounts: [{ maskedPan }], balances: [{ maskedPan }], transactions: [{ maskedPan }] }),
      { 'psu-id': psuId },
      (link) => walk(link),
    );
    const list = await read('/v1/card-accounts', consentId);
    expect(list.status, list.text).toBe(200);
    const mine = list.body.cardAccounts.find((entry: any) => entry.maskedPan === maskedPan);
    expect(mine).toBeDefined();
    const details = await read(`/v1/card-accounts/${mine.resourceId}`, consentId);
    expect(details.status, details.text).toBe(200);
    expectError(await read(`/v1/card-accounts/${mine.resourceId}/balances`, consentId), 500, 'SYSTEM_ERROR');
    expectError(await read(`/v1/card-accounts/${mine.resourceId}/transactions`, consentId), 500, 'SYSTEM_ERROR');

    expect((await setFault(server.client, 'card-accounts', card.body.resourceId, null)).body).toEqual({ fault: null });
    expect((await read(`/v1/card-accounts/${mine.resourceId}/balances`, consentId)).status).toBe(200);
    expect((await read(`/v1/card-accounts/${mine.resourceId}/transactions`, consentId)).status).toBe(200);
    expectError(
      await server.client.put<any>('/v1/sandbox/card-accounts/no-such-card/core-system-fault', { fault: 'missing-data' }),
      404,
      'RESOURCE_UNKNOWN',
      'mockCardAccountId',
    );
  });

  describe('initialize with a seed', () => {
    /** The seeded history of Ola's Brukskonto and card, without ids: what a seed decides. */
    async function history() {
      const accounts = (await server.client.get<any>('/v1/sandbox/accounts')).body.accounts;
      const ola = accounts.find((account: any) => account.bban === '12341100028');
      const report = await server.client.get<any>(`/v1/sandbox/accounts/${ola.resourceId}/transactions`);
      const cards = (await server.client.get<any>('/v1/sandbox/card-accounts')).body.cardAccounts;
      const card = cards.find((entry: any) => entry.maskedPan === '525412******3241');
      const cardReport = await server.client.get<any>(`/v1/sandbox/card-accounts/${card.resourceId}/transactions`);
      // Without ids, in one order (items of one day may come in any order).
      const strip = ({ transactionId: _t, cardTransactionId: _c, _links, ...rest }: any) => rest;
      const sorted = (items: any[]) => items.map(strip).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      return {
        booked: sorted(report.body.transactions.booked),
        card: sorted(cardReport.body.cardTransactions.booked),
      };
    }

    it('gives the same history for the same seed and another for another seed', async () => {
      const first = await server.client.post<any>('/v1/sandbox/initialize', { seed: 'fjord-2026' });
      expect(first.status, first.text).toBe(200);
      const one = await history();
      expect((await server.client.post<any>('/v1/sandbox/initialize', { seed: 'fjord-2026' })).status).toBe(200);
      expect(await history()).toEqual(one);
      expect((await server.client.post<any>('/v1/sandbox/initialize', { seed: 'another' })).status).toBe(200);
      const other = await history();
      expect(other.booked).not.toEqual(one.booked);
      // Balances are the documented ones whatever the seed.
      const accounts = (await server.client.get<any>('/v1/sandbox/accounts')).body.accounts;
      const per = accounts.find((account: any) => account.bban === '12342100013');
      expect(balancesOf(per)).toEqual({ closingBooked: '18912.45', expected: '18822.55', interimAvailable: '28822.55' });
    });

    it('seeds Norwegian everyday banking: salary, rent, groceries, Vipps, bills with KID, card purchases abroad', async () => {
      expect((await server.client.post<any>('/v1/sandbox/initialize', undefined)).status).toBe(200);
      const { booked, card } = await history();
      const texts = booked.map((item) => `${item.creditorName ?? item.debtorName ?? ''} ${item.remittanceInformationUnstructured ?? ''}`);
      expect(texts.some((text) => text.includes('Lønn'))).toBe(true);
      expect(texts.some((text) => text.includes('Husleie'))).toBe(true);
      expect(texts.some((text) => /REMA 1000|KIWI|Coop/.test(text))).toBe(true);
      expect(texts.some((text) => text.includes('Vipps'))).toBe(true);
      expect(booked.some((item) => item.remittanceInformationStructuredArray?.[0]?.referenceType === 'SCOR')).toBe(true);
      const abroad = card.filter((item) => item.originalAmount !== undefined);
      expect(abroad.length).toBeGreaterThan(0);
      for (const item of abroad) {
        expect(item.originalAmount.currency).not.toBe('NOK');
        expect(item.currencyExchange[0]).toMatchObject({ sourceCurrency: item.originalAmount.currency, targetCurrency: 'NOK' });
      }
    });

    it.each([[{ seed: 42 }], [{ seed: '' }], [{ seeds: 'x' }]])('refuses %j with 400', async (body) => {
      const response = await server.client.post<any>('/v1/sandbox/initialize', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('FORMAT_ERROR');
    });
  });
});

describe('the log of a simulated core-system fault', () => {
  const log = capturedLog();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ logger: log.logger });
  });
  afterAll(() => server.close());

  it('is an info line with the error id the TPP got, not an error for an operator', async () => {
    const psuId = (await createCustomer(server.client, 'PRIVATE', 'Frida Feil')).customerNumber;
    const account = await createAccount(server.client, psuId);
    const consentId = await approvedConsent(
      server.client,
      consentBody({ accounts: [{ bban: account.bban }], balances: [{ bban: account.bban }] }),
      { 'psu-id': psuId },
      (link) => walk(link),
    );
    const read = (path: string) => server.client.get<any>(path, { headers: { 'consent-id': consentId, ...PSU_PRESENT } });
    const list = await read('/v1/accounts');
    expect(list.status, list.text).toBe(200);
    expect((await setFault(server.client, 'accounts', account.resourceId, 'unavailable')).status).toBe(200);

    const answer = await read(`/v1/accounts/${list.body.accounts[0].resourceId}/balances`);
    expectError(answer, 503, 'SERVICE_UNAVAILABLE');
    const lines = log.lines().filter((line) => line.errorId === answer.body.id);
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'simulated bank failure', bankError: 'unavailable' })]);
    expect(log.lines().filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
  });
});
