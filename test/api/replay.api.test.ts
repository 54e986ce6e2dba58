/**
 * Replay across methods (docs/design.md §5): the Norwegian profile's signature covers Date, Digest and
 * X-Request-ID but neither the method nor the path, so a captured signed request could be sent
 * again within the Date window as another operation. Every signed request's X-Request-ID is
 * recorded per TPP with its method, path and body digest, in the database: the same id with
 * another method or path is 400 FORMAT_ERROR (path X-Request-ID) and changes nothing; the
 * identical request is an idempotent retry. Runs on every dialect, and across two app instances
 * on one database.
 */
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { signRequest, type SigningCredentials } from '../../src/client/request-signer.js';
import type { TppClient } from '../../src/client/tpp-client.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import { createBasket } from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import { created, expectError, initiate, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Captured {
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

/** A request exactly as a minimal conformant TPP signs it: the required headers only, no (request-target). */
function capture(
  credentials: SigningCredentials,
  method: string,
  path: string,
  extra: Record<string, string> = {},
  body?: unknown,
): Captured {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers = signRequest(
    {
      method,
      path,
      headers: { accept: 'application/json', ...(bytes ? { 'content-type': 'application/json' } : {}), ...extra },
      ...(bytes ? { body: bytes } : {}),
    },
    credentials,
    { signRequestTarget: false, signOptionalHeaders: false },
  );
  return { headers, ...(bytes ? { body: bytes } : {}) };
}

/** Sends captured headers (and body) to any method and path, as an attacker on the wire would. */
async function send(baseUrl: string, method: string, path: string, captured: Captured) {
  const response = await httpRequest(new URL(path, baseUrl), {
    method: method as 'GET',
    headers: captured.headers,
    ...(captured.body ? { body: captured.body } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

describe.each(DIALECTS)('replay of a signed request as another operation (%s)', (dialect) => {
  let server: TestServer;
  let tpp: { credentials: SigningCredentials; client: TppClient };
  let psu: Psu;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    tpp = await server.newTpp('PSDNO-FSA-700000001');
    psu = await privatePsu(tpp.client);
  });
  afterAll(() => server.close());

  const statusOf = async (paymentPath: string) => (await tpp.client.get<any>(`${paymentPath}/status`)).body.transactionStatus;

  it('refuses a GET of a payment replayed as its DELETE (400 X-Request-ID), and the payment stays RCVD', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const captured = capture(tpp.credentials, 'GET', payment.path);
    expect((await send(server.baseUrl, 'GET', payment.path, captured)).status).toBe(200);

    const replayed = await send(server.baseUrl, 'DELETE', payment.path, captured);
    expect(replayed.status, replayed.text).toBe(400);
    expect(replayed.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ code: 'FORMAT_ERROR', path: 'X-Request-ID' }] });
    expect(replayed.body.tppMessages[0].text).toContain(`GET ${payment.path}`);
    expect(await statusOf(payment.path)).toBe('RCVD');
  });

  it('answers the identical GET again (an idempotent retry)', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const captured = capture(tpp.credentials, 'GET', payment.path);
    const first = await send(server.baseUrl, 'GET', payment.path, captured);
    const again = await send(server.baseUrl, 'GET', payment.path, captured);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
  });

  it('refuses a GET of a basket replayed as its DELETE, and the basket is not deleted', async () => {
    const payment = await created(
      initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), {
        headers: { ...psu.headers, 'tpp-explicit-authorisation-preferred': 'true' },
      }),
    );
    const basket = await createBasket(tpp.client, [payment.paymentId], psu.headers);
    const captured = capture(tpp.credentials, 'GET', basket.path);
    expect((await send(server.baseUrl, 'GET', basket.path, captured)).status).toBe(200);
    const replayed = await send(server.baseUrl, 'DELETE', basket.path, captured);
    expect(replayed.status, replayed.text).toBe(400);
    expect((await tpp.client.get<any>(`${basket.path}/status`)).body.transactionStatus).toBe('RCVD');
  });

  it('refuses a GET replayed as a sandbox reset (POST /v1/sandbox/initialize), and the mock data stays', async () => {
    const customers = async () => (await tpp.client.get<any>('/v1/sandbox/customers')).body;
    const before = await customers();
    const captured = capture(tpp.credentials, 'GET', '/v1/sandbox/customers');
    expect((await send(server.baseUrl, 'GET', '/v1/sandbox/customers', captured)).status).toBe(200);
    const replayed = await send(server.baseUrl, 'POST', '/v1/sandbox/initialize', captured);
    expect(replayed.status, replayed.text).toBe(400);
    expect(await customers()).toEqual(before);
  });

  it('binds the id of a refused request too: a 404 GET replayed as DELETE of a live payment is refused', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const unknown = `/v1/payments/${NDCT}/00000000-0000-4000-8000-000000000000`;
    const captured = capture(tpp.credentials, 'GET', unknown);
    expect((await send(server.baseUrl, 'GET', unknown, captured)).status).toBe(404);
    const replayed = await send(server.baseUrl, 'DELETE', payment.path, captured);
    expect(replayed.status, replayed.text).toBe(400);
    expect(await statusOf(payment.path)).toBe('RCVD');
  });

  it('binds the id of a request refused before its handler (bad header) to its operation', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const captured = capture(tpp.credentials, 'GET', payment.path, { 'psu-ip-address': 'not an address' });
    expect((await send(server.baseUrl, 'GET', payment.path, captured)).status).toBe(400);
    // The header is not signed: whoever replays the request leaves it out.
    const { 'psu-ip-address': _unsigned, ...headers } = captured.headers;
    const replayed = await send(server.baseUrl, 'DELETE', payment.path, { headers });
    expect(replayed.status, replayed.text).toBe(400);
    expect(replayed.body.tppMessages[0].path).toBe('X-Request-ID');
    expect(await statusOf(payment.path)).toBe('RCVD');
  });

  it('refuses a payment initiation replayed against another product, and creates nothing', async () => {
    const body = ndctBody(psu.account);
    const path = `/v1/payments/${NDCT}`;
    const captured = capture(tpp.credentials, 'POST', path, psu.headers, body);
    expect((await send(server.baseUrl, 'POST', path, captured)).status).toBe(201);
    const before = await server.database.db.selectFrom('payment').select('id').execute();
    const replayed = await send(server.baseUrl, 'POST', '/v1/payments/instant-norwegian-domestic-credit-transfers-straks', captured);
    expect(replayed.status, replayed.text).toBe(400);
    expect(replayed.body.tppMessages[0].path).toBe('X-Request-ID');
    expect(await server.database.db.selectFrom('payment').select('id').execute()).toHaveLength(before.length);
  });

  it('keeps the identical POST retry: the stored 201 again, one payment', async () => {
    const body = ndctBody(psu.account);
    const path = `/v1/payments/${NDCT}`;
    const captured = capture(tpp.credentials, 'POST', path, psu.headers, body);
    const first = await send(server.baseUrl, 'POST', path, captured);
    const again = await send(server.baseUrl, 'POST', path, captured);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.paymentId).toBe(first.body.paymentId);
  });

  it('takes a trailing slash as the same operation (the retry is not a replay)', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const captured = capture(tpp.credentials, 'GET', payment.path);
    expect((await send(server.baseUrl, 'GET', payment.path, captured)).status).toBe(200);
    expect((await send(server.baseUrl, 'GET', `${payment.path}/`, captured)).status).toBe(200);
  });

  it('takes an id the server issued, in capitals, as the same operation: the GET runs again, the POST retry gets its stored 201', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const upper = payment.path.replace(payment.paymentId, payment.paymentId.toUpperCase());
    const read = capture(tpp.credentials, 'GET', payment.path);
    expect((await send(server.baseUrl, 'GET', payment.path, read)).status).toBe(200);
    const readAgain = await send(server.baseUrl, 'GET', upper, read);
    expect(readAgain.status, readAgain.text).toBe(200);

    const authorisations = async () => (await tpp.client.get<any>(`${payment.path}/authorisations`)).body.authorisationIds;
    const start = capture(tpp.credentials, 'POST', `${payment.path}/authorisations`);
    const first = await send(server.baseUrl, 'POST', `${payment.path}/authorisations`, start);
    expect(first.status, first.text).toBe(201);
    const before = await authorisations();
    const retried = await send(server.baseUrl, 'POST', `${upper}/authorisations`, start);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.authorisationId).toBe(first.body.authorisationId);
    // Answered from the store, not run again: no other authorisation.
    expect(await authorisations()).toEqual(before);
  });

  it('accepts (request-target) when a TPP signs it, and refuses it sent elsewhere (401)', async () => {
    const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const headers = signRequest({ method: 'GET', path: payment.path, headers: { accept: 'application/json' } }, tpp.credentials);
    expect(headers['signature']).toContain('(request-target)');
    const elsewhere = await send(server.baseUrl, 'DELETE', payment.path, { headers });
    expect(elsewhere.status).toBe(401);
    expect((await send(server.baseUrl, 'GET', payment.path, { headers })).status).toBe(200);
    expect(await statusOf(payment.path)).toBe('RCVD');
  });

  it('records ids per TPP: another TPP may use the same X-Request-ID for anything', async () => {
    const other = await server.newTpp('PSDNO-FSA-700000002');
    const captured = capture(tpp.credentials, 'GET', '/v1/sandbox/customers');
    expect((await send(server.baseUrl, 'GET', '/v1/sandbox/customers', captured)).status).toBe(200);
    const response = await other.client.get('/v1/sandbox/accounts', { headers: { 'x-request-id': captured.headers['x-request-id']! } });
    expect(response.status).toBe(200);
  });

  it('shares the record between two instances on one database', async () => {
    const second = await buildApp(server.config, {
      database: server.database,
      trustStore: new TrustStore([server.ca.trustAnchor()]),
      sandboxCa: server.ca,
    });
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = second.server.address();
      const secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const payment = await created(initiate(tpp.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
      const captured = capture(tpp.credentials, 'GET', payment.path);
      expect((await send(server.baseUrl, 'GET', payment.path, captured)).status).toBe(200);
      const replayed = await send(secondUrl, 'DELETE', payment.path, captured);
      expect(replayed.status, replayed.text).toBe(400);
      expect(await statusOf(payment.path)).toBe('RCVD');
    } finally {
      await second.close();
    }
  });
});

describe('the record expires with the Date window', () => {
  let server: TestServer;
  let clock = Date.now();

  beforeAll(async () => {
    server = await startTestServer({ now: () => new Date(clock), env: { XS2A_MAX_CLOCK_SKEW_SECONDS: '60' } });
  });
  afterAll(() => server.close());

  it('forgets an id after 2 × skew + 60 s: by then its signature is refused as too old anyway', async () => {
    const { credentials } = await server.newTpp('PSDNO-FSA-700000003');
    const captured = capture(credentials, 'GET', '/v1/sandbox/customers');
    expect((await send(server.baseUrl, 'GET', '/v1/sandbox/customers', captured)).status).toBe(200);
    const requestId = captured.headers['x-request-id']!;
    // Within the window the old signature is refused as a replay …
    clock += 60_000;
    expect((await send(server.baseUrl, 'POST', '/v1/sandbox/initialize', captured)).status).toBe(400);
    // … and past it, by its Date, before the record is consulted.
    clock += 200_000;
    const stale = await send(server.baseUrl, 'POST', '/v1/sandbox/initialize', captured);
    expectError({ ...stale, body: stale.body } as any, 400, 'TIMESTAMP_INVALID', 'Date');
    // A fresh request of the TPP may now use the id for another operation.
    const fresh = signRequest(
      { method: 'GET', path: '/v1/sandbox/accounts', headers: { accept: 'application/json', 'x-request-id': requestId } },
      credentials,
      { date: new Date(clock) },
    );
    expect((await send(server.baseUrl, 'GET', '/v1/sandbox/accounts', { headers: fresh })).status).toBe(200);
  });
});
