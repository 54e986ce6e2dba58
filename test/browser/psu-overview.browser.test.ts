/**
 * The PSU's own page of consents and payments in headless Chromium, in English and Bokmål: the
 * TPP obtains the link to the page on its sandbox bank (`POST /v1/sandbox/psu-page-links`), the
 * PSU opens it and logs in (PSU-ID, then the sandbox's one-time code), sees the consent it gave with its
 * Revoke button and the payment a TPP started for it, and revokes the consent. The page says so,
 * the consent reads revokedByPsu on the TPP's side and its reads are refused.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  button,
  chromiumMissing,
  closeBrowserTestRig,
  LOGIN_TEXTS,
  psuProfile,
  shows,
  startBrowserTestRig,
  watchedContexts,
  type StandInTpp,
} from '../support/browser.js';
import { approvedConsent, consentBody, consentStatusOf, detailedAccess } from '../support/consents.js';
import { created, initiate, NDCT, ndctBody, privatePsu } from '../support/payments.js';
import { DEFAULT_TPP, pageLink } from '../support/psu-overview.js';
import { walk } from '../support/sca.js';
import type { TestServer } from '../support/test-server.js';

const TEXTS = {
  en: {
    ...LOGIN_TEXTS.en,
    loginHeading: 'Log in to see your consents',
    heading: 'Consents and payments',
    revoke: 'Revoke access',
    active: 'Active',
    revoked: 'Revoked by you',
    notice: 'The access is revoked.',
    payment: 'Waiting for your approval',
  },
  nb: {
    ...LOGIN_TEXTS.nb,
    loginHeading: 'Logg inn for å se samtykkene dine',
    heading: 'Samtykker og betalinger',
    revoke: 'Trekk tilbake tilgangen',
    active: 'Aktiv',
    revoked: 'Trukket tilbake av deg',
    notice: 'Tilgangen er trukket tilbake.',
    payment: 'Venter på godkjenning',
  },
} as const;

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('the PSU page of consents in headless Chromium', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;
  const contexts = watchedContexts(() => browser);

  beforeAll(async () => {
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite' }));
  });
  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));
  afterEach(() => contexts.closeAndCheck([server.baseUrl]));

  describe.each(['en', 'nb'] as const)('in %s', (language) => {
    const t = TEXTS[language];

    it('the PSU logs in, sees its consent and payment, and revokes the consent', async () => {
      const psu = await privatePsu(server.client);
      const consentId = await approvedConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers, (link) => walk(link));
      const payment = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));

      const page: Page = await contexts.open(psuProfile(t.locale));
      const { href } = await pageLink(server.client);
      await page.goto(href);
      await shows(page, t.loginHeading);
      // The token has left the address bar: the visit is the cookie now.
      expect(page.url()).toBe(`${server.baseUrl}/psu/consents`);
      expect(await page.locator('input[name="tpp"]').count()).toBe(0);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await page.getByLabel(t.psuId, { exact: true }).fill(psu.customerNumber);
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      await page.getByLabel(t.code, { exact: true }).fill('123456');
      await button(page, t.next).click();
      await shows(page, t.heading);

      const consent = page.locator(`section[data-consent-id="${consentId}"]`);
      await expect(consent.getByRole('heading', { name: `${DEFAULT_TPP} AS` }).count()).resolves.toBe(1);
      expect(await consent.textContent()).toContain(psu.account.iban);
      expect(await consent.textContent()).toContain(t.active);
      expect(await page.locator(`section[data-payment-id="${payment.paymentId}"]`).textContent()).toContain(t.payment);

      await consent.getByRole('button', { name: t.revoke, exact: true }).click();
      await page.getByRole('status').filter({ hasText: t.notice }).waitFor();
      expect(await page.locator(`section[data-consent-id="${consentId}"]`).textContent()).toContain(t.revoked);
      expect(await page.getByRole('button', { name: t.revoke, exact: true }).count()).toBe(0);

      expect(await consentStatusOf(server.client, consentId)).toBe('revokedByPsu');
      const read = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
      expect({ status: read.status, code: read.body.code }).toEqual({ status: 401, code: 'CONSENT_INVALID' });
    });
  });
});
