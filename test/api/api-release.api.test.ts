/**
 * The running server states the interface release it is, the newest entry of CHANGELOG.md: as
 * `info.version` of the OpenAPI document and in the `API-Release` header of every answer (a
 * signed success, errors, a 404, a malformed URL, a request Node cannot parse, the SCA pages, the
 * docs). The expected release is read from the file here with a plain look at its first release
 * heading, not with the server's parser, so a parser that picked the wrong entry fails this test.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { NDCT, ndctBody, privatePsu } from '../support/payments.js';
import { createPayment, openPage } from '../support/sca.js';
import { rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CHANGELOG = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
const NEWEST = /^## (\S+)/m.exec(CHANGELOG)?.[1];

describe.each(DIALECTS)('API-Release (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  async function plainGet(path: string, headers: Record<string, string> = {}) {
    const response = await httpRequest(new URL(path, server.baseUrl), { method: 'GET', headers });
    await response.body.text();
    return response;
  }

  it('reads the newest release from CHANGELOG.md', () => {
    expect(NEWEST).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+(\.[0-9]+)?$/);
  });

  it('is the OpenAPI document info.version, and its header', async () => {
    const response = await httpRequest(new URL('/openapi.json', server.baseUrl));
    const document = (await response.body.json()) as { info: { version: string } };
    expect(document.info.version).toBe(NEWEST);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on a signed success', async () => {
    const response = await server.client.put('/v1/tpps/NO-FSA-123456789/contact-information', { email: 'psd2@tpp.example' });
    expect(response.status).toBe(200);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on an error answer: an unsigned /v1 request', async () => {
    const response = await server.anonymous.get('/v1/tpps/NO-FSA-123456789/contact-information');
    expect(response.status).toBe(401);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on a signed request refused by validation', async () => {
    const response = await server.client.put('/v1/tpps/NO-FSA-123456789/contact-information', { email: 7 });
    expect(response.status).toBe(400);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it.each(['/v1/no-such-resource', '/nothing-here'])('is on the 404 of %s', async (path) => {
    const response = await server.client.get(path);
    expect(response.status).toBe(404);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on the 405 of a path without the method', async () => {
    const response = await server.client.call('PATCH', '/v1/tpps/NO-FSA-123456789/contact-information', { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on the answer to a malformed URL, given before any route or hook runs', async () => {
    const response = await plainGet('/v1/no-such-thing/%zz', { 'x-request-id': randomUUID() });
    expect(response.statusCode).toBe(400);
    expect(response.headers['api-release']).toBe(NEWEST);
  });

  it('is on the answer to headers too large for Node to parse', async () => {
    const raw = await rawExchange(
      server.baseUrl,
      `GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw.slice(0, raw.indexOf('\r\n\r\n'))).toContain(`\r\nAPI-Release: ${NEWEST}\r\n`);
  });

  it('is on the operational endpoints and the docs', async () => {
    for (const path of ['/health/live', '/health/ready', '/docs', '/docs/static/index.html', '/metrics']) {
      const response = await plainGet(path);
      expect(response.statusCode, path).toBeLessThan(400);
      expect(response.headers['api-release'], path).toBe(NEWEST);
    }
  });

  it("is on the PSU's SCA pages, a known link and an unknown one", async () => {
    const psu = await privatePsu(server.client);
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const page = await openPage(created.links['scaRedirect']!.href);
    expect(page.status).toBe(200);
    expect(page.headers['api-release']).toBe(NEWEST);
    const unknown = await openPage(new URL(`/sca/${randomUUID()}`, server.baseUrl).href);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['api-release']).toBe(NEWEST);
  });

  it('is one header, named once, on a compressed answer', async () => {
    const response = await httpRequest(new URL('/openapi.json', server.baseUrl), { headers: { 'accept-encoding': 'gzip' } });
    await response.body.arrayBuffer();
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['api-release']).toBe(NEWEST);
  });
});
