/**
 * `/v1/sandbox/accounts`: accounts are generated and accepted only with valid check digits (BBAN
 * MOD11, IBAN MOD 97-10, the two agreeing); balances come from the ledger; the balance update
 * posts one adjustment so closingBooked is exactly the requested amount and the ledger entries
 * still sum to it. Every refusal names its field and changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIban, ibanFromNorwegianBban } from '../../src/domain/iban.js';
import { checkNorwegianBban } from '../../src/domain/bban.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { accountNumber, balancesOf, createAccount, createCustomer, identityNumber } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sandbox accounts (%s)', (dialect) => {
  let server: TestServer;
  let owner: { customerId: string; customerNumber: string };
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    owner = await createCustomer(server.client);
  });
  afterAll(() => server.close());

  const accounts = async () => (await server.client.get<any>('/v1/sandbox/accounts')).body.accounts;
  const ledgerSum = async (accountId: string) =>
    (
      await sql<{
        total: string | null;
      }>`select cast(sum(amount_minor) as text) as total from ledger_entry where account_id = ${accountId}`.execute(server.database.db)
    ).rows[0]!.total;

  it('creates an account with a generated BBAN and IBAN that pass their checks: 201, Location, links, zero balances', async () => {
    const response = await server.client.post<any>('/v1/sandbox/accounts', { customerNumber: owner.customerNumber });
    expect(response.status).toBe(201);
    const { resourceId, bban, iban } = response.body;
    expect(checkNorwegianBban(bban)).toEqual({ ok: true, value: bban });
    expect(bban.startsWith('1234')).toBe(true);
    expect(checkIban(iban).ok).toBe(true);
    expect(iban).toBe(ibanFromNorwegianBban(bban));
    const self = `${server.config.publicUrl}/v1/sandbox/accounts/${resourceId}`;
    expect(response.headers.location).toBe(self);
    expect(response.body).toEqual({
      resourceId,
      customerNumber: owner.customerNumber,
      bban,
      iban,
      currency: 'NOK',
      name: 'Brukskonto',
      product: 'Brukskonto',
      cashAccountType: 'CACC',
      creditLimit: { currency: 'NOK', amount: '0.00' },
      balances: [
        { balanceType: 'closingBooked', balanceAmount: { currency: 'NOK', amount: '0.00' } },
        { balanceType: 'expected', balanceAmount: { currency: 'NOK', amount: '0.00' } },
        { balanceType: 'interimAvailable', balanceAmount: { currency: 'NOK', amount: '0.00' } },
      ],
      _links: {
        self: { href: self, verbs: ['GET', 'PATCH'] },
        balance: { href: `${self}/balance`, verbs: ['PUT'] },
        transactions: { href: `${self}/transactions`, verbs: ['GET', 'POST'] },
      },
    });
    expect((await server.client.get<any>(`/v1/sandbox/accounts/${resourceId}`)).body).toEqual(response.body);
  });

  it.each([
    ['a BBAN', (n: { bban: string; iban: string }) => ({ bban: n.bban })],
    ['an IBAN', (n: { bban: string; iban: string }) => ({ iban: n.iban })],
    ['a BBAN and the IBAN of it', (n: { bban: string; iban: string }) => ({ bban: n.bban, iban: n.iban })],
  ])('accepts %s with valid check digits and fills in the other', async (_, given) => {
    const number = accountNumber();
    const response = await server.client.post<any>('/v1/sandbox/accounts', {
      customerNumber: owner.customerNumber,
      currency: 'EUR',
      name: 'Valutakonto',
      product: 'Valutakonto',
      cashAccountType: 'CACC',
      ...given(number),
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ bban: number.bban, iban: number.iban, currency: 'EUR', name: 'Valutakonto' });
  });

  it.each([
    [{ bban: '12345678904' }, 'bban', 'check digit (digit 11) is wrong'],
    [{ bban: '1234567890' }, 'bban', 'must be 11 digits'],
    [{ bban: '1234.56.78903' }, 'bban', 'only digits'],
    [{ iban: 'NO9386011117948' }, 'iban', 'MOD 97-10'],
    [{ iban: 'DE89370400440532013000' }, 'iban', 'must be a Norwegian (NO) IBAN'],
    [{ bban: '12345678903', iban: 'NO9386011117947' }, 'iban', 'but bban names 12345678903'],
    [{ currency: 'XYZ' }, 'currency', 'XYZ'],
    [{ currency: 'nok' }, 'currency', ''],
    [{ cashAccountType: 'current' }, 'cashAccountType', ''],
    [{ name: '' }, 'name', ''],
    [{ name: '   ' }, 'name', 'must not be blank'],
    [{ product: ' ' }, 'product', ''],
    [{ accountName: 'Totalkonto' }, 'accountName', ''],
  ])('refuses %j with 400 naming %s', async (extra, path, text) => {
    const before = await accounts();
    const response = await server.client.post<any>('/v1/sandbox/accounts', { customerNumber: owner.customerNumber, ...extra });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ code: 'FORMAT_ERROR', path }] });
    expect(response.body.message).toContain(text);
    expectBerlinGroupSchema('Error400_NG_AIS', response.body);
    expect(await accounts()).toEqual(before);
  });

  it('refuses an owner this sandbox does not have (also another TPP customer) with 400 naming customerNumber', async () => {
    const other = await server.newTpp('PSDNO-FSA-222222222');
    const theirs = await createCustomer(other.client);
    for (const customerNumber of [identityNumber(), theirs.customerNumber]) {
      const response = await server.client.post<any>('/v1/sandbox/accounts', { customerNumber });
      expect(response.status).toBe(400);
      expect(response.body.tppMessages[0].path).toBe('customerNumber');
      expect(response.body.message).toContain('your sandbox does not have');
    }
  });

  it('refuses a BBAN this TPP already has with 409, but another TPP may have it too', async () => {
    const number = accountNumber();
    await createAccount(server.client, owner.customerNumber, { bban: number.bban });
    const again = await server.client.post<any>('/v1/sandbox/accounts', { customerNumber: owner.customerNumber, iban: number.iban });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'RESOURCE_EXISTS', tppMessages: [{ path: 'bban' }] });
    expectBerlinGroupSchema('Error409_NG_AIS', again.body);
    const other = await server.newTpp('PSDNO-FSA-333333333');
    const theirOwner = await createCustomer(other.client);
    expect((await other.client.post('/v1/sandbox/accounts', { customerNumber: theirOwner.customerNumber, bban: number.bban })).status).toBe(
      201,
    );
  });

  it("lists every account with its own balances, as each account's GET shows them", async () => {
    const customer = await createCustomer(server.client);
    const funded = await createAccount(server.client, customer.customerNumber);
    await server.client.put(`/v1/sandbox/accounts/${funded.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount: '100.00' } });
    const patched = await server.client.call('PATCH', `/v1/sandbox/accounts/${funded.resourceId}`, {
      body: { creditLimit: { currency: 'NOK', amount: '50.00' } },
    });
    expect(patched.status).toBe(200);
    const euro = (await server.client.post<any>('/v1/sandbox/accounts', { customerNumber: customer.customerNumber, currency: 'EUR' })).body;
    await server.client.put(`/v1/sandbox/accounts/${euro.resourceId}/balance`, { balanceAmount: { currency: 'EUR', amount: '10.00' } });
    const empty = await createAccount(server.client, customer.customerNumber);

    const listed = new Map<string, any>((await accounts()).map((account: { resourceId: string }) => [account.resourceId, account]));
    for (const id of [funded.resourceId, euro.resourceId, empty.resourceId]) {
      expect(listed.get(id)).toEqual((await server.client.get<any>(`/v1/sandbox/accounts/${id}`)).body);
    }
    expect(balancesOf(listed.get(funded.resourceId))).toEqual({ closingBooked: '100.00', expected: '100.00', interimAvailable: '150.00' });
    expect(balancesOf(listed.get(euro.resourceId))).toEqual({ closingBooked: '10.00', expected: '10.00', interimAvailable: '10.00' });
    expect(balancesOf(listed.get(empty.resourceId))).toEqual({ closingBooked: '0.00', expected: '0.00', interimAvailable: '0.00' });
  });

  describe('PUT /accounts/{id}/balance', () => {
    it('reaches exactly the requested closingBooked with one adjustment, and the ledger entries sum to it', async () => {
      const account = await createAccount(server.client, owner.customerNumber);
      const put = await server.client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/balance`, {
        balanceAmount: { currency: 'NOK', amount: '12345.67' },
      });
      expect(put.status).toBe(200);
      expect(balancesOf(put.body)).toEqual({ closingBooked: '12345.67', expected: '12345.67', interimAvailable: '12345.67' });
      expect(await ledgerSum(account.resourceId)).toBe('1234567');

      const down = await server.client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/balance`, {
        balanceAmount: { currency: 'NOK', amount: '-250.5' },
      });
      expect(balancesOf(down.body).closingBooked).toBe('-250.50');
      expect(await ledgerSum(account.resourceId)).toBe('-25050');
      const postings = await server.database.db
        .selectFrom('ledger_entry')
        .select('transaction_id')
        .where('account_id', '=', account.resourceId)
        .execute();
      expect(postings).toHaveLength(2);
    });

    it('is a no-op when the balance is already there', async () => {
      const account = await createAccount(server.client, owner.customerNumber);
      for (let i = 0; i < 2; i++) {
        await server.client.put(`/v1/sandbox/accounts/${account.resourceId}/balance`, {
          balanceAmount: { currency: 'NOK', amount: '500.00' },
        });
      }
      const zero = await createAccount(server.client, owner.customerNumber);
      await server.client.put(`/v1/sandbox/accounts/${zero.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount: '0' } });
      const count = async (id: string) =>
        (await server.database.db.selectFrom('ledger_entry').select('id').where('account_id', '=', id).execute()).length;
      expect(await count(account.resourceId)).toBe(1);
      expect(await count(zero.resourceId)).toBe(0);
    });

    it('keeps concurrent updates exact: the balance ends at one of the requested values', async () => {
      const account = await createAccount(server.client, owner.customerNumber);
      const targets = ['100.00', '200.00', '300.00', '400.00', '500.00'];
      await Promise.all(
        targets.map((amount) =>
          server.client.put(`/v1/sandbox/accounts/${account.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount } }),
        ),
      );
      const final = balancesOf((await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`)).body).closingBooked;
      expect(targets).toContain(final);
      expect(await ledgerSum(account.resourceId)).toBe(final!.replace('.', ''));
    });

    it.each([
      [{ balanceAmount: { currency: 'EUR', amount: '10.00' } }, 'balanceAmount.currency', "must be the account's currency NOK"],
      [{ balanceAmount: { currency: 'NOK', amount: '10.001' } }, 'balanceAmount.amount', 'NOK has at most 2 decimals'],
      [{ balanceAmount: { currency: 'NOK', amount: '10,00' } }, 'balanceAmount.amount', 'comma'],
      [{ balanceAmount: { currency: 'NOK', amount: 10 } }, 'balanceAmount.amount', 'must be string'],
      [{ balanceAmount: { currency: 'NOK' } }, 'balanceAmount.amount', 'is missing'],
      [{ amount: '10.00' }, 'balanceAmount', ''],
    ])('refuses %j with 400 naming %s, and posts nothing', async (body, path, text) => {
      const account = await createAccount(server.client, owner.customerNumber);
      const response = await server.client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/balance`, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path }] });
      expect(response.body.message).toContain(text);
      expectBerlinGroupSchema('Error400_NG_AIS', response.body);
      expect(await ledgerSum(account.resourceId)).toBeNull();
    });

    it('answers an unknown account with 404', async () => {
      const response = await server.client.put<any>('/v1/sandbox/accounts/unknown/balance', {
        balanceAmount: { currency: 'NOK', amount: '1.00' },
      });
      expect(response.status).toBe(404);
      expect(response.body.tppMessages[0].path).toBe('mockAccountId');
    });
  });
});
