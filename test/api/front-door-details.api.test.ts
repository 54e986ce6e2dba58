/**
 * Finer front-door rules: bodies are validated strictly (a number is not a string) while query
 * strings, path parameters and headers are converted from text; a missing body field is named;
 * requests Node cannot parse still get the error body; with XS2A_REQUIRE_SIGNATURE=false a request
 * that carries a certificate but no signature is a forgotten signature, not the sandbox TPP; an
 * X-Request-ID is the same id in any letter case for safe retries.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { certificateHeader, signRequest } from '../../src/client/request-signer.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

async function probeRoutes(v1: FastifyInstance): Promise<void> {
  v1.post(
    '/test/probe/:count',
    {
      schema: {
        params: Type.Object({ count: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), flag: Type.Optional(Type.Boolean()) }),
        body: Type.Object({ amount: Type.String(), note: Type.Optional(Type.String()) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => reply.code(201).send({ params: request.params, query: request.query, body: request.body }),
  );
}

describe('front door details', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ extraV1Routes: probeRoutes });
  });
  afterAll(() => server.close());

  it('converts query strings and path parameters to their schema types', async () => {
    const response = await server.client.post('/v1/test/probe/3?limit=5&flag=true', { amount: '10.00' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ params: { count: 3 }, query: { limit: 5, flag: true }, body: { amount: '10.00' } });
  });

  it('refuses a query value that is not of its type, naming it', async () => {
    const response = await server.client.post('/v1/test/probe/3?limit=many', { amount: '10.00' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: 'limit' }] });
  });

  it('never converts body values: a number where a string is due is refused', async () => {
    const response = await server.client.post('/v1/test/probe/3', { amount: 10 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: 'amount' }] });
    expectBerlinGroupSchema('Error400_NG_PIS', response.body);
  });

  it('says a missing field is missing, naming it once', async () => {
    const response = await server.client.post<{ message: string }>('/v1/test/probe/3', { note: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ tppMessages: [{ path: 'amount' }] });
    expect(response.body.message).toBe('The request is not well formed: amount is missing');
  });

  it('answers oversized request headers with 431 and the error body', async () => {
    const raw = await rawExchange(
      server.baseUrl,
      `GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(raw.slice(0, raw.indexOf('\r\n\r\n')).toLowerCase()).toContain('x-content-type-options: nosniff');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE', system: 'nordic-xs2a' });
  });

  it('answers a request that is not HTTP with 400 and the error body', async () => {
    const raw = await rawExchange(server.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('"code":"FORMAT_ERROR"');
  });

  it('answers an Expect header other than 100-continue with 417 and the error body', async () => {
    const requestId = randomUUID();
    const raw = await rawExchange(
      server.baseUrl,
      `POST /v1/test/probe/3 HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${requestId}\r\nAccept-Language: nb\r\n` +
        `Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 417 /);
    const head = raw.slice(0, raw.indexOf('\r\n\r\n')).toLowerCase();
    expect(head).toContain('content-type: application/json; charset=utf-8');
    expect(head).toContain(`x-request-id: ${requestId}`);
    expect(head).toMatch(/\r\napi-release: \d+\.\d+\.\d+/);
    expect(head).toContain('content-language: nb');
    expect(head).toContain('x-content-type-options: nosniff');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 417,
      code: 'EXPECTATION_FAILED',
      system: 'nordic-xs2a',
      tppMessages: [{ category: 'ERROR', code: 'EXPECTATION_FAILED', path: 'Expect' }],
    });
    expect(body['message']).toMatch(/^Expect-headeren/);
  });

  it('keeps the connection after a 417, the refused body skipped, and refuses an HTTP/1.0 expectation alike', async () => {
    const raw = await rawExchange(
      server.baseUrl,
      'POST /v1/test/probe/3 HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}' +
        'GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 417 [\s\S]*"code":"EXPECTATION_FAILED"[\s\S]*HTTP\/1\.1 200 /);
    const old = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.0\r\nHost: localhost\r\nExpect: 200-ok\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 417 [\s\S]*"path":"Expect"/);
  });

  it('answers Expect: 100-continue with 100 Continue, then the request as usual', async () => {
    const raw = await rawExchange(
      server.baseUrl,
      'GET /health/live HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('answers an over-long path parameter 404 RESOURCE_UNKNOWN without echoing the URL', async () => {
    const id = 'a'.repeat(150);
    const response = await server.client.get<{ message: string; tppMessages: { path?: string }[] }>(
      `/v1/payments/norwegian-domestic-credit-transfers/${id}`,
    );
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'RESOURCE_UNKNOWN' });
    expect(response.body.message).toMatch(/: no resource has an id of more than 100 characters$/);
    expect(response.body.message).not.toContain(id);
    expectBerlinGroupSchema('Error404_NG_PIS', response.body);
  });

  it('answers a malformed percent-encoding in the path 400 FORMAT_ERROR without echoing the URL', async () => {
    const response = await server.client.get<{ message: string }>('/v1/payments/norwegian-domestic-credit-transfers/%ZZ');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR' });
    expect(response.body.message).toMatch(/: the path holds a malformed percent-encoding$/);
    expect(response.body.message).not.toContain('/v1');
    expectBerlinGroupSchema('Error400_NG_PIS', response.body);
  });

  it('refuses a fragment in the request target (RFC 9112 §3.2) instead of reading it as a query name', async () => {
    const target = '/v1/sandbox/clock#frag';
    const credentials = (await server.newTpp('PSDNO-FSA-300000001')).credentials;
    const headers = signRequest({ method: 'GET', path: target, headers: { accept: 'application/json' } }, credentials);
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const raw = await rawExchange(
      server.baseUrl,
      `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${lines.join('')}\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { code: string; message: string; tppMessages: { path?: string }[] };
    expect(body).toMatchObject({ code: 'FORMAT_ERROR' });
    expect(body.message).toMatch(/: the request target holds a fragment \(#\), which is not sent in HTTP$/);
    expect(body.tppMessages[0]?.path).toBeUndefined();
    expect(raw.toLowerCase()).toContain(`x-request-id: ${headers['x-request-id']}`);
  });

  it('recognises a retried X-Request-ID in another letter case', async () => {
    const id = 'A3BB189E-8BF9-4888-9912-ACE4E6543002';
    const first = await server.client.post('/v1/test/probe/1', { amount: '1.00' }, { headers: { 'X-Request-ID': id } });
    const retry = await server.client.post('/v1/test/probe/1', { amount: '2.00' }, { headers: { 'X-Request-ID': id.toLowerCase() } });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'REQUEST_ID_REUSED' });
    expect(retry.headers['x-request-id']).toBe(id.toLowerCase());
  });
});

describe('review fixes of the front door', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const path = '/v1/tpps/NO-FSA-123456789/contact-information';

  it('accepts Accept: application/json; charset=utf-8', async () => {
    const response = await server.client.put(path, { email: 'a@tpp.example' }, { headers: { Accept: 'application/json; charset=utf-8' } });
    expect(response.status).toBe(200);
  });

  it('serves TPP-Nok-Redirect-URI unsigned (the requirement does not list it), and verifies it when it is signed', async () => {
    const { credentials } = await server.newTpp('PSDNO-FSA-666666666');
    const target = '/v1/tpps/NO-FSA-666666666/contact-information';
    const body = Buffer.from(JSON.stringify({ email: 'a@tpp.example' }));
    const unsigned = signRequest(
      {
        method: 'PUT',
        path: target,
        headers: { 'content-type': 'application/json', 'tpp-nok-redirect-uri': 'https://tpp.example/nok' },
        body,
      },
      credentials,
      { signOptionalHeaders: false, signRequestTarget: false },
    );
    expect(unsigned['signature']).not.toContain('tpp-nok-redirect-uri');
    const served = await request(`${server.baseUrl}${target}`, { method: 'PUT', headers: unsigned, body });
    expect(served.statusCode, await served.body.text()).toBe(200);

    const signed = signRequest(
      {
        method: 'PUT',
        path: target,
        headers: { 'content-type': 'application/json', 'tpp-nok-redirect-uri': 'https://tpp.example/nok' },
        body,
      },
      credentials,
    );
    expect(signed['signature']).toContain('tpp-nok-redirect-uri');
    signed['tpp-nok-redirect-uri'] = 'https://evil.example/steal';
    const response = await request(`${server.baseUrl}${target}`, { method: 'PUT', headers: signed, body });
    expect(response.statusCode).toBe(401);
    expect(await response.body.json()).toMatchObject({ code: 'SIGNATURE_INVALID' });
  });

  it('binds the SDK signature to method and path: a captured request does not work elsewhere', async () => {
    const body = Buffer.alloc(0);
    const { credentials } = await server.newTpp('PSDNO-FSA-777777777');
    const headers = signRequest({ method: 'GET', path: '/v1/tpps/NO-FSA-777777777/contact-information', body }, credentials);
    const replayed = await request(`${server.baseUrl}/v1/tpps/NO-FSA-777777777/contact-information`, { method: 'DELETE', headers });
    expect([401, 405]).toContain(replayed.statusCode);
    const elsewhere = await request(`${server.baseUrl}/v1/tpps/PSDNO-FSA-777777777/contact-information`, { method: 'GET', headers });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('does not inflate a compressed body before checking its Digest', async () => {
    const { credentials } = await server.newTpp('PSDNO-FSA-888888888');
    const json = Buffer.from(JSON.stringify({ email: 'zip@tpp.example' }));
    // Signed over the JSON, sent gzip-compressed: the Digest no longer matches the bytes sent.
    const headers = signRequest(
      { method: 'PUT', path: '/v1/tpps/NO-FSA-888888888/contact-information', headers: { 'content-type': 'application/json' }, body: json },
      credentials,
    );
    const response = await request(`${server.baseUrl}/v1/tpps/NO-FSA-888888888/contact-information`, {
      method: 'PUT',
      headers: { ...headers, 'content-encoding': 'gzip' },
      body: gzipSync(json),
    });
    expect(response.statusCode).toBe(401);
    expect(await response.body.json()).toMatchObject({ code: 'SIGNATURE_INVALID' });
  });

  it('frees the X-Request-ID of a refused PUT for its correction', async () => {
    const id = randomUUID();
    const refused = await server.client.put(path, { email: 'not an address' }, { headers: { 'X-Request-ID': id } });
    expect(refused.status).toBe(400);
    const corrected = await server.client.put(path, { email: 'fixed@tpp.example' }, { headers: { 'X-Request-ID': id } });
    expect(corrected.status).toBe(200);
  });

  it('runs a retried PUT again with the same answer and refuses the same X-Request-ID with another body or PSU', async () => {
    const id = randomUUID();
    const first = await server.client.put(path, { email: 'first@tpp.example' }, { headers: { 'X-Request-ID': id } });
    const retry = await server.client.put(path, { email: 'first@tpp.example' }, { headers: { 'X-Request-ID': id } });
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    const otherBody = await server.client.put(path, { email: 'second@tpp.example' }, { headers: { 'X-Request-ID': id } });
    expect(otherBody.status).toBe(409);
    const otherPsu = await server.client.put(
      path,
      { email: 'first@tpp.example' },
      { headers: { 'X-Request-ID': id, 'PSU-ID': '31129956715' } },
    );
    expect(otherPsu.status).toBe(409);
    const stored = await server.client.get<{ email: string }>(path);
    expect(stored.body.email).toBe('first@tpp.example');
  });
});

describe('keyId written by Java (RFC 2253 with #hex values)', () => {
  it('matches an issuer attribute given as BER hex', async () => {
    const { parseKeyId } = await import('../../src/security/signature/key-id.js');
    const { sameAttributes, parseDistinguishedName } = await import('../../src/security/signature/distinguished-name.js');
    // 0x0C = UTF8String, length 19, "PSDNO-FSA-123456789"
    const hex = Buffer.concat([Buffer.from([0x0c, 19]), Buffer.from('PSDNO-FSA-123456789')]).toString('hex');
    const keyId = parseKeyId(`SN=1A,CA=2.5.4.97=#${hex},CN=Test CA,C=NO`);
    expect(keyId).toBeDefined();
    expect(sameAttributes(keyId!.issuer, parseDistinguishedName('C=NO, CN=Test CA, organizationIdentifier=PSDNO-FSA-123456789')!)).toBe(
      true,
    );
  });
});

describe('unsigned sandbox access (XS2A_REQUIRE_SIGNATURE=false)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { XS2A_REQUIRE_SIGNATURE: 'false' } });
  });
  afterAll(() => server.close());

  it('treats a certificate without a signature as a forgotten signature', async () => {
    const { credentials } = await server.newTpp('PSDNO-FSA-555555555');
    const response = await server.anonymous.put(
      '/v1/tpps/NO-FSA-555555555/contact-information',
      { email: 'a@tpp.example' },
      { headers: { 'TPP-Signature-Certificate': certificateHeader(credentials.certificate) } },
    );
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'SIGNATURE_MISSING' });
    expectBerlinGroupSchema('Error401_NG_PIS', response.body);
  });
});
