/**
 * SCA by redirect with an external (BankID-style) authenticator, through the real server and a
 * fake IdP that signs Ed25519 assertions:
 * - after identify the PSU's browser is sent (303) to the IdP with the return URL and a state;
 *   back at /sca/{id}/return with a good assertion, the confirmation page follows as after a code;
 * - a tampered assertion, one for another PSU, a stale one, one of an earlier attempt and a
 *   replayed one are refused; a return in another browser is a 409 page; none of them moves the
 *   authorisation (the TPP's scaStatus shows it), the refused ones count as wrong codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import { DIALECTS } from '../support/databases.js';
import { createFakeIdp, FAKE_IDP_URL, tampered, type FakeIdp } from '../support/fake-idp.js';
import { NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { identityNumber } from '../support/sandbox.js';
import {
  alertOf,
  createPayment,
  decide,
  expectSeeOther,
  identify,
  idOfLink,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  postPage,
  scaStatusOf,
  type Browser,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };

describe.each(DIALECTS)('SCA with an external login at the bank’s IdP (%s)', (dialect) => {
  let server: TestServer;
  let idp: FakeIdp;
  let psu: Psu;
  beforeAll(async () => {
    idp = createFakeIdp();
    server = await startTestServer({ dialect, psuAuthenticator: idp.authenticator });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const statusOf = async (href: string) => (await scaStatusOf(server.client, href)).scaStatus;
  const absolute = (location: string) => new URL(location, server.baseUrl).toString();

  /** A payment of the PSU, its link opened and the PSU identified in `browser`: answers the IdP address the server sends it to. */
  async function identified(browser: Browser) {
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), { ...psu.headers, ...URIS });
    const link = created.links['scaRedirect']!.href;
    const scaStatus = created.links['scaStatus']!.href;
    expect(absolute(expectSeeOther(await identify(link, psu.customerNumber, browser)))).toBe(link);
    const startUrl = expectSeeOther(await openPage(link, browser));
    return { ...created, link, id: idOfLink(link), scaStatus, startUrl };
  }

  it('sends the identified PSU to the IdP and, back with a good assertion, shows the confirmation; approval ends at the TPP', async () => {
    const browser = { cookies: new CookieJar() };
    const { link, id, path, scaStatus, startUrl } = await identified(browser);
    const start = new URL(startUrl);
    expect(`${start.origin}${start.pathname}`).toBe(FAKE_IDP_URL);
    expect(start.searchParams.get('login_hint')).toBe(psu.customerNumber);
    expect(start.searchParams.get('redirect_uri')).toBe(`${server.config.publicUrl}/sca/${id}/return`);
    expect(start.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await statusOf(scaStatus)).toBe('psuIdentified');
    // No code page with an external login.
    const page = await openPage(link, { cookies: browser.cookies });
    expect(page.status).toBe(303);

    const back = await openPage(idp.login(startUrl), browser);
    expect(absolute(expectSeeOther(back))).toBe(link);
    expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
    expect((await openPage(link, browser)).text).toContain('name="decision"');

    expect(expectSeeOther(await decide(link, 'approve', browser))).toBe(OK_URI);
    expect(await statusOf(scaStatus)).toBe('finalised');
    expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('ACTC');
  });

  it('a code posted to the code step is refused: the external login is the only way', async () => {
    const browser = { cookies: new CookieJar() };
    const { link, scaStatus } = await identified(browser);
    const answer = await postPage(`${link}/code`, { csrf: 'x', code: '123456' }, browser);
    expect(answer.status).toBe(409);
    expect(await statusOf(scaStatus)).toBe('psuIdentified');
  });

  it.each([
    ['a tampered assertion (another PSU written in, signature kept)', (url: string) => tampered(url, identityNumber())],
    ['an assertion signed by another key', 'foreign'],
    ['an assertion for another PSU', 'other-psu'],
    ['an assertion issued ten minutes ago', 'stale'],
    ['an assertion issued ten minutes ahead', 'future'],
    ['a return without an assertion', (url: string) => url.replace(/\?.*$/, '')],
  ] as const)('%s is refused as a wrong attempt and moves nothing', async (_name, how) => {
    const browser = { cookies: new CookieJar() };
    const { link, scaStatus, startUrl } = await identified(browser);
    const minutes = (n: number) => new Date(Date.now() + n * 60_000);
    const returnUrl =
      typeof how === 'function'
        ? how(idp.login(startUrl))
        : idp.login(startUrl, {
            foreignKey: how === 'foreign',
            ...(how === 'other-psu' ? { psuId: identityNumber() } : {}),
            ...(how === 'stale' ? { issuedAt: minutes(-10) } : how === 'future' ? { issuedAt: minutes(10) } : {}),
          });
    const answer = await openPage(returnUrl, browser);
    expect(answer.status).toBe(400);
    expect(alertOf(answer.text)).toBe('The login was not accepted. 2 attempts left.');
    expect(await statusOf(scaStatus)).toBe('psuIdentified');
    // The page offers a new login (a new state): that one succeeds.
    const again = /<a class="button" id="external-login" href="([^"]+)">/.exec(answer.text)?.[1]?.replace(/&#38;/g, '&') ?? '';
    expect(again.startsWith(FAKE_IDP_URL)).toBe(true);
    expect(new URL(again).searchParams.get('state')).not.toBe(new URL(startUrl).searchParams.get('state'));
    expect(absolute(expectSeeOther(await openPage(idp.login(again), browser)))).toBe(link);
    expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
  });

  it('a replayed assertion is refused: once used, and an earlier attempt’s after a refused one', async () => {
    const browser = { cookies: new CookieJar() };
    const { link, scaStatus, startUrl } = await identified(browser);
    const good = idp.login(startUrl);
    // An attempt refused first: the good assertion belonged to that attempt and is spent with it.
    expect((await openPage(tampered(good, identityNumber()), browser)).status).toBe(400);
    const replayed = await openPage(good, browser);
    expect(replayed.status).toBe(400);
    expect(alertOf(replayed.text)).toBe('The login was not accepted. 1 attempt left.');
    expect(await statusOf(scaStatus)).toBe('psuIdentified');

    const fresh = idp.login(expectSeeOther(await openPage(link, browser)));
    expect(absolute(expectSeeOther(await openPage(fresh, browser)))).toBe(link);
    expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
    // Used once: the same assertion again changes nothing.
    expect((await openPage(fresh, browser)).status).toBe(409);
    expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
  });

  it('a return in another browser is a 409 page and changes nothing; the PSU’s browser can still use the assertion', async () => {
    const browser = { cookies: new CookieJar() };
    const { link, scaStatus, startUrl } = await identified(browser);
    const returnUrl = idp.login(startUrl);
    const elsewhere = await openPage(returnUrl, { cookies: new CookieJar() });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.text).toContain('In progress in another browser');
    expect(await statusOf(scaStatus)).toBe('psuIdentified');
    expect(absolute(expectSeeOther(await openPage(returnUrl, browser)))).toBe(link);
    expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
  });

  it('three refused logins fail the authorisation and reject the payment, saying why', async () => {
    const browser = { cookies: new CookieJar() };
    const { path, scaStatus, startUrl, link } = await identified(browser);
    let start = startUrl;
    for (const left of [2, 1]) {
      const answer = await openPage(idp.login(start, { psuId: identityNumber() }), browser);
      expect(alertOf(answer.text)).toBe(`The login was not accepted. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`);
      start = expectSeeOther(await openPage(link, browser));
    }
    const last = await openPage(idp.login(start, { psuId: identityNumber() }), browser);
    expect(last.status).toBe(200);
    expect(last.text).toContain('The login at the bank was not accepted 3 times');
    expect(await scaStatusOf(server.client, scaStatus)).toEqual({
      scaStatus: 'failed',
      psuMessage: 'The login at the bank was not accepted 3 times',
    });
    expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('RJCT');
  });
});

describe('SCA with the one-time code (the sandbox’s authenticator)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('has no return route from an IdP: 404 page', async () => {
    const psu = await privatePsu(server.client);
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), { ...psu.headers, ...URIS });
    const link = created.links['scaRedirect']!.href;
    const browser = { cookies: new CookieJar() };
    await identify(link, psu.customerNumber, browser);
    expect((await openPage(`${link}/return?assertion=x`, browser)).status).toBe(404);
    expect((await scaStatusOf(server.client, created.links['scaStatus']!.href)).scaStatus).toBe('psuIdentified');
  });
});
