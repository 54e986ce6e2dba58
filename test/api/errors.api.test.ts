/**
 * Platform errors (docs/design.md §2 content negotiation and X-Request-ID, §4 the error body): unknown
 * routes and methods, Accept / Content-Type / body-size refusals, malformed JSON and schema
 * violations with the offending path, the bare 500, the language of the texts, compression, and
 * that a refused request changes nothing. Everything goes through the real server socket.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { request as httpRequest } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signRequest, type SigningCredentials } from '../../src/client/request-signer.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTACT = '/v1/tpps/NO-FSA-123456789/contact-information';
const BG_SCHEMA: Record<number, string> = {
  400: 'Error400_NG_PIS',
  401: 'Error401_NG_PIS',
  404: 'Error404_NG_PIS',
  405: 'Error405_NG_PIS',
  406: 'Error406_NG_PIS',
  409: 'Error409_NG_PIS',
};

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  raw: Buffer;
}

/** Sends exactly the given headers (no Accept, no X-Request-ID added) and reads the raw answer. */
async function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const response = await httpRequest(new URL(path, baseUrl), {
    method: method as 'GET',
    headers,
    ...(body ? { body } : {}),
  });
  const raw = Buffer.from(await response.body.arrayBuffer());
  const json = String(response.headers['content-type'] ?? '').includes('json') && !response.headers['content-encoding'];
  return {
    status: response.statusCode,
    headers: response.headers,
    body: json && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8'),
    raw,
  };
}

/** The docs/design.md §4 error body, exactly: `{id, system, status, code, message, tppMessages}`. */
function expectError(body: any, status: number, code: string, path?: string): void {
  expect(Object.keys(body).sort()).toEqual(['code', 'id', 'message', 'status', 'system', 'tppMessages']);
  expect(body.id).toMatch(UUID);
  expect(body).toMatchObject({ system: 'nordic-xs2a', status, code });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.tppMessages).toHaveLength(1);
  expect(body.tppMessages[0]).toEqual({ category: 'ERROR', code, text: body.message, ...(path !== undefined ? { path } : {}) });
  const schema = BG_SCHEMA[status];
  if (schema) {
    expectBerlinGroupSchema(schema, body);
  }
}

describe('platform errors', () => {
  let server: TestServer;
  /** Credentials of the default TPP (a second certificate of PSDNO-FSA-123456789), for hand-made requests. */
  let credentials: SigningCredentials;

  beforeAll(async () => {
    server = await startTestServer({
      extraV1Routes: async (v1) => {
        v1.get('/test/boom', async () => {
          throw new Error('SELECT pin FROM vault WHERE customer = 13039319955');
        });
        v1.get('/test/bad-sql', async () => {
          await sql`select secret_column from no_such_table`.execute(server.database.db);
          return { unreachable: true };
        });
        v1.post(
          '/test/schema',
          {
            schema: {
              body: Type.Object(
                {
                  creditorAccount: Type.Object({ bban: Type.String({ pattern: '^[0-9]{11}$' }) }),
                  items: Type.Array(Type.Object({ amount: Type.String() })),
                },
                { additionalProperties: false },
              ),
            },
          },
          async () => ({ accepted: true }),
        );
      },
    });
  });
  afterAll(() => server.close());
  beforeAll(async () => {
    credentials = (await server.newTpp('PSDNO-FSA-123456789')).credentials;
  });

  describe('routing', () => {
    it.each(['/v1/no-such-thing', '/v1/tpps/NO-FSA-123456789', '/nothing-here'])(
      'answers an unknown path %s with 404 RESOURCE_UNKNOWN',
      async (path) => {
        const response = await server.client.get<any>(path);
        expect(response.status).toBe(404);
        expectError(response.body, 404, 'RESOURCE_UNKNOWN');
      },
    );

    it.each(['DELETE', 'POST', 'PATCH'])('answers %s on an existing path with 405 SERVICE_INVALID and an Allow header', async (method) => {
      const response = await server.client.call<any>(method, CONTACT, method === 'DELETE' ? {} : { body: { email: 'a@b.example' } });
      expect(response.status).toBe(405);
      expectError(response.body, 405, 'SERVICE_INVALID');
      const allow = String(response.headers['allow']).split(/,\s*/);
      expect(allow).toEqual(expect.arrayContaining(['GET', 'PUT']));
      expect(allow).not.toContain(method);
    });
  });

  describe('malformed request lines', () => {
    it('answers a trailing slash after an existing path as the path itself: GET served, DELETE 405 with Allow', async () => {
      expect((await server.client.put(CONTACT, { email: 'slash@tpp.example' })).status).toBe(200);
      const plain = await server.client.get<any>(CONTACT);
      const slashed = await server.client.get<any>(`${CONTACT}/`);
      expect([slashed.status, slashed.body]).toEqual([plain.status, plain.body]);
      const response = await server.client.call<any>('DELETE', `${CONTACT}/`);
      expect(response.status).toBe(405);
      expect(String(response.headers['allow']).split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'PUT']));
    });

    it.each(['/v1/tpps/%E0%A4%A/contact-information', '/v1/no-such-thing/%zz'])(
      'answers a broken percent-encoding in %s with the error body: 400 FORMAT_ERROR',
      async (path) => {
        const response = await server.client.get<any>(path);
        expect(response.status).toBe(400);
        expectError(response.body, 400, 'FORMAT_ERROR');
      },
    );

    // No id the server hands out is that long: an unknown id, 404 as any other (the router cannot name the parameter).
    it('answers an over-long path parameter with the error body: 404 RESOURCE_UNKNOWN', async () => {
      const response = await server.client.get<any>(`/v1/tpps/${'X'.repeat(5000)}/contact-information`);
      expect(response.status).toBe(404);
      expectError(response.body, 404, 'RESOURCE_UNKNOWN');
    });
  });

  describe('Accept', () => {
    it('refuses Accept: text/html on /v1 with 406 REQUESTED_FORMATS_INVALID, in JSON', async () => {
      const response = await server.client.get<any>(CONTACT, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(406);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expectError(response.body, 406, 'REQUESTED_FORMATS_INVALID', 'Accept');
    });

    it.each(['application/xml', 'text/html;q=1, application/json;q=0'])('refuses Accept: %s with 406', async (accept) => {
      const response = await server.client.get<any>(CONTACT, { headers: { accept } });
      expect(response.status).toBe(406);
      expectError(response.body, 406, 'REQUESTED_FORMATS_INVALID', 'Accept');
    });

    it.each(['*/*', 'application/*', 'application/json', 'text/html, application/json;q=0.5'])('serves Accept: %s', async (accept) => {
      await server.client.put<any>(CONTACT, { email: 'accept@tpp.example' });
      const response = await server.client.get<any>(CONTACT, { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    });

    it('serves a request without any Accept header', async () => {
      await server.client.put<any>(CONTACT, { email: 'accept@tpp.example' });
      const headers = signRequest({ method: 'GET', path: CONTACT }, credentials);
      expect(Object.keys(headers)).not.toContain('accept');
      const response = await send(server.baseUrl, 'GET', CONTACT, headers);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ email: 'accept@tpp.example' });
    });
  });

  describe('request bodies', () => {
    it('refuses Content-Type: text/plain with 415', async () => {
      const response = await server.client.put<any>(CONTACT, Buffer.from('email=a@b.example'), {
        headers: { 'content-type': 'text/plain' },
      });
      expect(response.status).toBe(415);
      expectError(response.body, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it.each([
      ['gzip-compressed', 'gzip', gzipSync(Buffer.from('{"email":"zip@tpp.example"}'))],
      ['labelled gzip but sent plain', 'gzip', Buffer.from('{"email":"zip@tpp.example"}')],
      ['labelled deflate', 'Deflate', Buffer.from('{"email":"zip@tpp.example"}')],
      ['labelled identity, gzip', 'identity, gzip', Buffer.from('{"email":"zip@tpp.example"}')],
    ])('refuses a correctly signed body %s with 415: bodies are sent uncompressed, changing nothing', async (_, coding, body) => {
      await server.client.put<any>(CONTACT, { email: 'before@tpp.example' });
      // Signed over the bytes as sent, so only the content coding is wrong.
      const response = await server.client.put<any>(CONTACT, body, { headers: { 'content-encoding': coding } });
      expect(response.status).toBe(415);
      expectError(response.body, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding');
      expect(response.body.message).toContain('uncompressed');
      expect(response.body.message).not.toContain('application/json');
      expect((await server.client.get<any>(CONTACT)).body).toMatchObject({ email: 'before@tpp.example' });
    });

    it.each(['identity', 'IDENTITY'])('accepts a body sent with Content-Encoding: %s', async (coding) => {
      const response = await server.client.put<any>(CONTACT, Buffer.from('{"email":"identity@tpp.example"}'), {
        headers: { 'content-encoding': coding },
      });
      expect(response.status, response.text).toBe(200);
    });

    it('refuses a correctly signed body over 1 MiB with 413', async () => {
      const body = Buffer.from(JSON.stringify({ email: 'a@b.example', padding: 'x'.repeat(1024 * 1024) }));
      const response = await server.client.put<any>(CONTACT, body);
      expect(response.status).toBe(413);
      expectError(response.body, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('refuses an unsigned body over 1 MiB with 413 too: the size is checked before the signature', async () => {
      const body = Buffer.alloc(1024 * 1024 + 1, 0x20);
      const response = await server.anonymous.put<any>(CONTACT, body);
      expect(response.status).toBe(413);
      expectError(response.body, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a body of exactly 1 MiB past the size check (it then fails on content, not size)', async () => {
      const head = '{"email":"a@b.example","padding":"';
      const body = Buffer.from(head + 'x'.repeat(1024 * 1024 - head.length - 2) + '"}');
      expect(body.length).toBe(1024 * 1024);
      const response = await server.client.put<any>(CONTACT, body);
      expect(response.status).toBe(400);
      expectError(response.body, 400, 'FORMAT_ERROR', 'padding');
    });

    it.each(['{"email": ', '{email: "a@b.example"}', '{"email":"a@b.example"}}', '\u00ff'])(
      'refuses malformed JSON %j with 400 FORMAT_ERROR path body',
      async (text) => {
        const response = await server.client.put<any>(CONTACT, Buffer.from(text, 'utf8'));
        expect(response.status).toBe(400);
        expectError(response.body, 400, 'FORMAT_ERROR', 'body');
      },
    );

    it('refuses a JSON route called without a body with 400 FORMAT_ERROR', async () => {
      const response = await server.client.put<any>(CONTACT, undefined);
      expect(response.status).toBe(400);
      expectError(response.body, 400, 'FORMAT_ERROR', 'body');
    });

    it.each([
      [{ items: [] }, 'creditorAccount'],
      [{ creditorAccount: {}, items: [] }, 'creditorAccount.bban'],
      [{ creditorAccount: { bban: '12' }, items: [] }, 'creditorAccount.bban'],
      [{ creditorAccount: { bban: '12345678903' }, items: [{ amount: '1.00' }, { amount: 2 }] }, 'items[1].amount'],
      [{ creditorAccount: { bban: '12345678903' }, items: [], debtor: 'x' }, 'debtor'],
      [{ creditorAccount: { bban: '12345678903' }, items: {} }, 'items'],
    ])('refuses a schema violation %j with 400 FORMAT_ERROR naming %s', async (body, path) => {
      const response = await server.client.post<any>('/v1/test/schema', body);
      expect(response.status).toBe(400);
      expectError(response.body, 400, 'FORMAT_ERROR', path);
      expect(response.body.message).toContain(path);
    });

    it('serves the same route when the body is valid', async () => {
      const response = await server.client.post<any>('/v1/test/schema', {
        creditorAccount: { bban: '12345678903' },
        items: [{ amount: '1.00' }],
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ accepted: true });
    });
  });

  describe('500', () => {
    it.each(['/v1/test/boom', '/v1/test/bad-sql'])(
      'answers a bug in %s with a bare SYSTEM_ERROR: an id, no message, no detail',
      async (path) => {
        const response = await server.client.get<any>(path, { headers: { 'accept-language': 'nb' } });
        expect(response.status).toBe(500);
        expect(response.body).toEqual({
          id: expect.stringMatching(UUID),
          system: 'nordic-xs2a',
          status: 500,
          code: 'SYSTEM_ERROR',
          tppMessages: [{ category: 'ERROR', code: 'SYSTEM_ERROR' }],
        });
        expect(response.body).not.toHaveProperty('message');
        expect(response.body.tppMessages[0]).not.toHaveProperty('text');
        for (const leak of [
          'SELECT',
          'select',
          'vault',
          '13039319955',
          'no_such_table',
          'secret_column',
          'stack',
          'Error',
          '.ts',
          'node_modules',
        ]) {
          expect(response.text).not.toContain(leak);
        }
      },
    );

    it('gives each 500 its own id', async () => {
      const first = await server.client.get<any>('/v1/test/boom');
      const second = await server.client.get<any>('/v1/test/boom');
      expect(first.body.id).not.toBe(second.body.id);
    });
  });

  describe('Accept-Language', () => {
    it('answers in English with Content-Language: en by default', async () => {
      const response = await server.client.get<any>('/v1/no-such-thing');
      expect(response.headers['content-language']).toBe('en');
      expect(response.body.message).toBe('There is no operation at this path');
    });

    it.each(['nb', 'nb-NO', 'no', 'nn', 'nb;q=0.9, en;q=0.1'])(
      'answers Accept-Language: %s in Bokmål with Content-Language: nb',
      async (language) => {
        const response = await server.client.get<any>('/v1/no-such-thing', { headers: { 'accept-language': language } });
        expect(response.headers['content-language']).toBe('nb');
        expect(response.body.message).toBe('Det finnes ingen operasjon på denne adressen');
        expect(response.body.tppMessages[0].text).toBe(response.body.message);
      },
    );

    it.each(['de', 'en-GB', 'en;q=0.9, nb;q=0.1'])('answers Accept-Language: %s in English', async (language) => {
      const response = await server.client.get<any>('/v1/no-such-thing', { headers: { 'accept-language': language } });
      expect(response.headers['content-language']).toBe('en');
      expect(response.body.message).toBe('There is no operation at this path');
    });

    it('translates the detail too, and labels successful answers', async () => {
      const missing = await send(server.baseUrl, 'GET', CONTACT, { 'accept-language': 'nb' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Forespørselen har feil format: X-Request-ID-headeren mangler');
      await server.client.put<any>(CONTACT, { email: 'lang@tpp.example' });
      const ok = await server.client.get<any>(CONTACT, { headers: { 'accept-language': 'nb' } });
      expect(ok.status).toBe(200);
      expect(ok.headers['content-language']).toBe('nb');
    });
  });

  describe('X-Request-ID', () => {
    it('refuses a request without X-Request-ID with 400 FORMAT_ERROR path X-Request-ID', async () => {
      const response = await send(server.baseUrl, 'GET', CONTACT, { accept: 'application/json' });
      expect(response.status).toBe(400);
      expectError(response.body, 400, 'FORMAT_ERROR', 'X-Request-ID');
      expect(response.headers['x-request-id']).toBeUndefined();
    });

    it.each([
      'not-a-uuid',
      '99391c7e-ad88-49ec-a2ad-99ddcb1f772',
      '99391c7e-ad88-49ec-a2ad-99ddcb1f7721x',
      '99391c7ezad88-49ec-a2ad-99ddcb1f7721',
      'g9391c7e-ad88-49ec-a2ad-99ddcb1f7721',
      '',
    ])('refuses X-Request-ID %j with 400 FORMAT_ERROR and does not echo it', async (requestId) => {
      const headers = signRequest({ method: 'GET', path: CONTACT, headers: { 'x-request-id': requestId } }, credentials);
      const response = await send(server.baseUrl, 'GET', CONTACT, headers);
      expect(response.status).toBe(400);
      expectError(response.body, 400, 'FORMAT_ERROR', 'X-Request-ID');
      expect(response.headers['x-request-id']).toBeUndefined();
    });

    it('echoes a valid X-Request-ID on a success', async () => {
      await server.client.put<any>(CONTACT, { email: 'echo@tpp.example' });
      const requestId = randomUUID().toUpperCase();
      const response = await server.client.get<any>(CONTACT, { headers: { 'x-request-id': requestId } });
      expect(response.status).toBe(200);
      expect(response.headers['x-request-id']).toBe(requestId);
    });

    it.each([
      ['a 404 of an unknown path', '/v1/no-such-thing', {}, 404],
      ['a 405', CONTACT, { method: 'DELETE' }, 405],
      ['a 406', CONTACT, { accept: 'text/html' }, 406],
      ['a 401', CONTACT, { unsigned: true }, 401],
      ['a 500', '/v1/test/boom', {}, 500],
    ] as const)('echoes a valid X-Request-ID on %s', async (_name, path, variant, status) => {
      const requestId = randomUUID();
      const response = await server.client.call<any>('method' in variant ? variant.method : 'GET', path, {
        headers: { 'x-request-id': requestId, ...('accept' in variant ? { accept: variant.accept } : {}) },
        ...('unsigned' in variant ? { unsigned: true } : {}),
      });
      expect(response.status).toBe(status);
      expect(response.headers['x-request-id']).toBe(requestId);
    });
  });

  describe('compression', () => {
    it('gzips a large answer when the client accepts gzip', async () => {
      const response = await send(server.baseUrl, 'GET', '/openapi.json', { 'accept-encoding': 'gzip' });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      const document = JSON.parse(gunzipSync(response.raw).toString('utf8'));
      expect(document.openapi).toMatch(/^3\./);
      expect(response.raw.length).toBeLessThan(Buffer.byteLength(JSON.stringify(document)));
    });

    it('deflates when the client accepts only deflate', async () => {
      const response = await send(server.baseUrl, 'GET', '/openapi.json', { 'accept-encoding': 'deflate' });
      expect(response.headers['content-encoding']).toBe('deflate');
      expect(JSON.parse(inflateSync(response.raw).toString('utf8')).openapi).toMatch(/^3\./);
    });

    it('sends plain JSON when the client does not ask for compression', async () => {
      const response = await send(server.baseUrl, 'GET', '/openapi.json', {});
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.openapi).toMatch(/^3\./);
    });
  });

  describe('refusals change nothing', () => {
    beforeEach(async () => {
      const put = await server.client.put<any>(CONTACT, { email: 'kept@tpp.example' });
      expect(put.status).toBe(200);
    });

    async function state() {
      const db = server.database.db;
      const contact = await db.selectFrom('tpp_contact').selectAll().where('tpp_id', '=', 'PSDNO-FSA-123456789').execute();
      const audit = await db
        .selectFrom('audit_event')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      // A refused request's id is bound to its operation (replay protection, see replay.api.test.ts); no answer is kept.
      const idempotency = await db
        .selectFrom('idempotency_record')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('state', '!=', 'refused')
        .executeTakeFirstOrThrow();
      return { contact, audit: Number(audit.n), idempotency: Number(idempotency.n) };
    }

    const refusals: [string, number, (server: TestServer) => Promise<{ status: number }>][] = [
      [
        'text/plain',
        415,
        (s) => s.client.put(CONTACT, Buffer.from('{"email":"new@tpp.example"}'), { headers: { 'content-type': 'text/plain' } }),
      ],
      [
        'too large',
        413,
        (s) => s.client.put(CONTACT, Buffer.from(JSON.stringify({ email: 'new@tpp.example', pad: 'x'.repeat(1024 * 1024) }))),
      ],
      ['malformed JSON', 400, (s) => s.client.put(CONTACT, Buffer.from('{"email":"new@tpp.example"'))],
      ['schema violation', 400, (s) => s.client.put(CONTACT, { email: 'new@tpp.example', extra: true })],
      ['Accept: text/html', 406, (s) => s.client.put(CONTACT, { email: 'new@tpp.example' }, { headers: { accept: 'text/html' } })],
      [
        'no X-Request-ID',
        400,
        (s) => send(s.baseUrl, 'PUT', CONTACT, { 'content-type': 'application/json' }, Buffer.from('{"email":"new@tpp.example"}')),
      ],
      ['unsigned', 401, (s) => s.anonymous.put(CONTACT, { email: 'new@tpp.example' })],
      ['wrong method', 405, (s) => s.client.post(CONTACT, { email: 'new@tpp.example' })],
    ];

    it.each(refusals)(
      'a PUT refused for %s (%i) leaves contact, audit and idempotency records as they were',
      async (_name, status, attempt) => {
        const before = await state();
        const response = await attempt(server);
        expect(response.status).toBe(status);
        expect(await state()).toEqual(before);
        const get = await server.client.get<any>(CONTACT);
        expect(get.body).toMatchObject({ email: 'kept@tpp.example' });
      },
    );
  });
});
