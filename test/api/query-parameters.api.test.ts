/**
 * Query parameters are read by one set of rules on every API route (src/http/query-names.ts):
 * - names match in any case (`WithBalance`, `AllowLogicalDuplicate`), as the transaction routes
 *   always did; a name given twice (repeated or in two spellings) is 400 FORMAT_ERROR;
 * - a bare or empty `withBalance` is true (Berlin Group: "If contained, …");
 * - a bad boolean and a name the route does not declare are 400 FORMAT_ERROR naming it, on every
 *   route alike (balances, card transactions, consents and funds confirmation included); a
 *   boolean is true or false in any case, as a boolean header is;
 * - every parameter the Berlin Group defines for a transaction list is a name of it; those the bank
 *   does not offer (entryReferenceFrom, deltaList=true, pageIndex, itemsPerPage) are 400
 *   PARAMETER_NOT_SUPPORTED, never silently ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedConsent, consentBody } from '../support/consents.js';
import { created, expectError, initiate, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PSU_PRESENT = { 'psu-ip-address': '192.0.2.10' };

describe('query parameters on every route', () => {
  let server: TestServer;
  let consentId: string;
  let accountId: string;
  let cardId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const customer = await createCustomer(server.client);
    const account = await createAccount(server.client, customer.customerNumber);
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', {
      customerNumber: customer.customerNumber,
      name: 'Kari Mastercard',
      creditLimit: { currency: 'NOK', amount: '20000.00' },
    });
    expect(card.status, card.text).toBe(201);
    const granted = [{ bban: account.bban }, { maskedPan: card.body.maskedPan }];
    consentId = await approvedConsent(
      server.client,
      consentBody({ accounts: granted, balances: granted, transactions: granted }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    const accounts = await read('/v1/accounts');
    expect(accounts.status, accounts.text).toBe(200);
    accountId = accounts.body.accounts[0].resourceId as string;
    const cards = await read('/v1/card-accounts');
    expect(cards.status, cards.text).toBe(200);
    cardId = cards.body.cardAccounts[0].resourceId as string;
  });
  afterAll(() => server.close());

  const read = (path: string) => server.client.get<any>(path, { headers: { 'consent-id': consentId, ...PSU_PRESENT } });

  describe('names in any case', () => {
    it.each(['WithBalance=true', 'withbalance=true', 'WITHBALANCE=TRUE'])('lists the accounts with balances for ?%s', async (query) => {
      const list = await read(`/v1/accounts?${query}`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.accounts[0].balances).toEqual(expect.any(Array));
    });

    it('reads one account and one card account with balances for ?WithBalance=true', async () => {
      const account = await read(`/v1/accounts/${accountId}?WithBalance=true`);
      expect(account.status, account.text).toBe(200);
      expect(account.body.account.balances).toEqual(expect.any(Array));
      const card = await read(`/v1/card-accounts/${cardId}?withBALANCE=true`);
      expect(card.status, card.text).toBe(200);
      expect(card.body.cardAccount.balances).toEqual(expect.any(Array));
    });

    it('refuses a name given twice, in one spelling or two, with 400 FORMAT_ERROR naming it', async () => {
      for (const query of ['withBalance=true&WithBalance=false', 'withBalance=true&withBalance=true']) {
        const answer = await read(`/v1/accounts?${query}`);
        expectError(answer, 400, 'FORMAT_ERROR', 'withBalance');
        expect(answer.body.tppMessages[0].text).toContain('more than once');
      }
    });

    describe('on a payment initiation', () => {
      let psu: Psu;
      beforeAll(async () => {
        psu = await privatePsu(server.client);
      });

      it('takes ?AllowLogicalDuplicate=true as allowLogicalDuplicate', async () => {
        const body = ndctBody(psu.account);
        await created(initiate(server.client, 'payments', NDCT, body, { headers: psu.headers }));
        expectError(await initiate(server.client, 'payments', NDCT, body, { headers: psu.headers }), 400, 'PAYMENT_FAILED');
        await created(initiate(server.client, 'payments', NDCT, body, { headers: psu.headers, query: 'AllowLogicalDuplicate=true' }));
      });
    });
  });

  describe('a bare withBalance', () => {
    it.each(['withBalance', 'withBalance=', 'WithBalance'])('is true on the account list (?%s)', async (query) => {
      const list = await read(`/v1/accounts?${query}`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.accounts[0].balances).toEqual(expect.any(Array));
    });

    it('is true on account and card account details and the card account list', async () => {
      const account = await read(`/v1/accounts/${accountId}?withBalance`);
      expect(account.status, account.text).toBe(200);
      expect(account.body.account.balances).toEqual(expect.any(Array));
      const card = await read(`/v1/card-accounts/${cardId}?withBalance`);
      expect(card.status, card.text).toBe(200);
      expect(card.body.cardAccount.balances).toEqual(expect.any(Array));
      const cards = await read('/v1/card-accounts?withBalance=');
      expect(cards.status, cards.text).toBe(200);
      expect(cards.body.cardAccounts[0].balances).toEqual(expect.any(Array));
    });

    it('is accepted on the transaction list, where the Berlin Group defines it too', async () => {
      const list = await read(`/v1/accounts/${accountId}/transactions?withBalance`);
      expect(list.status, list.text).toBe(200);
    });

    it('is no boolean where the flag is not defined by presence: ?deltaList is 400 FORMAT_ERROR', async () => {
      expectError(await read(`/v1/accounts/${accountId}/transactions?deltaList`), 400, 'FORMAT_ERROR', 'deltaList');
    });
  });

  describe('bad values and unknown names, refused alike', () => {
    it.each([
      ['/v1/accounts?withBalance=yes', 'withBalance'],
      ['/v1/card-accounts?withBalance=yes', 'withBalance'],
      ['{account}/transactions?limit=1&withBalance=yes', 'withBalance'],
      ['{account}/transactions?limit=1&deltaList=maybe', 'deltaList'],
    ])('refuses an invalid boolean: %s is 400 FORMAT_ERROR at %s', async (path, name) => {
      const answer = await read(path.replace('{account}', `/v1/accounts/${accountId}`));
      expectError(answer, 400, 'FORMAT_ERROR', name);
      expect(answer.body.tppMessages[0].text).toContain('boolean');
    });

    it.each([
      ['/v1/accounts?foo=1', 'foo'],
      ['{account}?foo=1', 'foo'],
      ['{account}/balances?withBalance=yes', 'withBalance'],
      ['{account}/balances?withBalance=true', 'withBalance'],
      ['{account}/transactions?foo=1', 'foo'],
      ['{card}/transactions?foo=1', 'foo'],
      ['{card}/transactions?withBalance=true', 'withBalance'],
      ['{card}/balances?foo=1', 'foo'],
    ])('refuses a name the operation does not take: %s is 400 FORMAT_ERROR at %s', async (path, name) => {
      const answer = await read(path.replace('{account}', `/v1/accounts/${accountId}`).replace('{card}', `/v1/card-accounts/${cardId}`));
      expectError(answer, 400, 'FORMAT_ERROR', name);
      expect(answer.body.tppMessages[0].text).toContain('not a field of this request');
    });

    it('reads a HEAD by the rules of its GET', async () => {
      const head = (path: string) => server.client.call('HEAD', path, { headers: { 'consent-id': consentId, ...PSU_PRESENT } });
      expect((await head(`/v1/accounts/${accountId}/balances?withBalance=yes`)).status).toBe(400);
      expect((await head(`/v1/accounts/${accountId}?WithBalance`)).status).toBe(200);
    });

    it('refuses an unknown name on the consent, payment and funds confirmation routes too, changing nothing', async () => {
      expectError(await server.client.get<any>(`/v1/consents/${consentId}?foo=1`), 400, 'FORMAT_ERROR', 'foo');
      expectError(await server.client.get<any>(`/v1/consents/${consentId}/status?foo=1`), 400, 'FORMAT_ERROR', 'foo');
      expectError(await server.client.delete<any>(`/v1/consents/${consentId}?foo=1`), 400, 'FORMAT_ERROR', 'foo');
      expect((await server.client.get<any>(`/v1/consents/${consentId}/status`)).body.consentStatus).toBe('valid');
      const psu = await privatePsu(server.client);
      expectError(
        await initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers, query: 'foo=1' }),
        400,
        'FORMAT_ERROR',
        'foo',
      );
      const piisp = (await server.newTpp('PSDNO-FSA-777777777', ['PSP_IC'])).client;
      const funds = await piisp.post<any>('/v1/funds-confirmations?foo=1', {
        account: { bban: psu.account.bban },
        instructedAmount: { currency: 'NOK', amount: '1.00' },
      });
      expectError(funds, 400, 'FORMAT_ERROR', 'foo');
    });
  });

  describe('the Berlin Group parameters of a transaction list', () => {
    it('serves dateFrom, dateTo, bookingStatus and deltaList=false on accounts and card accounts', async () => {
      for (const base of [`/v1/accounts/${accountId}`, `/v1/card-accounts/${cardId}`]) {
        const list = await read(`${base}/transactions?bookingStatus=booked&dateFrom=2026-01-01&dateTo=2026-01-31&deltaList=false`);
        expect(list.status, list.text).toBe(200);
      }
    });

    it.each([
      ['{account}', 'entryReferenceFrom=abc'],
      ['{account}', 'deltaList=true'],
      ['{account}', 'DeltaList=TRUE'],
      ['{account}', 'pageIndex=1'],
      ['{account}', 'itemsPerPage=50'],
      ['{card}', 'entryReferenceFrom=abc'],
      ['{card}', 'deltaList=true'],
    ])('refuses what the bank does not offer: %s/transactions?%s is 400 PARAMETER_NOT_SUPPORTED', async (base, query) => {
      const path = `${base.replace('{account}', `/v1/accounts/${accountId}`).replace('{card}', `/v1/card-accounts/${cardId}`)}/transactions?${query}`;
      const name = query.split('=')[0]!;
      const answer = await read(path);
      expectError(answer, 400, 'PARAMETER_NOT_SUPPORTED', name.charAt(0).toLowerCase() + name.slice(1));
    });
  });
});
