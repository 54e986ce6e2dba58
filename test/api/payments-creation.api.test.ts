/**
 * Payment initiation (docs/design.md §2): `POST /v1/payments/{product}` for the five products, bulk and
 * periodic NDCT. A 201 is the Berlin Group body with transactionStatus RCVD, a Location and links
 * that lead to the payment, and ASPSP-SCA-Approach REDIRECT. A TPP without the PSP_PI role is
 * refused; a product the service does not offer is 404 PRODUCT_UNKNOWN naming the ones it does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  expectError,
  initiate,
  NDCT,
  pathOf,
  periodicBody,
  privatePsu,
  PRODUCTS,
  singleBody,
  type Body,
  type Psu,
  type Service,
} from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe.each(DIALECTS)('payment initiation (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const routes: [Service, string, () => Body][] = [
    ...PRODUCTS.map((product): [Service, string, () => Body] => ['payments', product, () => singleBody(product, psu.account)]),
    ['bulk-payments', NDCT, () => bulkBody(psu.account)],
    ['periodic-payments', NDCT, () => periodicBody(psu.account)],
  ];

  it.each(routes)('POST /v1/%s/%s: 201 RCVD, Location, REDIRECT approach, links that answer 200', async (service, product, body) => {
    const response = await initiate(server.client, service, product, body(), { headers: psu.headers });
    expect(response.status, response.text).toBe(201);
    expectBerlinGroupSchema('paymentInitiationRequestResponse-201', response.body);
    const { paymentId } = response.body;
    expect(paymentId).toMatch(UUID);
    expect(response.body.transactionStatus).toBe('RCVD');
    const self = `${server.config.publicUrl}/v1/${service}/${product}/${paymentId}`;
    expect(response.headers.location).toBe(self);
    expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(response.body._links.self).toEqual({ href: self });
    expect(response.body._links.status).toEqual({ href: `${self}/status` });

    const read = await server.client.get<any>(pathOf(response.body._links.self.href));
    expect(read.status, read.text).toBe(200);
    expect(read.body.transactionStatus).toBe('RCVD');
    const status = await server.client.get<any>(pathOf(response.body._links.status.href));
    expect(status.status, status.text).toBe(200);
    expect(status.body).toEqual({ transactionStatus: 'RCVD' });
  });

  it('gives payments and their authorisations ids in the order they were created (time-ordered UUIDs, version 7)', async () => {
    const paymentIds: string[] = [];
    const authorisationIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await initiate(server.client, 'payments', NDCT, singleBody(NDCT, psu.account), { headers: psu.headers });
      expect(response.status, response.text).toBe(201);
      paymentIds.push(response.body.paymentId);
      authorisationIds.push(pathOf(response.body._links.scaStatus.href).split('/').pop()!);
    }
    for (const ids of [paymentIds, authorisationIds]) {
      expect(
        ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
        ids.join(),
      ).toBe(true);
      expect([...ids].sort()).toEqual(ids);
    }
  });

  it('refuses a TPP without the PSP_PI role with 401 ROLE_INVALID, and creates nothing', async () => {
    const { client } = await server.newTpp('PSDNO-FSA-918273645', ['PSP_AI']);
    const requestId = randomUUID();
    const response = await initiate(client, 'payments', NDCT, singleBody(NDCT, psu.account), { headers: psu.headers, requestId });
    expectError(response, 401, 'ROLE_INVALID');
    expect(response.body.message).toContain('PSD2 role');
    const rows = await server.database.db.selectFrom('payment').select('id').where('request_id', '=', requestId).execute();
    expect(rows).toEqual([]);
  });

  it.each(['bulk-payments', 'periodic-payments'] as const)(
    'refuses a %s POST of a TPP without PSP_PI with 401 ROLE_INVALID',
    async (service) => {
      const { client } = await server.newTpp('PSDNO-FSA-918273646', ['PSP_AI']);
      const body = service === 'bulk-payments' ? bulkBody(psu.account) : periodicBody(psu.account);
      expectError(await initiate(client, service, NDCT, body, { headers: psu.headers }), 401, 'ROLE_INVALID');
    },
  );

  it('answers an unknown product with 404 PRODUCT_UNKNOWN naming the products offered', async () => {
    const response = await initiate(server.client, 'payments', 'target-2-payments', singleBody(NDCT, psu.account), {
      headers: psu.headers,
    });
    expectError(response, 404, 'PRODUCT_UNKNOWN', 'paymentProduct');
    for (const product of PRODUCTS) expect(response.body.message).toContain(product);
    // With the query an initiation takes, it is still the product that is unknown.
    const withQuery = await server.client.post<any>(
      '/v1/payments/target-2-payments?allowLogicalDuplicate=true',
      singleBody(NDCT, psu.account),
      {
        headers: psu.headers,
      },
    );
    expectError(withQuery, 404, 'PRODUCT_UNKNOWN', 'paymentProduct');
  });

  it.each([
    ['bulk-payments', 'sepa-credit-transfers'],
    ['periodic-payments', 'instant-norwegian-domestic-credit-transfers-straks'],
    ['periodic-payments', 'cross-border-credit-transfers'],
  ] as const)('answers POST /v1/%s/%s with 404 PRODUCT_UNKNOWN naming norwegian-domestic-credit-transfers', async (service, product) => {
    const body = service === 'bulk-payments' ? bulkBody(psu.account) : periodicBody(psu.account);
    const response = await initiate(server.client, service, product, body, { headers: psu.headers });
    expectError(response, 404, 'PRODUCT_UNKNOWN', 'paymentProduct');
    expect(response.body.tppMessages[0].text).toContain('norwegian-domestic-credit-transfers');
    expect(response.body.tppMessages[0].text).toContain(product);
  });

  it('answers a GET under an unknown product with 404 PRODUCT_UNKNOWN', async () => {
    const response = await server.client.get<any>('/v1/payments/target-2-payments/any-id');
    expectError(response, 404, 'PRODUCT_UNKNOWN', 'paymentProduct');
  });

  it('answers the refusal in Bokmål when Accept-Language is nb', async () => {
    const response = await initiate(server.client, 'payments', 'target-2-payments', {}, { headers: { 'accept-language': 'nb' } });
    expectError(response, 404, 'PRODUCT_UNKNOWN', 'paymentProduct');
    expect(response.body.message).toContain('Betalingstjenesten tilbyr ikke');
  });
});
