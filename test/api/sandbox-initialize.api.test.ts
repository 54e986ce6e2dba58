/**
 * `POST /v1/sandbox/initialize`: a fresh initialize followed by listing shows exactly the
 * documented customers, accounts, card accounts, agreements and balances; a second initialize
 * gives the same shape and drops everything else this TPP created, and nothing of other TPPs; one
 * TPP never sees another's sandbox (404 for its ids, nothing in lists); production has no mock data.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { balancesOf, createAccount, createCustomer } from '../support/sandbox.js';
import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server.js';

/** The documented set (README "Sandbox data"): customer, type, name. */
const CUSTOMERS = [
  ['12085592767', 'PRIVATE', 'Per Olsen'],
  ['13039319955', 'PRIVATE', 'Ola Nordmann'],
  ['18129215603', 'CORPORATE', 'Fjordbris Regnskap AS'],
  ['20079518612', 'CORPORATE', 'Nordlys Bygg AS'],
];

/** Owner, BBAN, IBAN, currency, name, closingBooked, expected, interimAvailable. */
const ACCOUNTS = [
  // Per's Brukskonto has a credit line of 10 000.00: interimAvailable is expected plus it.
  ['12085592767', '12342100013', 'NO5912342100013', 'NOK', 'Brukskonto', '18912.45', '18822.55', '28822.55'],
  ['12085592767', '12342200026', 'NO9112342200026', 'NOK', 'Sparekonto', '52300.00', '52300.00', '52300.00'],
  ['13039319955', '12341100028', 'NO9212341100028', 'NOK', 'Brukskonto', '34567.89', '34255.49', '34255.49'],
  ['13039319955', '12341200022', 'NO5512341200022', 'NOK', 'Sparekonto', '150000.00', '150000.00', '150000.00'],
  ['18129215603', '12343100017', 'NO9512343100017', 'NOK', 'Driftskonto', '845230.50', '845230.50', '845230.50'],
  ['18129215603', '12343200038', 'NO0812343200038', 'NOK', 'Skattetrekkskonto', '96400.00', '96400.00', '96400.00'],
  ['20079518612', '12344100010', 'NO4012344100010', 'NOK', 'Driftskonto', '1254780.00', '1254780.00', '1254780.00'],
  ['20079518612', '12344200023', 'NO7212344200023', 'EUR', 'Valutakonto EUR', '45120.75', '45120.75', '45120.75'],
];

/** Owner, masked PAN, credit limit, closingBooked, expected, interimAvailable. */
const CARD_ACCOUNTS = [
  ['12085592767', '492500******7788', '30000.00', '-1234.50', '-1833.50', '28166.50'],
  ['13039319955', '525412******3241', '50000.00', '-3456.70', '-3705.70', '46294.30'],
];

/** Owner, organisation number, engagements as customer/BBAN/roles/registerLimit/approvalLimit. */
const AGREEMENTS = [
  [
    '18129215603',
    '923456783',
    [
      ['12085592767', '12343100017', ['VIEW'], undefined, undefined],
      ['13039319955', '12343100017', ['REGISTER', 'VIEW'], undefined, '100000.00'],
      ['13039319955', '12343200038', ['REGISTER', 'VIEW'], undefined, undefined],
    ],
  ],
  [
    '20079518612',
    '998877660',
    [
      ['12085592767', '12344100010', ['REGISTER', 'VIEW'], '50000.00', '0.00'],
      ['12085592767', '12344200023', ['REGISTER', 'VIEW'], undefined, undefined],
      ['13039319955', '12344100010', ['REGISTER', 'VIEW'], undefined, undefined],
    ],
  ],
];

async function listing(client: TppClient) {
  const [customers, accounts, cards, agreements] = await Promise.all(
    ['customers', 'accounts', 'card-accounts', 'agreements'].map((path) => client.get<any>(`/v1/sandbox/${path}`)),
  );
  return {
    customers: customers!.body.customers.map((c: any) => [c.customerNumber, c.customerType, c.customerName]),
    accounts: accounts!.body.accounts.map((a: any) => {
      const b = balancesOf(a);
      return [a.customerNumber, a.bban, a.iban, a.currency, a.name, b['closingBooked'], b['expected'], b['interimAvailable']];
    }),
    cardAccounts: cards!.body.cardAccounts.map((k: any) => {
      const b = balancesOf(k);
      return [k.customerNumber, k.maskedPan, k.creditLimit.amount, b['closingBooked'], b['expected'], b['interimAvailable']];
    }),
    agreements: agreements!.body.agreements.map((g: any) => [
      g.owner,
      g.organisationNumber,
      g.engagements.map((e: any) => [e.customer, e.account.bban, e.roles, e.registerLimit, e.approvalLimit]),
    ]),
    raw: { accounts: accounts!.body.accounts, customers: customers!.body.customers, agreements: agreements!.body.agreements },
  };
}

describe.each(DIALECTS)('POST /v1/sandbox/initialize (%s)', (dialect) => {
  let server: TestServer;
  let other: TppClient;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    other = (await server.newTpp('PSDNO-FSA-987654321')).client;
  });
  afterAll(() => server.close());

  it('seeds exactly the documented customers, accounts, card accounts, agreements and balances', async () => {
    const response = await server.client.post<any>('/v1/sandbox/initialize', undefined);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ customers: 4, accounts: 8, cardAccounts: 2, agreements: 2, engagements: 6 });
    expect(response.body.transactions).toBeGreaterThan(150);
    expect(response.body._links.customers).toEqual({ href: `${server.config.publicUrl}/v1/sandbox/customers`, verbs: ['GET', 'POST'] });
    const seeded = await listing(server.client);
    expect(seeded.customers).toEqual(CUSTOMERS);
    expect(seeded.accounts).toEqual(ACCOUNTS);
    expect(seeded.cardAccounts).toEqual(CARD_ACCOUNTS);
    expect(seeded.agreements).toEqual(AGREEMENTS);
    for (const account of seeded.raw.accounts) {
      for (const balance of account.balances) expectBerlinGroupSchema('balance', balance);
    }
    const corporate = seeded.raw.accounts.find((a: any) => a.bban === '12343100017');
    expect(corporate.organisationNumber).toBe('923456783');
  });

  it('seeds about three months of booked history whose sum with the opening balance is the balance', async () => {
    const { raw } = await listing(server.client);
    const account = raw.accounts.find((a: any) => a.bban === '12341100028');
    const report = await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}/transactions`);
    expect(report.status).toBe(200);
    const booked = report.body.transactions.booked;
    expect(booked).toHaveLength(60);
    expect(report.body.transactions.pending).toHaveLength(1);
    const dates = booked.map((t: any) => t.bookingDate).sort();
    const span = (Date.parse(dates.at(-1)) - Date.parse(dates[0])) / 86_400_000;
    expect(span).toBeGreaterThan(60);
    for (const transaction of booked) expectBerlinGroupSchema('transactions', transaction);
    const ledgerSum = await sql<{
      total: string;
    }>`select cast(sum(amount_minor) as text) as total from ledger_entry where account_id = ${account.resourceId}`.execute(
      server.database.db,
    );
    // closingBooked 34567.89 plus the pending -312.40.
    expect(ledgerSum.rows[0]!.total).toBe('3425549');
  });

  it('gives the same shape again and drops everything else this TPP created, but nothing of another TPP', async () => {
    const before = await listing(server.client);
    const extra = await createCustomer(server.client);
    await createAccount(server.client, extra.customerNumber);
    const ola = before.raw.accounts.find((a: any) => a.bban === '12341100028');
    await server.client.put(`/v1/sandbox/accounts/${ola.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount: '1.00' } });
    const theirs = await createCustomer(other, 'PRIVATE', 'Other TPP customer');
    const theirAccount = await createAccount(other, theirs.customerNumber);

    const again = await server.client.post<any>('/v1/sandbox/initialize', undefined);
    expect(again.status).toBe(200);
    const after = await listing(server.client);
    expect(after.customers).toEqual(CUSTOMERS);
    expect(after.accounts).toEqual(ACCOUNTS);
    expect(after.cardAccounts).toEqual(CARD_ACCOUNTS);
    expect(after.agreements).toEqual(AGREEMENTS);
    // New opaque ids; the old ones are gone.
    expect(after.raw.accounts.map((a: any) => a.resourceId)).not.toContain(ola.resourceId);
    expect((await server.client.get(`/v1/sandbox/accounts/${ola.resourceId}`)).status).toBe(404);
    expect((await server.client.get(`/v1/sandbox/customers/${extra.customerId}`)).status).toBe(404);
    // The other TPP keeps its customer, account and balance.
    expect((await other.get(`/v1/sandbox/customers/${theirs.customerId}`)).status).toBe(200);
    expect((await other.get(`/v1/sandbox/accounts/${theirAccount.resourceId}`)).status).toBe(200);
    // No ledger entry is left on an account that no longer exists.
    const orphans = await server.database.db
      .selectFrom('ledger_entry')
      .select('account_id')
      .where('account_id', 'not like', 'sandbox-system:%')
      .where('account_id', 'not in', (eb) => eb.selectFrom('sandbox_account').select('sandbox_account.id'))
      .where('account_id', 'not in', (eb) => eb.selectFrom('sandbox_card_account').select('sandbox_card_account.id'))
      .execute();
    expect(orphans).toEqual([]);
    const events = await server.database.db
      .selectFrom('audit_event')
      .select(['action', 'actor_id'])
      .where('action', '=', 'sandbox.initialized')
      .execute();
    expect(events).toEqual([
      { action: 'sandbox.initialized', actor_id: 'PSDNO-FSA-123456789' },
      { action: 'sandbox.initialized', actor_id: 'PSDNO-FSA-123456789' },
    ]);
  });

  it("keeps TPPs apart: another TPP's ids are 404 and its lists are its own", async () => {
    const mine = await listing(server.client);
    const customer = mine.raw.customers[0];
    const account = mine.raw.accounts[0];
    const agreement = mine.raw.agreements[0];
    const card = (await server.client.get<any>('/v1/sandbox/card-accounts')).body.cardAccounts[0];
    for (const path of [
      `/v1/sandbox/customers/${customer.customerId}`,
      `/v1/sandbox/accounts/${account.resourceId}`,
      `/v1/sandbox/accounts/${account.resourceId}/transactions`,
      `/v1/sandbox/agreements/${agreement.agreementId}`,
      `/v1/sandbox/card-accounts/${card.resourceId}`,
      `/v1/sandbox/card-accounts/${card.resourceId}/transactions`,
    ]) {
      const peek = await other.get<any>(path);
      expect(peek.status, path).toBe(404);
      expect(peek.body.code).toBe('RESOURCE_UNKNOWN');
      expectBerlinGroupSchema('Error404_NG_AIS', peek.body);
    }
    const writes = [
      await other.delete(`/v1/sandbox/customers/${customer.customerId}`),
      await other.put(`/v1/sandbox/accounts/${account.resourceId}/balance`, { balanceAmount: { currency: 'NOK', amount: '0.00' } }),
      await other.post(`/v1/sandbox/accounts/${account.resourceId}/transactions/fill`, {
        count: 1,
        dateFrom: '2026-01-01',
        dateTo: '2026-01-02',
      }),
      await other.post(`/v1/sandbox/agreements/${agreement.agreementId}/engagements`, {
        customer: '13039319955',
        account: { bban: account.bban },
        roles: ['VIEW'],
      }),
    ];
    expect(writes.map((write) => write.status)).toEqual([404, 404, 404, 404]);
    expect(await listing(server.client)).toEqual(mine);
    const theirs = await listing(other);
    expect(theirs.customers.map((c: any) => c[0])).not.toContain('13039319955');
    expect(theirs.accounts.map((a: any) => a[1])).not.toContain('12341100028');
    expect(theirs.agreements).toEqual([]);
  });

  it('lets another TPP seed its own copy of the documented set beside this one', async () => {
    expect((await other.post('/v1/sandbox/initialize', undefined)).status).toBe(200);
    const theirs = await listing(other);
    expect(theirs.accounts).toEqual(ACCOUNTS);
    const mine = await listing(server.client);
    expect(mine.accounts).toEqual(ACCOUNTS);
    expect(theirs.raw.accounts.map((a: any) => a.resourceId)).not.toEqual(mine.raw.accounts.map((a: any) => a.resourceId));
  });

  it('serialises concurrent writes to one sandbox: initializes and creates at the same time all succeed', async () => {
    const results = await Promise.all([
      server.client.post('/v1/sandbox/initialize', undefined),
      server.client.post('/v1/sandbox/accounts', { customerNumber: '13039319955' }),
      server.client.post('/v1/sandbox/initialize', undefined),
      server.client.post('/v1/sandbox/customers', { customerNumber: '01019010046', customerType: 'PRIVATE', customerName: 'Samtidig' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 201, 200, 201]);
    await server.client.post('/v1/sandbox/initialize', undefined);
    const after = await listing(server.client);
    expect(after.customers).toEqual(CUSTOMERS);
    expect(after.accounts).toEqual(ACCOUNTS);
  });

  it('documents the mock-data API in the OpenAPI document', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(document.paths['/v1/sandbox/initialize']!)).toEqual(['post']);
    expect(Object.keys(document.paths['/v1/sandbox/accounts/{mockAccountId}/balance']!)).toEqual(['put']);
    expect(document.paths['/v1/sandbox/agreements/{mockAgreementId}/engagements']).toBeDefined();
    expect(document.paths['/v1/sandbox/card-accounts/{mockCardAccountId}/transactions']).toBeDefined();
  });

  it('needs a signature like every /v1 call', async () => {
    const response = await server.anonymous.post<any>('/v1/sandbox/initialize', undefined);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('SIGNATURE_MISSING');
  });
});

describe('mock data in production mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: PRODUCTION_ENV });
  });
  afterAll(() => server.close());

  it('does not exist: /v1/sandbox/* is 404 and undocumented', async () => {
    for (const [method, path] of [
      ['POST', '/v1/sandbox/initialize'],
      ['GET', '/v1/sandbox/customers'],
      ['POST', '/v1/sandbox/accounts'],
    ] as const) {
      const response = await server.client.call<any>(method, path, method === 'POST' ? { body: {} } : {});
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe('RESOURCE_UNKNOWN');
    }
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox'))).toEqual([]);
  });
});
