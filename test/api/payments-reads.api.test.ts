/**
 * Reading and cancelling payments (docs/design.md §2) of all three services: the GET answers the body as
 * submitted with its transactionStatus, the status resource the status alone; a payment is found
 * only by the TPP that created it and only under its own service and product (else 404
 * RESOURCE_UNKNOWN); a DELETE before the PSU approved it is 204 and CANC, and a second one 405;
 * that DELETE ends the payment's open authorisation at once, as a deleted consent's or basket's:
 * its scaStatus reads failed ("The app cancelled the payment") and its page says so, before any login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  created,
  expectError,
  INDCTS,
  initiate,
  NDCT,
  periodicBody,
  privatePsu,
  PRODUCTS,
  SCT,
  singleBody,
  wire,
  type Body,
  type Product,
  type Psu,
  type Service,
} from '../support/payments.js';
import { alertOf, buttonsOf, continueHrefOf, NOK_URI, OK_URI, openPage, readScaStatus } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const READ_SCHEMAS: Record<Service, string> = {
  payments: 'paymentInitiationWithStatusResponse',
  'bulk-payments': 'bulkPaymentInitiationWithStatusResponse',
  'periodic-payments': 'periodicPaymentInitiationWithStatusResponse',
};

describe.each(DIALECTS)('payment reads and cancellation (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  function bodyFor(service: Service, product: Product): Body {
    if (service === 'bulk-payments') return bulkBody(psu.account);
    if (service === 'periodic-payments') return periodicBody(psu.account, { dayOfExecution: '5' });
    return singleBody(product, psu.account);
  }

  async function create(service: Service, product: Product = NDCT) {
    const body = bodyFor(service, product);
    const { paymentId, path } = await created(initiate(server.client, service, product, body, { headers: psu.headers }));
    return { body, paymentId, path };
  }

  const everyKind: [Service, Product][] = [
    ...PRODUCTS.map((product): [Service, Product] => ['payments', product]),
    ['bulk-payments', NDCT],
    ['periodic-payments', NDCT],
  ];

  it.each(everyKind)('GET /v1/%s/%s/{id} answers the body as submitted with transactionStatus RCVD', async (service, product) => {
    const { body, path } = await create(service, product);
    const read = await server.client.get<any>(path);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema(READ_SCHEMAS[service], read.body);
    // A Straks payment answers the fee the bank charges for it (the sandbox's default NOK 5.00).
    const extra =
      service === 'periodic-payments'
        ? { nextExecutionDates: expect.any(Array) }
        : product === 'instant-norwegian-domestic-credit-transfers-straks'
          ? { transactionFees: { currency: 'NOK', amount: '5.00' }, transactionFeeIndicator: true }
          : {};
    expect(read.body).toEqual({ ...wire(body), transactionStatus: 'RCVD', ...extra });
  });

  it.each(everyKind)('GET /v1/%s/%s/{id}/status answers {transactionStatus: RCVD}', async (service, product) => {
    const { path } = await create(service, product);
    const status = await server.client.get<any>(`${path}/status`);
    expect(status.status, status.text).toBe(200);
    expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', status.body);
    expect(status.body).toEqual({ transactionStatus: 'RCVD' });
  });

  describe("another TPP's payment", () => {
    let other: Awaited<ReturnType<TestServer['newTpp']>>;
    beforeAll(async () => {
      other = await server.newTpp('PSDNO-FSA-192837465');
    });

    it.each(['payments', 'bulk-payments', 'periodic-payments'] as const)(
      'is 404 RESOURCE_UNKNOWN on GET, status and DELETE of %s, and stays RCVD',
      async (service) => {
        const { path } = await create(service);
        expectError(await other.client.get<any>(path), 404, 'RESOURCE_UNKNOWN', 'paymentId');
        expectError(await other.client.get<any>(`${path}/status`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
        expectError(await other.client.delete<any>(path), 404, 'RESOURCE_UNKNOWN', 'paymentId');
        expect((await server.client.get<any>(`${path}/status`)).body).toEqual({ transactionStatus: 'RCVD' });
      },
    );
  });

  it('refuses GET, status and DELETE of a TPP without PSP_PI with 401 ROLE_INVALID', async () => {
    const { path } = await create('payments');
    const { client } = await server.newTpp('PSDNO-FSA-192837466', ['PSP_AI']);
    expectError(await client.get<any>(path), 401, 'ROLE_INVALID');
    expectError(await client.get<any>(`${path}/status`), 401, 'ROLE_INVALID');
    expectError(await client.delete<any>(path), 401, 'ROLE_INVALID');
    expect((await server.client.get<any>(`${path}/status`)).body).toEqual({ transactionStatus: 'RCVD' });
  });

  it('answers an unknown payment id with 404 RESOURCE_UNKNOWN', async () => {
    const path = `/v1/payments/${NDCT}/00000000-0000-4000-8000-000000000000`;
    expectError(await server.client.get<any>(path), 404, 'RESOURCE_UNKNOWN', 'paymentId');
    expectError(await server.client.get<any>(`${path}/status`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
    expectError(await server.client.delete<any>(path), 404, 'RESOURCE_UNKNOWN', 'paymentId');
  });

  it('answers the right id under another product or service with 404 RESOURCE_UNKNOWN, and the DELETE cancels nothing', async () => {
    const { paymentId, path } = await create('payments', NDCT);
    for (const wrong of [
      `/v1/payments/${INDCTS}/${paymentId}`,
      `/v1/payments/${SCT}/${paymentId}`,
      `/v1/bulk-payments/${NDCT}/${paymentId}`,
    ]) {
      expectError(await server.client.get<any>(wrong), 404, 'RESOURCE_UNKNOWN', 'paymentId');
      expectError(await server.client.get<any>(`${wrong}/status`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
      expectError(await server.client.delete<any>(wrong), 404, 'RESOURCE_UNKNOWN', 'paymentId');
    }
    expect((await server.client.get<any>(`${path}/status`)).body).toEqual({ transactionStatus: 'RCVD' });
  });

  it('answers a bulk id under /periodic-payments with 404 RESOURCE_UNKNOWN', async () => {
    const { paymentId } = await create('bulk-payments');
    expectError(await server.client.get<any>(`/v1/periodic-payments/${NDCT}/${paymentId}`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
  });

  it.each([
    ['payments', NDCT],
    ['payments', INDCTS],
    ['payments', SCT],
    ['bulk-payments', NDCT],
    ['periodic-payments', NDCT],
  ] as [Service, Product][])(
    'DELETE of a RCVD %s %s: 204, then CANC with a psuMessage, and a second DELETE is 405 with Allow: GET, HEAD',
    async (service, product) => {
      const { body, path } = await create(service, product);
      const cancelled = await server.client.delete<any>(path);
      expect(cancelled.status, cancelled.text).toBe(204);
      expect(cancelled.text).toBe('');

      const status = await server.client.get<any>(`${path}/status`);
      expect(status.status).toBe(200);
      expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', status.body);
      expect(status.body).toEqual({ transactionStatus: 'CANC', psuMessage: expect.stringMatching(/\S/) });
      const read = await server.client.get<any>(path);
      expect(read.body.transactionStatus).toBe('CANC');
      expect(read.body.creditorName ?? read.body.payments).toEqual(body['creditorName'] ?? wire(body)['payments']);

      const again = await server.client.delete<any>(path);
      expectError(again, 405, 'CANCELLATION_INVALID');
      // RFC 9110 §15.5.6: the methods the payment still takes, the refused DELETE not among them.
      expect(again.headers['allow']).toBe('GET, HEAD');
      expect(again.body.message).toContain('CANC');
      expect((await server.client.get<any>(`${path}/status`)).body.transactionStatus).toBe('CANC');
    },
  );

  it.each([
    ['payments', NDCT],
    ['bulk-payments', NDCT],
    ['periodic-payments', NDCT],
  ] as [Service, Product][])(
    "DELETE of a RCVD %s %s ends its open authorisation at once: scaStatus failed with why, and the link's page says so",
    async (service, product) => {
      const { response, path } = await created(
        initiate(server.client, service, product, bodyFor(service, product), {
          headers: { ...psu.headers, 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI },
        }),
      );
      const links = response.body._links as Record<string, { href: string }>;
      expect((await server.client.delete<any>(path)).status).toBe(204);

      const english = await readScaStatus(server.client, links['scaStatus']!.href);
      expect(english.status, english.text).toBe(200);
      expectBerlinGroupSchema('scaStatusResponse', english.body);
      expect(english.body).toEqual({ scaStatus: 'failed', psuMessage: 'The app cancelled the payment' });
      const norwegian = await readScaStatus(server.client, links['scaStatus']!.href, 'nb');
      expect(norwegian.body).toEqual({ scaStatus: 'failed', psuMessage: 'Appen kansellerte betalingen' });

      // The link ends before the PSU identifies: no form to fill in, the reason and the way back.
      const page = await openPage(links['scaRedirect']!.href);
      expect(page.status).toBe(200);
      expect(alertOf(page.text)).toBe('The app cancelled the payment');
      expect(continueHrefOf(page.text)).toBe(NOK_URI);
      expect(buttonsOf(page.text)).toEqual([]);
      expect(page.text).not.toContain('<form');
      expect((await server.client.get<any>(`${path}/status`)).body).toEqual({
        transactionStatus: 'CANC',
        psuMessage: 'Cancelled by the TPP before the PSU approved it',
      });
    },
  );

  it('answers a GET with an unknown sub-resource with 404', async () => {
    const { path } = await create('payments');
    const response = await server.client.get<any>(`${path}/statuses`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('RESOURCE_UNKNOWN');
  });
});
