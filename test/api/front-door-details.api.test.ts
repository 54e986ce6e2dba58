/**
 * Finer front-door rules: bodies are validated strictly (a number is not a string) while query
 * strings, path parameters and headers are converted from text; a missing body field is named;
 * requests Node cannot parse still get the error body; with XS2A_REQUIRE_SIGNATURE=false a request
 * that carries a certificate but no signature is a forgotten signature, not the sandbox TPP; an
 * X-Request-ID is the same id in any letter case for safe retries.
 */
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateHeader } from '../../src/client/request-signer.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
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
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE', system: 'nordic-xs2a' });
  });

  it('answers a request that is not HTTP with 400 and the error body', async () => {
    const raw = await rawExchange(server.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('"code":"FORMAT_ERROR"');
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

function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
  });
}
