/**
 * `/v1/sandbox/customers`: create (201, Location, `_links.self` with verbs), list, read and delete
 * (which takes the customer's accounts, card accounts, agreement, engagements, transactions and
 * ledger postings with it); every refusal is a 4xx naming the field and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { createAccount, createCustomer, identityNumber, osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sandbox customers (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  const customers = async () => (await server.client.get<any>('/v1/sandbox/customers')).body.customers;

  it('creates a customer: 201 with the resource, Location and _links.self with its verbs', async () => {
    const customerNumber = identityNumber();
    const response = await server.client.post<any>('/v1/sandbox/customers', {
      customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Testodius Test2',
    });
    expect(response.status).toBe(201);
    const { customerId } = response.body;
    expect(customerId).toMatch(/^[0-9a-f-]{36}$/);
    const self = `${server.config.publicUrl}/v1/sandbox/customers/${customerId}`;
    expect(response.body).toEqual({
      customerId,
      customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Testodius Test2',
      _links: { self: { href: self, verbs: ['GET', 'DELETE'] } },
    });
    expect(response.headers.location).toBe(self);
    expect((await server.client.get<any>(`/v1/sandbox/customers/${customerId}`)).body).toEqual(response.body);
    expect(await customers()).toContainEqual(response.body);
  });

  it('accepts D-numbers and corporate customers', async () => {
    const response = await server.client.post<any>('/v1/sandbox/customers', {
      customerNumber: '41018036736',
      customerType: 'CORPORATE',
      customerName: 'Fjellvind Konsult AS',
    });
    expect(response.status).toBe(201);
    expect(response.body.customerType).toBe('CORPORATE');
  });

  it('refuses a customer number this TPP already has with 409, and changes nothing', async () => {
    const existing = await createCustomer(server.client);
    const before = await customers();
    const response = await server.client.post<any>('/v1/sandbox/customers', {
      customerNumber: existing.customerNumber,
      customerType: 'CORPORATE',
      customerName: 'Duplicate',
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'RESOURCE_EXISTS', tppMessages: [{ path: 'customerNumber' }] });
    expect(response.body.message).toContain(existing.customerNumber);
    expectBerlinGroupSchema('Error409_NG_AIS', response.body);
    expect(await customers()).toEqual(before);
  });

  it('lets another TPP use the same customer number in its own sandbox', async () => {
    const existing = await createCustomer(server.client);
    const other = await server.newTpp('PSDNO-FSA-555555555');
    const response = await other.client.post<any>('/v1/sandbox/customers', {
      customerNumber: existing.customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Same number, other sandbox',
    });
    expect(response.status).toBe(201);
  });

  it.each([
    [{ customerNumber: '13039319956', customerType: 'PRIVATE', customerName: 'X' }, 'customerNumber', 'second check digit'],
    [{ customerNumber: '1303931995', customerType: 'PRIVATE', customerName: 'X' }, 'customerNumber', 'must be 11 digits'],
    [{ customerNumber: '31029912345', customerType: 'PRIVATE', customerName: 'X' }, 'customerNumber', ''],
    [{ customerNumber: 13039319955, customerType: 'PRIVATE', customerName: 'X' }, 'customerNumber', 'must be string'],
    [{ customerNumber: '01085800481', customerType: 'private', customerName: 'X' }, 'customerType', ''],
    [{ customerNumber: '01085800481', customerType: 'PRIVATE' }, 'customerName', 'is missing'],
    [{ customerNumber: '01085800481', customerType: 'PRIVATE', customerName: '' }, 'customerName', ''],
    [{ customerNumber: '01085800481', customerType: 'PRIVATE', customerName: '  ' }, 'customerName', ''],
    [{ customerNumber: '01085800481', customerType: 'PRIVATE', customerName: 'x'.repeat(71) }, 'customerName', ''],
    [{ customerNumber: '01085800481', customerType: 'PRIVATE', customerName: 'X', type: 'private' }, 'type', ''],
  ])('refuses %j with 400 naming %s', async (body, path, text) => {
    const before = await customers();
    const response = await server.client.post<any>('/v1/sandbox/customers', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', path }] });
    expect(response.body.message).toContain(text);
    expectBerlinGroupSchema('Error400_NG_AIS', response.body);
    expect(await customers()).toEqual(before);
  });

  it('answers an unknown customer id with 404', async () => {
    for (const response of [
      await server.client.get<any>('/v1/sandbox/customers/00000000-0000-4000-8000-000000000000'),
      await server.client.delete<any>('/v1/sandbox/customers/no-such-customer'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'RESOURCE_UNKNOWN', tppMessages: [{ path: 'customerId' }] });
      expectBerlinGroupSchema('Error404_NG_AIS', response.body);
    }
  });

  it('deletes a customer with everything that hangs on it, and nothing else', async () => {
    const corporation = await createCustomer(server.client, 'CORPORATE', 'Slettes AS');
    const psu = await createCustomer(server.client);
    const bystander = await createCustomer(server.client);
    const account = await createAccount(server.client, corporation.customerNumber);
    const psuAccount = await createAccount(server.client, psu.customerNumber);
    const card = (await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: corporation.customerNumber })).body;
    await server.client.post('/v1/sandbox/agreements', {
      owner: corporation.customerNumber,
      engagements: [{ customer: psu.customerNumber, account: { bban: account.bban }, roles: ['VIEW'] }],
    });
    await server.client.post(`/v1/sandbox/accounts/${account.resourceId}/transactions/fill`, {
      count: 5,
      dateFrom: osloDay(-30),
      dateTo: osloDay(-1),
    });
    await server.client.put(`/v1/sandbox/accounts/${psuAccount.resourceId}/balance`, {
      balanceAmount: { currency: 'NOK', amount: '100.00' },
    });

    const response = await server.client.delete(`/v1/sandbox/customers/${corporation.customerId}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await server.client.get(`/v1/sandbox/customers/${corporation.customerId}`)).status).toBe(404);
    expect((await server.client.get(`/v1/sandbox/accounts/${account.resourceId}`)).status).toBe(404);
    expect((await server.client.get(`/v1/sandbox/card-accounts/${card.resourceId}`)).status).toBe(404);
    const agreements = (await server.client.get<any>('/v1/sandbox/agreements')).body.agreements;
    expect(agreements.map((a: any) => a.owner)).not.toContain(corporation.customerNumber);
    const ledger = await server.database.db
      .selectFrom('ledger_entry')
      .select('account_id')
      .where('account_id', '=', account.resourceId)
      .execute();
    expect(ledger).toEqual([]);
    // The PSU, its own account and balance, and the bystander stay.
    expect((await server.client.get(`/v1/sandbox/customers/${psu.customerId}`)).status).toBe(200);
    expect((await server.client.get(`/v1/sandbox/customers/${bystander.customerId}`)).status).toBe(200);
    const kept = await server.client.get<any>(`/v1/sandbox/accounts/${psuAccount.resourceId}`);
    expect(kept.body.balances[0].balanceAmount.amount).toBe('100.00');
    const audit = await server.database.db
      .selectFrom('audit_event')
      .select(['action', 'details'])
      .where('resource_id', '=', corporation.customerId)
      .where('action', '=', 'sandbox.customer.deleted')
      .execute();
    expect(audit.map((event) => JSON.parse(event.details))).toEqual([
      // The five filled transactions were its own mock data: removed; no payment linked it to anyone.
      { customerNumber: corporation.customerNumber, accounts: 1, cardAccounts: 1, postingsRemoved: 5, postingsMovedToClearing: 0 },
    ]);
  });

  it('deleting a PSU removes its engagements but keeps the corporation and its accounts', async () => {
    const corporation = await createCustomer(server.client, 'CORPORATE', 'Blir AS');
    const psu = await createCustomer(server.client);
    const account = await createAccount(server.client, corporation.customerNumber);
    const agreement = (
      await server.client.post<any>('/v1/sandbox/agreements', {
        owner: corporation.customerNumber,
        engagements: [{ customer: psu.customerNumber, account: { iban: account.iban }, roles: ['REGISTER', 'VIEW'] }],
      })
    ).body;
    expect(agreement.engagements).toHaveLength(1);
    expect((await server.client.delete(`/v1/sandbox/customers/${psu.customerId}`)).status).toBe(204);
    const after = await server.client.get<any>(`/v1/sandbox/agreements/${agreement.agreementId}`);
    expect(after.status).toBe(200);
    expect(after.body.engagements).toEqual([]);
    expect((await server.client.get(`/v1/sandbox/accounts/${account.resourceId}`)).status).toBe(200);
  });
});
