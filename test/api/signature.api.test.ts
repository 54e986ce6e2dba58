/**
 * The signed front door (docs/design.md §5, docs/design.md §5): every /v1 request carries a
 * draft-cavage-http-signatures-10 signature made with an eIDAS QSealC. Missing or malformed
 * Signature / certificate / Digest / Date, tampering after signing, keyId forms, certificate
 * validity, trust, QCStatement, block list, revocation and PSD2 roles, PSU-ID after the signature,
 * RFC 2047 wrapping, and the unsigned sandbox TPP (XS2A_REQUIRE_SIGNATURE=false). Each refusal is
 * checked for its status, code and path, and every 401 against the Berlin Group Error401 schema.
 */
import { createHash, generateKeyPairSync, randomUUID, sign, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { request as httpRequest } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, type SignOptions, type SigningCredentials, type UnsignedRequest } from '../../src/client/request-signer.js';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { buildSigningString } from '../../src/security/signature/signing-string.js';
import { encodeQsealcStatements, QC_STATEMENTS_OID } from '../../src/security/certificates/qc-statements.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { readRevocationList, TrustStore } from '../../src/security/certificates/trust-store.js';
import { x509 } from '../../src/security/certificates/x509.js';
import type { Psd2Role } from '../../src/security/tpp-identity.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { fixture } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHOAMI = '/v1/test/whoami';
const PAYMENTS = '/v1/test/payments';
const CONTACT = '/v1/tpps/NO-FSA-123456789/contact-information';
const DAY = 86_400_000;
const FULL_DAY: Record<string, string> = {
  Sun: 'Sunday',
  Mon: 'Monday',
  Tue: 'Tuesday',
  Wed: 'Wednesday',
  Thu: 'Thursday',
  Fri: 'Friday',
  Sat: 'Saturday',
};
const tempDirs: string[] = [];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** Test routes inside the signed /v1 scope: who the front door says is calling, and a PIS-only one. */
async function testRoutes(v1: FastifyInstance): Promise<void> {
  v1.get('/test/whoami', async (request) => ({
    tpp: request.ctx.tpp?.id,
    roles: request.ctx.tpp?.roles,
    psuId: request.ctx.headers?.psuId?.number,
  }));
  v1.get('/test/payments', { config: { requiredRole: 'PSP_PI' } }, async (request) => ({ initiatedBy: request.ctx.tpp?.id }));
}

/** Sends the headers as given (array form keeps duplicates) and parses the JSON answer. */
async function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> | string[],
  body?: Buffer,
): Promise<Answer> {
  const response = await httpRequest(new URL(path, baseUrl), { method: method as 'GET', headers, ...(body ? { body } : {}) });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    body: String(response.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text,
  };
}

interface Exchange {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly options?: SignOptions;
  /** Changes the signed headers before sending (remove, alter, add). */
  readonly tamper?: (headers: Record<string, string>) => void;
  /** Bytes to send instead of the body that was signed. */
  readonly sendBody?: Buffer;
}

/** Signs a request the way a TPP does, lets the test break it, and sends it. */
async function signedCall(server: TestServer, credentials: SigningCredentials, exchange: Exchange = {}): Promise<Answer> {
  const method = exchange.method ?? 'GET';
  const path = exchange.path ?? WHOAMI;
  const body =
    exchange.body === undefined ? undefined : Buffer.isBuffer(exchange.body) ? exchange.body : Buffer.from(JSON.stringify(exchange.body));
  const request: UnsignedRequest = {
    method,
    path,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...exchange.headers },
    ...(body ? { body } : {}),
  };
  const headers = signRequest(request, credentials, exchange.options);
  exchange.tamper?.(headers);
  return send(server.baseUrl, method, path, headers, exchange.sendBody ?? body);
}

/** A tamper that sends `date` as Date, signed: the SDK writes only IMF-fixdate. */
function signedDate(
  credentials: SigningCredentials,
  date: string,
  method = 'GET',
  path = WHOAMI,
): (headers: Record<string, string>) => void {
  return (headers) => {
    headers['date'] = date;
    const names = signatureParameter(headers, 'headers').split(' ');
    const signingString = buildSigningString(names, {
      method,
      target: path,
      header: (name) => (headers[name] === undefined ? undefined : [headers[name]]),
    });
    if (!signingString.ok) throw new Error(`cannot sign ${signingString.missingHeader}`);
    withSignatureParameter(headers, 'signature', sign('sha256', signingString.bytes, credentials.privateKey).toString('base64'));
  };
}

/** Replaces one parameter of the Signature header. */
function withSignatureParameter(headers: Record<string, string>, name: string, value: string): void {
  const pattern = new RegExp(`${name}="[^"]*"`);
  expect(headers['signature']).toMatch(pattern);
  headers['signature'] = (headers['signature'] ?? '').replace(pattern, `${name}="${value}"`);
}

function signatureParameter(headers: Record<string, string>, name: string): string {
  return new RegExp(`${name}="([^"]*)"`).exec(headers['signature'] ?? '')?.[1] ?? '';
}

/**
 * A refusal with the docs/design.md §4 body. `path` undefined: the certificate problems, which may name
 * TPP-Signature-Certificate or no path at all.
 */
function expectRefusal(answer: Answer, status: 400 | 401, code: string, path?: string): void {
  expect(answer.status).toBe(status);
  const body = answer.body;
  expect(Object.keys(body).sort()).toEqual(['code', 'id', 'message', 'status', 'system', 'tppMessages']);
  expect(body.id).toMatch(UUID);
  expect(body).toMatchObject({ system: 'nordic-xs2a', status, code });
  expect(body.tppMessages).toHaveLength(1);
  expect(body.tppMessages[0]).toMatchObject({ category: 'ERROR', code, text: body.message });
  if (path !== undefined) {
    expect(body.tppMessages[0].path).toBe(path);
  } else if (body.tppMessages[0].path !== undefined) {
    expect(body.tppMessages[0].path).toBe('TPP-Signature-Certificate');
  }
  expectBerlinGroupSchema(status === 401 ? 'Error401_NG_PIS' : 'Error400_NG_PIS', body);
}

function rsaKey(bits = 2048): { publicKey: KeyObject; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { publicKey, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** A QSealC from `ca` for a fresh key, issued as if on `issuedAt`. */
async function issue(ca: SandboxCa, organizationIdentifier: string, roles: readonly Psd2Role[] = ['PSP_PI', 'PSP_AI'], issuedAt?: Date) {
  const key = rsaKey();
  const issued = await ca.issueQsealc(
    { organizationIdentifier, name: `${organizationIdentifier} AS`, roles, publicKey: key.publicKey },
    issuedAt,
  );
  return { credentials: credentialsFromPem(key.privateKeyPem, issued.certificatePem), issued };
}

async function newCa(): Promise<SandboxCa> {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-ca-'));
  tempDirs.push(dir);
  return SandboxCa.open(dir);
}

/**
 * A self-signed certificate with an organizationIdentifier (so a trust store can hold it as its
 * own anchor), with or without the PSD2 QCStatement: the pair isolates the QCStatement rule.
 */
async function selfSigned(organizationIdentifier: string, withPsd2Statement: boolean): Promise<SigningCredentials> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '5a17c0ffee01',
    name: [
      { C: ['NO'] },
      { O: [`${organizationIdentifier} AS`] },
      { '2.5.4.97': [organizationIdentifier] },
      { CN: [`${organizationIdentifier} AS`] },
    ],
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    signingAlgorithm: algorithm,
    keys,
    extensions: withPsd2Statement
      ? [
          new x509.Extension(
            QC_STATEMENTS_OID,
            false,
            encodeQsealcStatements({ roles: ['PSP_PI'], ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' }),
          ),
        ]
      : [],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return credentialsFromPem(`-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`, certificate.toString('pem'));
}

function fingerprint(certificatePem: string): string {
  return createHash('sha256').update(new X509Certificate(certificatePem).raw).digest('hex');
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('signed front door', () => {
  let server: TestServer;
  let tpp: SigningCredentials;
  let withoutQc: SigningCredentials;
  let withQc: SigningCredentials;
  const adorsysNoQc = fixture('certs/adorsys-xs2a/no-qcstatement-selfsigned.pem');

  beforeAll(async () => {
    withoutQc = await selfSigned('PSDNO-FSA-700000001', false);
    withQc = await selfSigned('PSDNO-FSA-700000002', true);
    server = await startTestServer({
      extraV1Routes: testRoutes,
      trustStore: (ca) =>
        new TrustStore([
          ca.trustAnchor(),
          new X509Certificate(withoutQc.certificate),
          new X509Certificate(withQc.certificate),
          new X509Certificate(adorsysNoQc),
        ]),
    });
    tpp = (await server.newTpp('PSDNO-FSA-123456789')).credentials;
  });
  afterAll(() => server.close());

  it('serves a correctly signed request as the TPP its certificate names', async () => {
    const answer = await signedCall(server, tpp);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ tpp: 'PSDNO-FSA-123456789', roles: ['PSP_PI', 'PSP_AI'] });
  });

  describe('presence and syntax of the signature headers', () => {
    it('refuses a request without Signature with 401 SIGNATURE_MISSING', async () => {
      const answer = await signedCall(server, tpp, { tamper: (h) => delete h['signature'] });
      expectRefusal(answer, 401, 'SIGNATURE_MISSING', 'Signature');
    });

    it('refuses a request with nothing signed at all with 401 SIGNATURE_MISSING', async () => {
      const answer = await server.anonymous.get<any>(WHOAMI);
      expectRefusal(answer, 401, 'SIGNATURE_MISSING', 'Signature');
    });

    // draft-cavage-http-signatures-10 §3.1: the same parameters as `Authorization: Signature <params>`.
    it.each(['Signature', 'signature', 'SIGNATURE'])('serves the signature sent as Authorization: %s <params>', async (scheme) => {
      const answer = await signedCall(server, tpp, {
        tamper: (h) => {
          h['authorization'] = `${scheme} ${h['signature']}`;
          delete h['signature'];
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({ tpp: 'PSDNO-FSA-123456789', roles: ['PSP_PI', 'PSP_AI'] });
    });

    it('verifies a signature sent as Authorization: Signature (tampered: 401 SIGNATURE_INVALID)', async () => {
      const answer = await signedCall(server, tpp, {
        tamper: (h) => {
          h['authorization'] = `Signature ${h['signature']}`;
          delete h['signature'];
          h['x-request-id'] = randomUUID();
        },
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a signature sent both as Signature and as Authorization: Signature with 400 FORMAT_ERROR', async () => {
      const answer = await signedCall(server, tpp, { tamper: (h) => (h['authorization'] = `Signature ${h['signature']}`) });
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'Authorization');
      expect(answer.body.message).toMatch(/sent both in Signature and in Authorization: Signature/);
    });

    it('refuses a request without TPP-Signature-Certificate with 401 CERTIFICATE_MISSING', async () => {
      const answer = await signedCall(server, tpp, { tamper: (h) => delete h['tpp-signature-certificate'] });
      expectRefusal(answer, 401, 'CERTIFICATE_MISSING', 'TPP-Signature-Certificate');
    });

    it.each([
      ['digest', 'Digest'],
      ['date', 'Date'],
    ])('refuses a request without %s with 400 FORMAT_ERROR', async (header, path) => {
      const answer = await signedCall(server, tpp, { tamper: (h) => delete h[header] });
      expectRefusal(answer, 400, 'FORMAT_ERROR', path);
    });

    it.each(['MD5=1B2M2Y8AsgTpgAmY7PhCfg==', 'SHA-256', 'SHA-256=not base64!', '=abc', 'SHA-256=YWJj=='])(
      'refuses Digest: %s with 400 FORMAT_ERROR',
      async (digest) => {
        const answer = await signedCall(server, tpp, { tamper: (h) => (h['digest'] = digest) });
        expectRefusal(answer, 400, 'FORMAT_ERROR', 'Digest');
      },
    );

    it('refuses two Digest headers with 400 FORMAT_ERROR', async () => {
      const headers = signRequest({ method: 'GET', path: WHOAMI }, tpp);
      const list = Object.entries(headers).flat();
      list.push('digest', headers['digest'] ?? '');
      const answer = await send(server.baseUrl, 'GET', WHOAMI, list);
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'Digest');
    });

    // Node joins most repeats with ", " and keeps only the first Authorization or Content-Type:
    // a header read as one value is refused by name when sent twice, whatever the values.
    it.each([
      ['X-Request-ID', undefined],
      ['Date', undefined],
      ['PSU-ID', '31129956715'],
      ['PSU-Corporate-ID', '923609016'],
      ['TPP-Redirect-URI', 'https://tpp.example/ok'],
      ['TPP-Nok-Redirect-URI', 'https://tpp.example/nok'],
      ['TPP-Explicit-Authorisation-Preferred', 'true'],
      ['PSU-IP-Address', '192.168.8.78'],
      ['PSU-IP-Port', '443'],
      ['PSU-User-Agent', 'Mozilla/5.0'],
      ['PSU-Geo-Location', 'GEO:52.506931;13.144558'],
      ['TPP-Notification-URI', 'https://tpp.example/notify'],
      ['Consent-ID', 'c0ffee00-0000-4000-8000-000000000001'],
      ['Authorization', 'Bearer abc'],
      ['Content-Type', 'application/json'],
    ])('refuses %s sent twice with 400 FORMAT_ERROR naming it', async (name, value) => {
      const lower = name.toLowerCase();
      const headers = signRequest({ method: 'GET', path: WHOAMI, headers: value === undefined ? {} : { [lower]: value } }, tpp);
      const list = Object.entries(headers).flat();
      list.push(name, headers[lower] ?? '');
      const answer = await send(server.baseUrl, 'GET', WHOAMI, list);
      expectRefusal(answer, 400, 'FORMAT_ERROR', name);
      expect(answer.body.message).toMatch(new RegExp(`: the ${name} header is sent more than once$`));
    });

    it('serves list headers sent twice (Accept, Accept-Language, PSU-Accept-Language)', async () => {
      const headers = signRequest({ method: 'GET', path: WHOAMI, headers: { 'psu-accept-language': 'nb' } }, tpp);
      const list = [...Object.entries(headers).flat(), 'Accept', 'application/json', 'Accept-Language', 'nb', 'Accept-Language', 'en'];
      list.push('PSU-Accept-Language', 'en');
      const answer = await send(server.baseUrl, 'GET', WHOAMI, list);
      expect(answer.status).toBe(200);
    });

    it.each(['yesterday', '2026-01-01T00:00:00Z', new Date().toUTCString().replace('GMT', '+0100')])(
      'refuses Date: %s with 400 FORMAT_ERROR',
      async (date) => {
        const answer = await signedCall(server, tpp, { tamper: (h) => (h['date'] = date) });
        expectRefusal(answer, 400, 'FORMAT_ERROR', 'Date');
      },
    );

    // RFC 9110 §5.6.7: a recipient accepts all three HTTP-date formats.
    it.each([
      [
        'asctime',
        (d: Date) =>
          d
            .toUTCString()
            .replace(
              /^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/,
              (_, w, day, m, y, t) => `${w} ${m} ${String(Number(day)).padStart(2, ' ')} ${t} ${y}`,
            ),
      ],
      [
        'RFC 850',
        (d: Date) =>
          d
            .toUTCString()
            .replace(/^(\w+), (\d+) (\w+) \d\d(\d\d) /, (_, w: string, day, m, yy) => `${FULL_DAY[w] ?? w}, ${day}-${m}-${yy} `),
      ],
      ['IMF-fixdate', (d: Date) => d.toUTCString()],
    ])('accepts a signed Date in %s format', async (_name, format) => {
      const date = format(new Date());
      const answer = await signedCall(server, tpp, { tamper: signedDate(tpp, date) });
      expect(answer.status, `${date}: ${JSON.stringify(answer.body)}`).toBe(200);
    });

    it.each([
      ['Tue, 31 Feb 2026 10:00:00 GMT', 'Date names 31 Feb 2026, which is not a real date'],
      ['Sat Nov 28 24:00:00 2026', 'Date names the time 24:00:00, which is not a time of day'],
      ['Mon, 28 Nov 2026 02:49:56 GMT', 'the weekday in Date does not match the date: 28 Nov 2026 is a Saturday'],
    ])('refuses the signed Date %s with 400 FORMAT_ERROR saying why', async (date, text) => {
      const answer = await signedCall(server, tpp, { tamper: signedDate(tpp, date) });
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'Date');
      expect(answer.body.message).toMatch(new RegExp(`: ${text}$`));
    });

    it.each([
      ['6 minutes old', -360_000],
      ['6 minutes ahead', 360_000],
      ['a day old', -DAY],
    ])('refuses a Date %s with 400 TIMESTAMP_INVALID (default window 300 s)', async (_name, offset) => {
      const answer = await signedCall(server, tpp, { options: { date: new Date(Date.now() + offset) } });
      expectRefusal(answer, 400, 'TIMESTAMP_INVALID', 'Date');
    });

    it.each([
      ['4 minutes old', -240_000],
      ['4 minutes ahead', 240_000],
    ])('accepts a Date %s', async (_name, offset) => {
      const answer = await signedCall(server, tpp, { options: { date: new Date(Date.now() + offset) } });
      expect(answer.status).toBe(200);
    });

    it.each(['keyId="SN=1,CA=CN=x"', 'garbage', 'keyId="SN=1,CA=CN=x",signature="%%%"'])(
      'refuses an unparseable Signature %j with 401 SIGNATURE_INVALID',
      async (signature) => {
        const answer = await signedCall(server, tpp, { tamper: (h) => (h['signature'] = signature) });
        expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
      },
    );

    it.each(['hmac-sha256', 'ecdsa-sha256', 'rsa-sha1'])('refuses algorithm="%s" with 401 SIGNATURE_INVALID', async (algorithm) => {
      const answer = await signedCall(server, tpp, { tamper: (h) => withSignatureParameter(h, 'algorithm', algorithm) });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it.each(['date digest', 'digest x-request-id', 'date x-request-id'])(
      'refuses headers="%s" (a mandatory header unsigned) with 401 SIGNATURE_INVALID',
      async (list) => {
        const answer = await signedCall(server, tpp, { tamper: (h) => withSignatureParameter(h, 'headers', list) });
        expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
      },
    );
  });

  describe('tampering after signing', () => {
    it('refuses a body changed after signing with 401 SIGNATURE_INVALID, and changes nothing', async () => {
      const put = await server.client.put<any>(CONTACT, { email: 'before@tpp.example' });
      expect(put.status).toBe(200);
      const answer = await signedCall(server, tpp, {
        method: 'PUT',
        path: CONTACT,
        body: { email: 'signed@tpp.example' },
        sendBody: Buffer.from(JSON.stringify({ email: 'evil!@tpp.example' })),
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
      const get = await server.client.get<any>(CONTACT);
      expect(get.body).toMatchObject({ email: 'before@tpp.example' });
    });

    it('refuses a body and Digest both replaced after signing with 401 SIGNATURE_INVALID', async () => {
      const evil = Buffer.from(JSON.stringify({ email: 'evil2@tpp.example' }));
      const answer = await signedCall(server, tpp, {
        method: 'PUT',
        path: CONTACT,
        body: { email: 'signed@tpp.example' },
        sendBody: evil,
        tamper: (h) => (h['digest'] = `SHA-256=${createHash('sha256').update(evil).digest('base64')}`),
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses an X-Request-ID changed after signing with 401', async () => {
      const answer = await signedCall(server, tpp, { tamper: (h) => (h['x-request-id'] = randomUUID()) });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a Date changed after signing with 401', async () => {
      const answer = await signedCall(server, tpp, {
        options: { date: new Date(Date.now() - 10_000) },
        tamper: (h) => (h['date'] = new Date().toUTCString()),
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it.each([
      ['PSU-ID', 'psu-id', '31129956715'],
      ['PSU-Corporate-ID', 'psu-corporate-id', '923609016'],
      ['TPP-Redirect-URI', 'tpp-redirect-uri', 'https://tpp.example/cb'],
    ])('refuses a %s that the signature does not cover with 401', async (_name, header, value) => {
      const answer = await signedCall(server, tpp, { tamper: (h) => (h[header] = value) });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a PSU-ID changed after signing with 401', async () => {
      const answer = await signedCall(server, tpp, { headers: { 'psu-id': '31129956715' }, tamper: (h) => (h['psu-id'] = '13039319955') });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a signed (request-target) sent to another target with 401, and accepts it unchanged', async () => {
      const options = { signRequestTarget: true };
      const good = await signedCall(server, tpp, { path: `${WHOAMI}?page=1`, options });
      expect(good.status).toBe(200);
      const headers = signRequest({ method: 'GET', path: `${WHOAMI}?page=1` }, tpp, options);
      const answer = await send(server.baseUrl, 'GET', `${WHOAMI}?page=2`, headers);
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a signature made with another key for the same certificate with 401', async () => {
      const impostor = { ...tpp, privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey };
      const answer = await signedCall(server, impostor);
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });
  });

  describe('keyId', () => {
    const serialOf = (credentials: SigningCredentials) => /^SN=([0-9A-F]+),/i.exec(credentials.keyId)?.[1] ?? '';

    it('refuses a keyId with a wrong serial with 401 SIGNATURE_INVALID', async () => {
      const serial = serialOf(tpp);
      const wrong = serial.slice(0, -1) + (serial.endsWith('0') ? '1' : '0');
      const answer = await signedCall(server, { ...tpp, keyId: tpp.keyId.replace(serial, wrong) });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a keyId naming another issuer with 401 SIGNATURE_INVALID', async () => {
      const answer = await signedCall(server, { ...tpp, keyId: `SN=${serialOf(tpp)},CA=CN=Some Other CA,O=Elsewhere,C=NO` });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it('refuses a keyId that is not SN=…,CA=… with 401 SIGNATURE_INVALID', async () => {
      const answer = await signedCall(server, { ...tpp, keyId: 'my-key' });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });

    it.each([
      [
        'reversed (RFC 2253) order with %20',
        (serial: string) => `SN=${serial},CA=CN=nordic-xs2a%20Sandbox%20QSealC%20CA,O=nordic-xs2a%20sandbox,C=NO`,
      ],
      [
        'X.500 order with spaces after commas',
        (serial: string) => `SN=${serial},CA=C=NO, O=nordic-xs2a sandbox, CN=nordic-xs2a Sandbox QSealC CA`,
      ],
      [
        'a lower-case serial with a leading zero',
        (serial: string) => `SN=0${serial.toLowerCase()},CA=C=NO,O=nordic-xs2a sandbox,CN=nordic-xs2a Sandbox QSealC CA`,
      ],
    ])('accepts a keyId written in %s', async (_name, keyId) => {
      const answer = await signedCall(server, { ...tpp, keyId: keyId(serialOf(tpp)) });
      expect(answer.status).toBe(200);
      expect(answer.body.tpp).toBe('PSDNO-FSA-123456789');
    });
  });

  describe('TPP-Signature-Certificate forms', () => {
    const base64Of = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

    it.each([
      ['one line of base64 DER', (pem: string) => base64Of(pem)],
      ['PEM with its line breaks folded to spaces', (pem: string) => pem.trim().replace(/\n/g, ' ')],
      ['PEM with escaped \\n line breaks', (pem: string) => pem.trim().replace(/\n/g, '\\n')],
      ['PEM armour around one line of base64', (pem: string) => `-----BEGIN CERTIFICATE-----${base64Of(pem)}-----END CERTIFICATE-----`],
    ])('accepts the certificate as %s', async (_name, form) => {
      const answer = await signedCall(server, tpp, { tamper: (h) => (h['tpp-signature-certificate'] = form(tpp.certificate)) });
      expect(answer.status).toBe(200);
      expect(answer.body.tpp).toBe('PSDNO-FSA-123456789');
    });

    it.each(['not a certificate', 'QUJD', Buffer.from('x'.repeat(300)).toString('base64')])(
      'refuses %j with 401 CERTIFICATE_INVALID',
      async (value) => {
        const answer = await signedCall(server, tpp, { tamper: (h) => (h['tpp-signature-certificate'] = value) });
        expectRefusal(answer, 401, 'CERTIFICATE_INVALID', 'TPP-Signature-Certificate');
      },
    );

    it("refuses another TPP's valid certificate under this TPP's signature with 401", async () => {
      const other = (await server.newTpp('PSDNO-FSA-555555555')).credentials;
      const answer = await signedCall(server, tpp, {
        tamper: (h) => (h['tpp-signature-certificate'] = other.certificate.replace(/-----[^-]+-----|\s/g, '')),
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });
  });

  describe('certificate validity and trust', () => {
    it('refuses an expired certificate with 401 CERTIFICATE_EXPIRED', async () => {
      const { credentials, issued } = await issue(server.ca, 'PSDNO-FSA-100000001', ['PSP_PI'], new Date(Date.now() - 900 * DAY));
      expect(issued.notAfter.getTime()).toBeLessThan(Date.now());
      const answer = await signedCall(server, credentials);
      expectRefusal(answer, 401, 'CERTIFICATE_EXPIRED');
      expect(answer.body.message).toContain(issued.notAfter.toISOString().slice(0, 10));
    });

    it('refuses a certificate that is not yet valid with 401 CERTIFICATE_INVALID', async () => {
      const { credentials } = await issue(server.ca, 'PSDNO-FSA-100000002', ['PSP_PI'], new Date(Date.now() + 10 * DAY));
      const answer = await signedCall(server, credentials);
      expectRefusal(answer, 401, 'CERTIFICATE_INVALID');
      expect(answer.body.message).toContain('not valid before');
    });

    it('refuses a certificate from a CA the bank does not trust with 401 CERTIFICATE_INVALID', async () => {
      const stranger = await newCa();
      const { credentials } = await issue(stranger, 'PSDNO-FSA-100000003');
      const answer = await signedCall(server, credentials);
      expectRefusal(answer, 401, 'CERTIFICATE_INVALID');
      expect(answer.body.message).toContain('not issued by a certificate authority this bank trusts');
    });

    it('refuses a trusted, correctly signed certificate without a PSD2 QCStatement with 401 CERTIFICATE_INVALID', async () => {
      const answer = await signedCall(server, withoutQc);
      expectRefusal(answer, 401, 'CERTIFICATE_INVALID');
      expect(answer.body.message).toContain('PSD2 QCStatement');
    });

    it('accepts the same kind of self-signed, trusted certificate when it has the PSD2 QCStatement', async () => {
      const answer = await signedCall(server, withQc);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ tpp: 'PSDNO-FSA-700000002', roles: ['PSP_PI'] });
    });

    it('refuses the adorsys certificate without a QCStatement (trusted here) with 401 CERTIFICATE_INVALID', async () => {
      const answer = await signedCall(server, tpp, {
        tamper: (h) => (h['tpp-signature-certificate'] = adorsysNoQc.replace(/-----[^-]+-----|\s/g, '')),
      });
      expectRefusal(answer, 401, 'CERTIFICATE_INVALID');
      expect(answer.body.message).toContain('PSD2 QCStatement');
    });

    it('refuses a certificate whose key is too short, even from the trusted CA, with 401 CERTIFICATE_INVALID', async () => {
      const key = rsaKey(1024);
      const issued = await server.ca.issueQsealc({
        organizationIdentifier: 'PSDNO-FSA-100000004',
        name: 'Short Key AS',
        roles: ['PSP_PI'],
        publicKey: key.publicKey,
      });
      const answer = await signedCall(server, credentialsFromPem(key.privateKeyPem, issued.certificatePem));
      expectRefusal(answer, 401, 'CERTIFICATE_INVALID');
      expect(answer.body.message).toContain('2048');
    });
  });

  describe('PSD2 roles', () => {
    it('refuses a PSP_PI route to a TPP with only PSP_AI with 401 ROLE_INVALID', async () => {
      const aisp = (await server.newTpp('PSDNO-FSA-200000001', ['PSP_AI'])).credentials;
      const allowed = await signedCall(server, aisp, { path: WHOAMI });
      expect(allowed.status).toBe(200);
      const answer = await signedCall(server, aisp, { path: PAYMENTS });
      expectRefusal(answer, 401, 'ROLE_INVALID');
      expect(answer.body.message).toContain('PSP_PI');
    });

    it('serves the PSP_PI route to a TPP with PSP_PI', async () => {
      const pisp = (await server.newTpp('PSDNO-FSA-200000002', ['PSP_PI'])).credentials;
      const answer = await signedCall(server, pisp, { path: PAYMENTS });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ initiatedBy: 'PSDNO-FSA-200000002' });
    });
  });

  describe('PSU-ID after the signature', () => {
    it('refuses a signed PSU-ID with wrong check digits with 400 FORMAT_ERROR path PSU-ID', async () => {
      const answer = await signedCall(server, tpp, { headers: { 'psu-id': '15108695077' } });
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'PSU-ID');
    });

    it('accepts a signed valid PSU-ID and hands it to the route', async () => {
      const answer = await signedCall(server, tpp, { headers: { 'psu-id': '31129956715' } });
      expect(answer.status).toBe(200);
      expect(answer.body.psuId).toBe('31129956715');
    });

    it('lets correctly signed UTF-8 PSU-ID bytes through the signature check, then refuses them as a format error (400, not 401)', async () => {
      // Header values travel as bytes; signRequest and the server both read them as latin1.
      const utf8AsLatin1 = Buffer.from('Åse Ødegård', 'utf8').toString('latin1');
      const answer = await signedCall(server, tpp, { headers: { 'psu-id': utf8AsLatin1 } });
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'PSU-ID');
      const forged = await signedCall(server, tpp, {
        headers: { 'psu-id': utf8AsLatin1 },
        tamper: (h) => (h['psu-id'] = Buffer.from('Åse Ødegårf', 'utf8').toString('latin1')),
      });
      expectRefusal(forged, 401, 'SIGNATURE_INVALID', 'Signature');
    });
  });

  describe('RFC 2047', () => {
    it('accepts a signature value wrapped as =?utf-8?B?…?=', async () => {
      const answer = await signedCall(server, tpp, {
        tamper: (h) =>
          withSignatureParameter(h, 'signature', `=?utf-8?B?${Buffer.from(signatureParameter(h, 'signature')).toString('base64')}?=`),
      });
      expect(answer.status).toBe(200);
      expect(answer.body.tpp).toBe('PSDNO-FSA-123456789');
    });

    it('refuses a wrapped signature value of another request with 401', async () => {
      const other = signRequest({ method: 'GET', path: WHOAMI }, tpp);
      const answer = await signedCall(server, tpp, {
        tamper: (h) =>
          withSignatureParameter(h, 'signature', `=?utf-8?B?${Buffer.from(signatureParameter(other, 'signature')).toString('base64')}?=`),
      });
      expectRefusal(answer, 401, 'SIGNATURE_INVALID', 'Signature');
    });
  });
});

describe('tighter clock window (XS2A_MAX_CLOCK_SKEW_SECONDS=60)', () => {
  let server: TestServer;
  let tpp: SigningCredentials;
  beforeAll(async () => {
    server = await startTestServer({ env: { XS2A_MAX_CLOCK_SKEW_SECONDS: '60' }, extraV1Routes: testRoutes });
    tpp = (await server.newTpp('PSDNO-FSA-123456789')).credentials;
  });
  afterAll(() => server.close());

  it('refuses a Date 2 minutes off with 400 TIMESTAMP_INVALID, and accepts one 30 s off', async () => {
    expectRefusal(await signedCall(server, tpp, { options: { date: new Date(Date.now() - 120_000) } }), 400, 'TIMESTAMP_INVALID', 'Date');
    expect((await signedCall(server, tpp, { options: { date: new Date(Date.now() - 30_000) } })).status).toBe(200);
  });

  it("measures the window against the server's clock, not the wall clock", async () => {
    const shifted = await startTestServer({ extraV1Routes: testRoutes, now: () => new Date(Date.now() + 3_600_000) });
    try {
      const credentials = (await shifted.newTpp('PSDNO-FSA-123456789')).credentials;
      expectRefusal(await signedCall(shifted, credentials), 400, 'TIMESTAMP_INVALID', 'Date');
      expect((await signedCall(shifted, credentials, { options: { date: new Date(Date.now() + 3_600_000) } })).status).toBe(200);
    } finally {
      await shifted.close();
    }
  });
});

describe('bank policy: blocked and revoked certificates', () => {
  let server: TestServer;
  let blocked: SigningCredentials;
  let revoked: SigningCredentials;
  let good: SigningCredentials;

  beforeAll(async () => {
    // A second CA, trusted by this server, issues the certificates so that their fingerprints and
    // serials are known before the server (and its configuration) exist.
    const qtsp = await newCa();
    const blockedCertificate = await issue(qtsp, 'PSDNO-FSA-300000001');
    const revokedCertificate = await issue(qtsp, 'PSDNO-FSA-300000002');
    const goodCertificate = await issue(qtsp, 'PSDNO-FSA-300000003');
    blocked = blockedCertificate.credentials;
    revoked = revokedCertificate.credentials;
    good = goodCertificate.credentials;
    const crl = await readRevocationList(await qtsp.revocationList([revokedCertificate.issued.serialNumber]), [qtsp.trustAnchor()]);
    server = await startTestServer({
      env: { XS2A_BLOCKED_CERTIFICATES: fingerprint(blocked.certificate) },
      trustStore: (ca) => new TrustStore([ca.trustAnchor(), qtsp.trustAnchor()], [crl]),
      extraV1Routes: testRoutes,
    });
  });
  afterAll(() => server.close());

  it('refuses a blocked certificate with 401 CERTIFICATE_BLOCKED', async () => {
    expectRefusal(await signedCall(server, blocked), 401, 'CERTIFICATE_BLOCKED');
  });

  it('refuses a revoked certificate with 401 CERTIFICATE_REVOKED', async () => {
    expectRefusal(await signedCall(server, revoked), 401, 'CERTIFICATE_REVOKED');
  });

  it('keeps refusing them on repeated requests (the verdict is cached, not forgotten)', async () => {
    expectRefusal(await signedCall(server, blocked), 401, 'CERTIFICATE_BLOCKED');
    expectRefusal(await signedCall(server, revoked), 401, 'CERTIFICATE_REVOKED');
  });

  it('serves another certificate of the same CA', async () => {
    const answer = await signedCall(server, good);
    expect(answer.status).toBe(200);
    expect(answer.body.tpp).toBe('PSDNO-FSA-300000003');
  });

  it('does not record a refused TPP', async () => {
    const rows = await server.database.db.selectFrom('tpp').select('id').execute();
    expect(rows.map((row) => row.id)).not.toContain('PSDNO-FSA-300000001');
    expect(rows.map((row) => row.id)).not.toContain('PSDNO-FSA-300000002');
  });
});

describe('sandbox without required signatures (XS2A_REQUIRE_SIGNATURE=false)', () => {
  let server: TestServer;
  let tpp: SigningCredentials;
  beforeAll(async () => {
    server = await startTestServer({ env: { XS2A_REQUIRE_SIGNATURE: 'false' }, extraV1Routes: testRoutes });
    tpp = (await server.newTpp('PSDNO-FSA-123456789')).credentials;
  });
  afterAll(() => server.close());

  it('serves an unsigned request as the documented sandbox TPP PSDNO-FSA-SANDBOXTPP', async () => {
    const answer = await server.anonymous.get<any>(WHOAMI);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tpp: 'PSDNO-FSA-SANDBOXTPP' });
    expect(answer.body.roles).toEqual(expect.arrayContaining(['PSP_PI', 'PSP_AI']));
    const pis = await server.anonymous.get<any>(PAYMENTS);
    expect(pis.status).toBe(200);
  });

  it('lets the sandbox TPP use the TPP dialogue under its own id', async () => {
    const put = await server.anonymous.put<any>('/v1/tpps/PSDNO-FSA-SANDBOXTPP/contact-information', { email: 'postman@sandbox.example' });
    expect(put.status).toBe(200);
    const own = await server.anonymous.get<any>('/v1/tpps/NO-FSA-SANDBOXTPP/contact-information');
    expect(own.body).toMatchObject({ email: 'postman@sandbox.example' });
    const other = await server.client.get<any>('/v1/tpps/PSDNO-FSA-SANDBOXTPP/contact-information');
    expect(other.status).toBe(404);
  });

  it('still serves a signed request as its own TPP', async () => {
    const answer = await signedCall(server, tpp);
    expect(answer.status).toBe(200);
    expect(answer.body.tpp).toBe('PSDNO-FSA-123456789');
  });

  it('serves a signature sent as Authorization: Signature as its own TPP, and verifies it', async () => {
    const asAuthorization = (h: Record<string, string>): void => {
      h['authorization'] = `Signature ${h['signature']}`;
      delete h['signature'];
    };
    const answer = await signedCall(server, tpp, { tamper: asAuthorization });
    expect(answer.status).toBe(200);
    expect(answer.body.tpp).toBe('PSDNO-FSA-123456789');
    const tampered = await signedCall(server, tpp, {
      tamper: (h) => {
        asAuthorization(h);
        h['x-request-id'] = randomUUID();
      },
    });
    expectRefusal(tampered, 401, 'SIGNATURE_INVALID', 'Signature');
  });

  it.each<[string, Exchange, number, string, string | undefined]>([
    ['a changed X-Request-ID', { tamper: (h) => (h['x-request-id'] = randomUUID()) }, 401, 'SIGNATURE_INVALID', 'Signature'],
    ['no certificate', { tamper: (h) => delete h['tpp-signature-certificate'] }, 401, 'CERTIFICATE_MISSING', 'TPP-Signature-Certificate'],
    ['an old Date', { options: { date: new Date(Date.now() - DAY) } }, 400, 'TIMESTAMP_INVALID', 'Date'],
    ['no Digest', { tamper: (h) => delete h['digest'] }, 400, 'FORMAT_ERROR', 'Digest'],
  ])('still refuses a badly signed request (%s)', async (_name, exchange, status, code, path) => {
    const answer = await signedCall(server, tpp, exchange);
    expectRefusal(answer, status as 400 | 401, code, path);
  });

  it('still refuses a certificate from a CA the bank does not trust', async () => {
    const { credentials } = await issue(await newCa(), 'PSDNO-FSA-400000001');
    expectRefusal(await signedCall(server, credentials), 401, 'CERTIFICATE_INVALID');
  });
});
