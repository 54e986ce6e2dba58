/**
 * The PSU pre-step: an operation that needs a PSU and has none (a payment from a
 * corporate agreement's account without PSU-ID or PSU token) answers 401 PSU_REQUIRED (wire code
 * PSU_CREDENTIALS_INVALID) with `_links.scaRedirect` to a PSU login (identify and code pages); the
 * login ends with a 303 to TPP-Redirect-URI carrying `?code=…` (no redirect URI: the code is shown
 * on the page). `POST /v1/token` exchanges the code (once, within XS2A_PSU_LOGIN_CODE_SECONDS, 5 minutes by default, for the TPP it was issued
 * to) for a bearer token; `Authorization: Bearer …` then identifies the PSU like PSU-ID.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { DIALECTS } from '../support/databases.js';
import { corporation, expectError, NDCT, ndctBody, paymentsOfRequest, privatePsu, type Corporation } from '../support/payments.js';
import {
  alertOf,
  buttonsOf,
  CLOCK_ENV,
  createPayment,
  enterCode,
  expectSeeOther,
  identify,
  idOfLink,
  inputOf,
  IPHONE_UA,
  maskedPsuId,
  OK_URI,
  openPage,
  storedScaStatus,
  testClock,
  walk,
  type TestClock,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const LOGIN_CODE = /<p class="code" id="login-code">([^<]+)<\/p>/;

/** Posts a corporate payment without PSU-ID and answers the 401's login link. */
async function loginLink(client: TppClient, company: Corporation, headers: Record<string, string> = {}): Promise<string> {
  const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), {
    headers: { 'psu-corporate-id': company.organisationNumber, ...headers },
  });
  expectError(response, 401, 'PSU_CREDENTIALS_INVALID');
  return response.body._links.scaRedirect.href as string;
}

/** Logs the PSU in on the pages and answers the one-time code the TPP receives at TPP-Redirect-URI. */
async function logIn(link: string, psuId: string): Promise<string> {
  expectSeeOther(await identify(link, psuId));
  const location = expectSeeOther(await enterCode(link));
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

const exchange = (client: TppClient, code: string) => client.post<any>('/v1/token', { code });

async function tokenFor(client: TppClient, company: Corporation): Promise<string> {
  const code = await logIn(await loginLink(client, company, { 'tpp-redirect-uri': OK_URI }), company.registrar.customerNumber);
  const response = await exchange(client, code);
  expect(response.status, response.text).toBe(200);
  return response.body.access_token as string;
}

describe.each(DIALECTS)('PSU pre-step and PSU access tokens (%s)', (dialect) => {
  let server: TestServer;
  let company: Corporation;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    company = await corporation(server.client);
  });
  afterAll(() => server.close());

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  describe('401 PSU_REQUIRED', () => {
    it('a corporate payment without PSU-ID or token is 401 PSU_CREDENTIALS_INVALID with _links.scaRedirect to a login page; nothing is created', async () => {
      const requestId = randomUUID();
      const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), {
        headers: { 'psu-corporate-id': company.organisationNumber, 'x-request-id': requestId },
      });
      expectError(response, 401, 'PSU_CREDENTIALS_INVALID');
      const href = response.body._links.scaRedirect.href as string;
      expect(href).toMatch(new RegExp(`^${server.config.publicUrl}/sca/[0-9a-f-]{36}$`));
      expect(await paymentsOfRequest(server, requestId)).toEqual([]);
      const row = await server.database.db
        .selectFrom('authorisation')
        .select(['purpose', 'resource_id', 'sca_status'])
        .where('id', '=', idOfLink(href))
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ purpose: 'psu-login', resource_id: null, sca_status: 'received' });
    });

    it('a private payment without PSU-ID needs no pre-step', async () => {
      const owner = await privatePsu(server.client);
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(owner.account));
      expect(payment.links['scaRedirect']).toBeDefined();
    });

    it('the login page asks who the PSU is (step 1 of 2), with the app shortcut on a phone', async () => {
      const link = await loginLink(server.client, company);
      const page = await openPage(link, { userAgent: IPHONE_UA });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<title>Log in');
      expect(page.text).toContain('Step 1 of 2');
      expect(inputOf(page.text, 'psuId')).not.toContain('readonly');
      expect(buttonsOf(page.text)).toEqual(['method=code', 'method=app']);
    });
  });

  describe('the login', () => {
    it('identify and code, then 303 to TPP-Redirect-URI with ?code=, keeping the query the TPP sent; the login is finalised', async () => {
      const link = await loginLink(server.client, company, { 'tpp-redirect-uri': 'https://tpp.example/login?state=abc' });
      expectSeeOther(await identify(link, company.registrar.customerNumber));
      expect(await storedScaStatus(server, idOfLink(link))).toBe('psuIdentified');
      const location = new URL(expectSeeOther(await enterCode(link)));
      expect(`${location.origin}${location.pathname}`).toBe('https://tpp.example/login');
      expect(location.searchParams.get('state')).toBe('abc');
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(await storedScaStatus(server, idOfLink(link))).toBe('finalised');
    });

    it('the project driver walks the login in two steps', async () => {
      const link = await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI });
      const journey = await walk(link, { psuId: company.registrar.customerNumber });
      expect(journey.steps).toEqual(['identify', 'code']);
      expect(journey.redirectedTo?.startsWith(`${OK_URI}?code=`)).toBe(true);
    });

    it('without TPP-Redirect-URI the code is shown on the page (id="login-code") and can be exchanged', async () => {
      const link = await loginLink(server.client, company);
      expectSeeOther(await identify(link, company.registrar.customerNumber));
      const page = await enterCode(link);
      expect(page.status).toBe(200);
      const code = LOGIN_CODE.exec(page.text)?.[1];
      expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(page.text).toContain('You are logged in.');
      const response = await exchange(server.client, code!);
      expect(response.status, response.text).toBe(200);
    });

    it('three wrong codes fail the login: an outcome page with the reason and no code', async () => {
      const link = await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI });
      expectSeeOther(await identify(link, company.registrar.customerNumber));
      await enterCode(link, '000000');
      await enterCode(link, '000000');
      const page = await enterCode(link, '000000');
      expect(page.status).toBe(200);
      expect(page.location).toBeUndefined();
      expect(alertOf(page.text)).toBe('The one-time code was wrong 3 times');
      expect(LOGIN_CODE.exec(page.text)).toBeNull();
      expect(await storedScaStatus(server, idOfLink(link))).toBe('failed');
    });
  });

  describe('POST /v1/token', () => {
    it('exchanges the code for a Bearer token valid 1800 s by default', async () => {
      const code = await logIn(await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI }), company.registrar.customerNumber);
      const response = await exchange(server.client, code);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
        token_type: 'Bearer',
        expires_in: 1800,
      });
    });

    it('the code works once: the second exchange is 401 TOKEN_INVALID at code', async () => {
      const code = await logIn(await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI }), company.registrar.customerNumber);
      expect((await exchange(server.client, code)).status).toBe(200);
      expectError(await exchange(server.client, code), 401, 'TOKEN_INVALID', 'code');
    });

    it('an unknown code is 401 TOKEN_INVALID', async () => {
      expectError(await exchange(server.client, 'not-a-code-we-issued'), 401, 'TOKEN_INVALID', 'code');
    });

    it('another TPP cannot exchange the code: 401 TOKEN_INVALID', async () => {
      const other = await server.newTpp('PSDNO-FSA-192837465');
      const code = await logIn(await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI }), company.registrar.customerNumber);
      expectError(await exchange(other.client, code), 401, 'TOKEN_INVALID', 'code');
    });
  });

  describe('Authorization: Bearer', () => {
    it('identifies the PSU like PSU-ID: the corporate payment is created and its authorisation expects that PSU', async () => {
      const token = await tokenFor(server.client, company);
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        'psu-corporate-id': company.organisationNumber,
        'tpp-redirect-uri': OK_URI,
        ...bearer(token),
      });
      const link = payment.links['scaRedirect']!.href;
      const field = inputOf((await openPage(link)).text, 'psuId') ?? '';
      expect(field).toContain(`value="${maskedPsuId(company.registrar.customerNumber)}"`);
      expect(field).toContain('readonly');
      expect((await walk(link)).redirectedTo).toBe(OK_URI);
      expect((await server.client.get<any>(`${payment.path}/status`)).body.transactionStatus).toBe('ACTC');
    });

    it('with PSU-ID naming the same PSU the request is accepted', async () => {
      const token = await tokenFor(server.client, company);
      const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), {
        headers: { ...company.registrar.headers, ...bearer(token) },
      });
      expect(response.status, response.text).toBe(201);
    });

    it.each(['bearer', 'BEARER', 'bEaReR'])(
      'reads the scheme in any letter case (RFC 9110 §11.1): %s <token> is accepted',
      async (scheme) => {
        const token = await tokenFor(server.client, company);
        const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), {
          headers: { 'psu-corporate-id': company.organisationNumber, authorization: `${scheme} ${token}` },
        });
        expect(response.status, response.text).toBe(201);
      },
    );

    it('with PSU-ID naming another PSU than the token: 401 TOKEN_INVALID at PSU-ID', async () => {
      const token = await tokenFor(server.client, company);
      const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), {
        headers: { ...company.viewer.headers, ...bearer(token) },
      });
      expectError(response, 401, 'TOKEN_INVALID', 'PSU-ID');
    });

    it('an unknown token is 401 TOKEN_INVALID at Authorization', async () => {
      const response = await server.client.get<any>(`/v1/payments/${NDCT}/${randomUUID()}`, { headers: bearer('made-up-token') });
      expectError(response, 401, 'TOKEN_INVALID', 'Authorization');
    });

    it("another TPP's token is 401 TOKEN_INVALID for this TPP", async () => {
      const token = await tokenFor(server.client, company);
      const other = await server.newTpp('PSDNO-FSA-564738291');
      const response = await other.client.get<any>(`/v1/payments/${NDCT}/${randomUUID()}`, { headers: bearer(token) });
      expectError(response, 401, 'TOKEN_INVALID', 'Authorization');
    });

    it('an Authorization header that is not "Bearer <token>" is 401 TOKEN_INVALID', async () => {
      const response = await server.client.get<any>(`/v1/payments/${NDCT}/${randomUUID()}`, {
        headers: { authorization: 'Basic dXNlcjpwdw==' },
      });
      expectError(response, 401, 'TOKEN_INVALID', 'Authorization');
    });
  });
});

describe.each(DIALECTS)('PSU pre-step with a moving clock (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  let company: Corporation;
  beforeAll(async () => {
    clock = testClock();
    server = await startTestServer({ dialect, now: clock.now, env: { ...CLOCK_ENV, XS2A_PSU_TOKEN_LIFETIME_SECONDS: '300' } });
    company = await corporation(server.client);
  });
  afterAll(() => server.close());

  const freshCode = async () =>
    logIn(await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI }), company.registrar.customerNumber);

  // Five minutes by default: time for a person to copy the code from the page into the app.
  it('a code is still good 299 s after the login', async () => {
    const code = await freshCode();
    clock.advance(299);
    expect((await exchange(server.client, code)).status).toBe(200);
  });

  it('a code older than 5 minutes is 401 TOKEN_INVALID', async () => {
    const code = await freshCode();
    clock.advance(301);
    expectError(await exchange(server.client, code), 401, 'TOKEN_INVALID', 'code');
  });

  it('the token lasts XS2A_PSU_TOKEN_LIFETIME_SECONDS, then it is 401 TOKEN_EXPIRED', async () => {
    const response = await exchange(server.client, await freshCode());
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    const headers = {
      'psu-corporate-id': company.organisationNumber,
      authorization: `Bearer ${response.body.access_token as string}`,
    };
    clock.advance(299);
    const inTime = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), { headers });
    expect(inTime.status, inTime.text).toBe(201);
    clock.advance(2);
    const late = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(company.account), { headers });
    expectError(late, 401, 'TOKEN_EXPIRED', 'Authorization');
  });

  it('an unfinished login expires with its link: the page explains it and gives no code', async () => {
    const link = await loginLink(server.client, company, { 'tpp-redirect-uri': OK_URI });
    clock.advance(901);
    const page = await openPage(link);
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe('The link expired before the approval was finished');
    expect(LOGIN_CODE.exec(page.text)).toBeNull();
    expect(await storedScaStatus(server, idOfLink(link))).toBe('failed');
  });
});
