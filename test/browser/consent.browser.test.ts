/**
 * A PSU approves a bank-offered account information consent in headless Chromium, in English and
 * Bokmål: log in, one-time code, then the confirmation page lists the PSU's accounts as unticked
 * checkboxes; the PSU ticks one of two and approves. The browser lands on the TPP's redirect URI,
 * the consent is valid, and the TPP's account list shows the ticked account only.
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
import { consentBody, consentStatusOf, createConsent } from '../support/consents.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import type { TestServer } from '../support/test-server.js';

const TEXTS = {
  en: { ...LOGIN_TEXTS.en, heading: 'Share account information', legend: 'Accounts to share', approve: 'Approve' },
  nb: { ...LOGIN_TEXTS.nb, heading: 'Del kontoinformasjon', legend: 'Kontoer som skal deles', approve: 'Godkjenn' },
} as const;

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('consent pages in headless Chromium', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;
  const contexts = watchedContexts(() => browser);

  beforeAll(async () => {
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite' }));
  });
  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));
  afterEach(() => contexts.closeAndCheck([server.baseUrl, tpp.origin]));

  describe.each(['en', 'nb'] as const)('in %s', (language) => {
    const t = TEXTS[language];

    it('the PSU ticks one of two accounts and approves; the TPP then lists that account only', async () => {
      const psu = await createCustomer(server.client, 'PRIVATE', 'Kari Samtykke');
      const shared = await createAccount(server.client, psu.customerNumber, { name: 'Regningskonto' });
      const kept = await createAccount(server.client, psu.customerNumber, { name: 'Feriekonto' });
      const { consentId, scaRedirect } = await createConsent(server.client, consentBody({ accounts: [], balances: [], transactions: [] }), {
        'psu-id': psu.customerNumber,
        'tpp-redirect-uri': tpp.ok,
        'tpp-nok-redirect-uri': tpp.nok,
      });
      const page: Page = await contexts.open(psuProfile(t.locale));
      await page.goto(scaRedirect!);
      await shows(page, t.identifyHeading);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      await page.getByLabel(t.code, { exact: true }).fill('123456');
      await button(page, t.next).click();
      await shows(page, t.heading);

      const offered = page.getByRole('group', { name: t.legend }).getByRole('checkbox');
      expect(await offered.count()).toBe(2);
      const sharedBox = page.getByRole('checkbox', { name: new RegExp(`^Regningskonto .*${shared.bban.slice(-4)}`) });
      const keptBox = page.getByRole('checkbox', { name: new RegExp(`^Feriekonto .*${kept.bban.slice(-4)}`) });
      expect(await sharedBox.isChecked()).toBe(false);
      expect(await keptBox.isChecked()).toBe(false);
      await sharedBox.check();
      await button(page, t.approve).click();
      await page.waitForURL((url) => url.href.startsWith(tpp.ok));

      expect(await consentStatusOf(server.client, consentId)).toBe('valid');
      const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
      expect(list.status, list.text).toBe(200);
      expect(list.body.accounts.map((account: any) => account.bban)).toEqual([shared.bban]);
    });
  });
});
