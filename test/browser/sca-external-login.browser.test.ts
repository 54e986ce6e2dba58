/**
 * SCA with the bank's own login by redirect (an `external-redirect` PSU authenticator,
 * BankID-style) in headless Chromium: after the identify page the browser leaves for the bank's
 * identity provider, the PSU logs in there, the IdP sends the browser back to
 * /sca/{id}/return with its signed assertion, and the PSU approves on the confirmation page and
 * lands at the TPP; the payment is ACTC. A return opened in another browser is the in-progress
 * page and approves nothing. The IdP is the tests' fake (Ed25519 assertions), served to the
 * browser by request interception at its own origin.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  button,
  closeBrowserTestRig,
  LOGIN_TEXTS,
  psuProfile,
  shows,
  startBrowserTestRig,
  watchedContexts,
  type StandInTpp,
  chromiumMissing,
} from '../support/browser.js';
import { createFakeIdp, FAKE_IDP_URL, type FakeIdp } from '../support/fake-idp.js';
import { NDCT, ndctBody, pathOf, privatePsu, type Psu } from '../support/payments.js';
import type { TestServer } from '../support/test-server.js';

const TEXTS = {
  en: { ...LOGIN_TEXTS.en, confirmHeading: 'Approve this payment', approve: 'Approve', elsewhereHeading: 'In progress in another browser' },
  nb: {
    ...LOGIN_TEXTS.nb,
    confirmHeading: 'Godkjenn denne betalingen',
    approve: 'Godkjenn',
    elsewhereHeading: 'I gang i en annen nettleser',
  },
} as const;

/** The IdP's own login page, as the browser sees it at the IdP's origin. */
const IDP_BUTTON = 'Log in with BankID';

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('SCA with the bank’s own login by redirect, in headless Chromium', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;
  let idp: FakeIdp;
  let psu: Psu;
  const contexts = watchedContexts(() => browser);

  beforeAll(async () => {
    idp = createFakeIdp();
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite', psuAuthenticator: idp.authenticator }));
    psu = await privatePsu(server.client);
  });
  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));
  afterEach(() => contexts.closeAndCheck([server.baseUrl, tpp.origin, FAKE_IDP_URL]));

  /** A browser profile where the IdP answers at its own origin with a page whose button logs the PSU in. */
  async function psuPage(language: 'en' | 'nb'): Promise<Page> {
    const page = await contexts.open(psuProfile(TEXTS[language].locale));
    await page.context().route(`${new URL(FAKE_IDP_URL).origin}/**`, async (route) => {
      const back = idp.login(route.request().url());
      await route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><title>BankID</title><h1>BankID</h1><a role="button" href="${back.replace(/&/g, '&amp;')}">${IDP_BUTTON}</a>`,
      });
    });
    return page;
  }

  async function payment(): Promise<{ scaRedirect: string; statusPath: string }> {
    const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      headers: { ...psu.headers, 'tpp-redirect-uri': tpp.ok, 'tpp-nok-redirect-uri': tpp.nok },
    });
    expect(response.status, response.text).toBe(201);
    return { scaRedirect: response.body._links.scaRedirect.href, statusPath: pathOf(response.body._links.status.href) };
  }

  const statusOf = async (statusPath: string) =>
    ((await server.client.get<any>(statusPath)).body as { transactionStatus: string }).transactionStatus;

  describe.each(['en', 'nb'] as const)('in %s', (language) => {
    const t = TEXTS[language];

    it('identify, the IdP’s login, back to the confirmation page, approve: at the TPP, ACTC', async () => {
      const created = await payment();
      const page = await psuPage(language);
      await page.goto(created.scaRedirect);
      await shows(page, t.identifyHeading);
      await button(page, t.next).click();
      // At the bank's identity provider, with the server's state and return address.
      await page.waitForURL((url) => url.origin === new URL(FAKE_IDP_URL).origin);
      expect(new URL(page.url()).searchParams.get('redirect_uri')).toMatch(/\/sca\/[^/]+\/return$/);
      await page.getByRole('button', { name: IDP_BUTTON }).click();
      await shows(page, t.confirmHeading);
      await button(page, t.approve).click();
      await page.waitForURL((url) => url.href.startsWith(tpp.ok));
      expect(await statusOf(created.statusPath)).toBe('ACTC');
      expect(idp.verified.at(-1)?.ok).toBe(true);
    });
  });

  it('a return opened in another browser shows the in-progress page and approves nothing', async () => {
    const created = await payment();
    const first = await psuPage('en');
    await first.goto(created.scaRedirect);
    await shows(first, TEXTS.en.identifyHeading);
    await button(first, TEXTS.en.next).click();
    await first.waitForURL((url) => url.origin === new URL(FAKE_IDP_URL).origin);
    // The IdP's answer, taken to a browser that never opened the link.
    const back = idp.login(first.url());
    const other = await psuPage('en');
    await other.goto(back);
    await shows(other, TEXTS.en.elsewhereHeading);
    expect(await statusOf(created.statusPath)).toBe('RCVD');
  });
});
