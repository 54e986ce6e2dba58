/**
 * Operations and the sandbox certificate desk (docs/design.md §5, §6, §7): liveness and readiness probes,
 * the OpenAPI document and its UI, `POST /sandbox/tpp-certificates` (an unsigned endpoint that
 * issues QSealCs a TPP can then sign with), and its absence in production mode.
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { TppClient, type TppResponse } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { fixture } from '../support/fixtures.js';
import { DIALECTS } from '../support/databases.js';
import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server.js';

const DESK = '/sandbox/tpp-certificates';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function rsaKeys(bits = 2048) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function expectFormatError(response: TppResponse<any>, path: string): void {
  expect(response.status).toBe(400);
  expect(Object.keys(response.body).sort()).toEqual(['code', 'id', 'message', 'status', 'system', 'tppMessages']);
  expect(response.body).toMatchObject({ id: expect.stringMatching(UUID), system: 'nordic-xs2a', status: 400, code: 'FORMAT_ERROR' });
  expect(response.body.tppMessages).toEqual([{ category: 'ERROR', code: 'FORMAT_ERROR', path, text: response.body.message }]);
  expectBerlinGroupSchema('Error400_NG_PIS', response.body);
}

describe('health probes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(['/health/live', '/health/ready'])('answers %s with 200 {status: ok}, unsigned and without X-Request-ID', async (path) => {
    const response = await fetch(new URL(path, server.baseUrl));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe.each(DIALECTS)('readiness without a database (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('answers /health/ready with 503 {status: unavailable} once the database is gone, while /health/live stays 200', async () => {
    expect((await fetch(new URL('/health/ready', server.baseUrl))).status).toBe(200);
    await server.database.close();
    const ready = await fetch(new URL('/health/ready', server.baseUrl));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable' });
    const live = await fetch(new URL('/health/live', server.baseUrl));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
  });
});

describe('API documentation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('serves /openapi.json as an OpenAPI 3 document of the routes', async () => {
    const response = await fetch(new URL('/openapi.json', server.baseUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    const contact = document.paths['/v1/tpps/{tppId}/contact-information'];
    expect(contact).toBeDefined();
    expect(Object.keys(contact ?? {})).toEqual(expect.arrayContaining(['put', 'get']));
    expect(Object.keys(document.paths[DESK] ?? {})).toContain('post');
    expect(document.paths['/openapi.json']).toBeUndefined();
  });

  it('serves the documentation UI at /docs as HTML', async () => {
    const response = await fetch(new URL('/docs', server.baseUrl), { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await response.text()).toLowerCase()).toContain('<html');
  });
});

describe('sandbox certificate desk: POST /sandbox/tpp-certificates', () => {
  let server: TestServer;
  let keys: ReturnType<typeof rsaKeys>;
  beforeAll(async () => {
    server = await startTestServer();
    keys = rsaKeys();
  });
  afterAll(() => server.close());

  const request = (overrides: Record<string, unknown> = {}) => ({
    publicKey: keys.publicKeyPem,
    organizationIdentifier: 'PSDNO-FSA-424242424',
    name: 'Desk Test AS',
    roles: ['PSP_PI', 'PSP_AI'],
    ...overrides,
  });

  it('issues a QSealC from the sandbox CA with which the TPP can then sign API calls', async () => {
    const issued = await server.anonymous.post<any>(DESK, request());
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      certificate: expect.stringMatching(/^-----BEGIN CERTIFICATE-----/),
      serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
      keyId: expect.stringMatching(/^SN=[0-9A-F]+,CA=/),
      validTo: expect.any(String),
      caCertificate: server.ca.certificatePem,
    });
    const certificate = new X509Certificate(issued.body.certificate);
    expect(certificate.subject).toContain('PSDNO-FSA-424242424');
    expect(certificate.checkIssued(server.ca.trustAnchor())).toBe(true);
    expect(certificate.serialNumber.toUpperCase()).toBe(issued.body.serialNumber);
    expect(new Date(issued.body.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);

    const credentials = credentialsFromPem(keys.privateKeyPem, issued.body.certificate);
    const tpp = new TppClient(server.baseUrl, credentials);
    const put = await tpp.put('/v1/tpps/NO-FSA-424242424/contact-information', { email: 'desk@tpp.example' });
    expect(put.status).toBe(200);
    // The keyId the desk hands out is one the server accepts as it is.
    const withDeskKeyId = new TppClient(server.baseUrl, { ...credentials, keyId: issued.body.keyId });
    const get = await withDeskKeyId.get<any>('/v1/tpps/PSDNO-FSA-424242424/contact-information');
    expect(get.status).toBe(200);
    expect(get.body.email).toBe('desk@tpp.example');
  });

  it('gives the certificate only the roles asked for', async () => {
    const aisKeys = rsaKeys();
    const issued = await server.anonymous.post<any>(
      DESK,
      request({ publicKey: aisKeys.publicKeyPem, organizationIdentifier: 'PSDNO-FSA-434343434', roles: ['PSP_AI'] }),
    );
    expect(issued.status).toBe(201);
    const tpp = new TppClient(server.baseUrl, credentialsFromPem(aisKeys.privateKeyPem, issued.body.certificate));
    const put = await tpp.put('/v1/tpps/NO-FSA-434343434/contact-information', { email: 'ais@tpp.example' });
    expect(put.status).toBe(200);
    const row = await server.database.db.selectFrom('tpp').select('roles').where('id', '=', 'PSDNO-FSA-434343434').executeTakeFirst();
    expect(row).toEqual({ roles: 'PSP_AI' });
  });

  it.each(['NO-FSA-123456789', 'PSDNO-FSA-', 'psdno-fsa-123', 'PSDNO-FSA-123 456', 'PSDNORWAY-FSA-1', `PSDNO-FSA-${'1'.repeat(36)}`, ''])(
    'refuses organizationIdentifier %j with 400 FORMAT_ERROR',
    async (organizationIdentifier) => {
      expectFormatError(await server.anonymous.post(DESK, request({ organizationIdentifier })), 'organizationIdentifier');
    },
  );

  it.each([
    [
      'an EC key',
      () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      '2048',
    ],
    ['a 1024-bit RSA key', () => rsaKeys(1024).publicKeyPem, '2048'],
    ['an Ed25519 key', () => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(), '2048'],
    ['text that is no key', () => 'hello', 'not a PEM public key'],
    ['a private key in place of the public one', () => rsaKeys().privateKeyPem, 'not a PEM public key'],
    ['a certificate in place of the public key', () => fixture('certs/generated/test-leaf-qsealc.pem'), 'not a PEM public key'],
  ])('refuses %s with 400 FORMAT_ERROR path publicKey', async (_name, publicKey, reason) => {
    const response = await server.anonymous.post<any>(DESK, request({ publicKey: publicKey() }));
    expectFormatError(response, 'publicKey');
    expect(response.body.message).toContain(reason);
  });

  it('accepts an RSA public key in PKCS#1 PEM (BEGIN RSA PUBLIC KEY) too', async () => {
    const pkcs1 = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    const response = await server.anonymous.post(DESK, request({ publicKey: pkcs1, organizationIdentifier: 'PSDNO-FSA-444444444' }));
    expect(response.status).toBe(201);
  });

  it.each([
    [{ roles: ['PSP_XX'] }, 'roles[0]'],
    [{ roles: ['PSP_PI', 'psp_ai'] }, 'roles[1]'],
    [{ roles: [] }, 'roles'],
    [{ roles: ['PSP_PI', 'PSP_PI'] }, 'roles'],
    [{ roles: 'PSP_PI' }, 'roles'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(65) }, 'name'],
    [{ extra: true }, 'extra'],
  ])('refuses %j with 400 FORMAT_ERROR naming %s', async (overrides, path) => {
    expectFormatError(await server.anonymous.post(DESK, request(overrides)), path);
  });

  it.each(['publicKey', 'organizationIdentifier', 'name', 'roles'])(
    'refuses a request without %s with 400 FORMAT_ERROR naming it',
    async (field) => {
      const body: Record<string, unknown> = request();
      delete body[field];
      expectFormatError(await server.anonymous.post(DESK, body), field);
    },
  );

  it('refuses a request without X-Request-ID with 400 FORMAT_ERROR', async () => {
    const response = await fetch(new URL(DESK, server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request()),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ code: 'FORMAT_ERROR', path: 'X-Request-ID' }] });
  });

  it('refuses malformed JSON with 400 FORMAT_ERROR path body', async () => {
    expectFormatError(await server.anonymous.post(DESK, Buffer.from('{"publicKey":')), 'body');
  });

  it('refuses Accept: text/html with 406', async () => {
    const response = await server.anonymous.post<any>(DESK, request(), { headers: { accept: 'text/html' } });
    expect(response.status).toBe(406);
    expect(response.body.code).toBe('REQUESTED_FORMATS_INVALID');
  });
});

describe('production mode (XS2A_MODE=production)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: PRODUCTION_ENV });
  });
  afterAll(() => server.close());

  it('has no sandbox certificate desk: POST /sandbox/tpp-certificates is 404', async () => {
    const response = await server.anonymous.post<any>(DESK, {
      publicKey: rsaKeys().publicKeyPem,
      organizationIdentifier: 'PSDNO-FSA-1',
      name: 'X',
      roles: ['PSP_PI'],
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 404, code: 'RESOURCE_UNKNOWN' });
    expectBerlinGroupSchema('Error404_NG_PIS', response.body);
  });

  it('does not document the desk either', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, unknown> };
    expect(document.paths[DESK]).toBeUndefined();
    expect(document.paths['/v1/tpps/{tppId}/contact-information']).toBeDefined();
  });

  it('still serves signed API calls and the probes', async () => {
    const put = await server.client.put('/v1/tpps/NO-FSA-123456789/contact-information', { email: 'prod@tpp.example' });
    expect(put.status).toBe(200);
    expect((await fetch(new URL('/health/live', server.baseUrl))).status).toBe(200);
  });

  it('still requires signatures', async () => {
    const response = await server.anonymous.get<any>('/v1/tpps/NO-FSA-123456789/contact-information');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('SIGNATURE_MISSING');
  });
});
