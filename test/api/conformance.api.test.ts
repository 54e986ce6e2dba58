/**
 * A TPP that follows the requirement to the letter is served (docs/design.md §5, §2):
 * - it signs exactly the requirement's headers: `date`, `digest`, `x-request-id`, and `psu-id`,
 *   `psu-corporate-id`, `tpp-redirect-uri` when present; TPP-Nok-Redirect-URI and
 *   `(request-target)` unsigned are served, and the nok URI is where a rejected SCA ends;
 * - a path with one trailing slash answers as the path without it, on every route the API
 *   documents (the real bank's own collection sends `…/cancellation-authorisations/`).
 */
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/client/request-signer.js';
import type { TppClient } from '../../src/client/tpp-client.js';
import { walkScaRedirect } from '../../src/client/sca-redirect-driver.js';
import { created, initiate, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const OK_URI = 'https://tpp.example/ok';
const NOK_URI = 'https://tpp.example/nok';
/** Sign as a minimal conformant TPP: the requirement's headers only. */
const MINIMAL = { signOptionalHeaders: false, signRequestTarget: false } as const;

describe('signed headers exactly as the requirement says', () => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer();
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it('creates a payment with an unsigned TPP-Nok-Redirect-URI, and a rejected SCA ends there', async () => {
    const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      ...MINIMAL,
      headers: { ...psu.headers, 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI },
    });
    expect(response.status, response.text).toBe(201);
    const journey = await walkScaRedirect(response.body._links.scaRedirect.href, { psuId: psu.customerNumber, decision: 'reject' });
    expect(journey.redirectedTo).toMatch(/^https:\/\/tpp\.example\/nok/);
  });

  it('runs the explicit authorisation with an unsigned nok URI', async () => {
    const payment = await created(
      initiate(server.client, 'payments', NDCT, ndctBody(psu.account), {
        headers: { ...psu.headers, 'tpp-explicit-authorisation-preferred': 'true' },
      }),
    );
    const started = await server.client.post<any>(`${payment.path}/authorisations`, undefined, {
      ...MINIMAL,
      headers: { ...psu.headers, 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI },
    });
    expect(started.status, started.text).toBe(201);
    const journey = await walkScaRedirect(started.body._links.scaRedirect.href, { psuId: psu.customerNumber, decision: 'reject' });
    expect(journey.redirectedTo).toMatch(/^https:\/\/tpp\.example\/nok/);
  });

  it.each([
    ['psu-id', (psu: Psu) => psu.customerNumber],
    ['tpp-redirect-uri', () => OK_URI],
  ])('still refuses %s present but unsigned (401 SIGNATURE_INVALID)', async (header, value) => {
    const { credentials } = await server.newTpp('PSDNO-FSA-710000001');
    const body = Buffer.from(JSON.stringify(ndctBody(psu.account)));
    const path = `/v1/payments/${NDCT}`;
    const headers = signRequest({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body }, credentials, MINIMAL);
    headers[header] = value(psu);
    const response = await httpRequest(`${server.baseUrl}${path}`, { method: 'POST', headers, body });
    expect(response.statusCode).toBe(401);
    expect(await response.body.json()).toMatchObject({ code: 'SIGNATURE_INVALID' });
  });
});

describe('one trailing slash is the same resource', () => {
  let server: TestServer;
  let client: TppClient;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer();
    client = server.client;
    psu = await privatePsu(client);
  });
  afterAll(() => server.close());

  it('answers …/cancellation-authorisations/ as the real collection sends it', async () => {
    const payment = await created(initiate(client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const listed = await client.get<any>(`${payment.path}/cancellation-authorisations/`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual((await client.get<any>(`${payment.path}/cancellation-authorisations`)).body);
  });

  it('deletes a payment through DELETE …/{id}/', async () => {
    const payment = await created(initiate(client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    expect((await client.delete(`${payment.path}/`)).status).toBe(204);
    expect((await client.get<any>(`${payment.path}/status/`)).body.transactionStatus).toBe('CANC');
  });

  it('answers every documented operation with the same status and code with and without the slash', async () => {
    const payment = await created(initiate(client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const document = (await client.get<any>('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const ids: Record<string, string> = { paymentService: 'payments', paymentProduct: NDCT, paymentId: payment.paymentId };
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      if (!template.startsWith('/v1/')) continue;
      const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => ids[name] ?? `unknown-${name}`);
      for (const method of Object.keys(operations)) {
        // Reads and refusals only: a request that changes something is sent once per form below.
        if (method !== 'get') continue;
        const plain = await client.call<any>('GET', path, { headers: psu.headers });
        const slashed = await client.call<any>('GET', `${path}/`, { headers: psu.headers });
        expect({ path, status: slashed.status, code: slashed.body?.code }).toEqual({ path, status: plain.status, code: plain.body?.code });
        checked.push(path);
      }
    }
    expect(checked.length).toBeGreaterThan(15);
  });

  it('still tells a method the path does not have (405 with Allow) with the slash, and an unknown path 404; two slashes are not one', async () => {
    const response = await client.call<any>('PATCH', '/v1/signing-baskets/');
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toContain('POST');
    expect((await client.get<any>('/v1/no-such-thing/')).status).toBe(404);
    // Two slashes are not one: an empty id, refused as such.
    expect((await client.get<any>('/v1/signing-baskets//')).status).toBe(400);
  });
});
