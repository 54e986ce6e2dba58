/**
 * A signing basket approved in a real browser (headless Chromium): the TPP creates three
 * NDCT payments and one NCBCT payment with explicit authorisation for one private PSU and puts
 * them in a basket with TPP-Redirect-URI; the PSU opens the basket's scaRedirect link, logs in
 * (PSU-ID prefilled and locked), enters the one-time code, sees one confirmation page listing
 * all four payments ("Payment 1 of 4" … "Payment 4 of 4") with the number of payments and a total
 * per currency under the heading "Approve 4 payments", approves once, and lands on the TPP's
 * redirect URI; every payment and the basket are then ACTC.
 * - in English and Bokmål (the browser's locale sets Accept-Language): "Godkjenn 4 betalinger";
 * - with JavaScript disabled;
 * - rejecting sends the PSU to the nok URI and rejects every payment (RJCT);
 * - nothing is loaded from other origins and no CSP rule is broken.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basketStatusOf, createBasket, explicitPayment, type CreatedBasket } from '../support/baskets.js';
import {
  button,
  closeBrowserTestRig,
  heading,
  LOGIN_TEXTS,
  psuProfile,
  shows,
  startBrowserTestRig,
  watchedContexts,
  type StandInTpp,
  chromiumMissing,
} from '../support/browser.js';
import { crossBorderBody, NCBCT, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { maskedPsuId, paymentStatusOf, type CreatedPayment } from '../support/sca.js';
import type { TestServer } from '../support/test-server.js';

type Language = 'en' | 'nb';

/** The pages' texts as the PSU reads them (amounts with plain spaces). */
const TEXTS = {
  en: {
    ...LOGIN_TEXTS.en,
    heading: 'Approve 4 payments',
    title: 'Approve payments – Nordic Sandbox Bank',
    step3: 'Step 3 of 3',
    count: 'Number of payments',
    totalNok: 'Total NOK',
    totalSek: 'Total SEK',
    nok300: 'NOK 300.99',
    nok100: 'NOK 100.33',
    sek100: 'SEK 100.33',
    items: ['Payment 1 of 4', 'Payment 2 of 4', 'Payment 3 of 4', 'Payment 4 of 4'],
    amount: 'Amount',
    type: 'Payment type',
    domestic: 'Domestic transfer',
    abroad: 'Payment abroad',
    fromAccount: 'From account',
    bic: 'Creditor bank (BIC)',
    approve: 'Approve',
    reject: 'Reject',
  },
  nb: {
    ...LOGIN_TEXTS.nb,
    heading: 'Godkjenn 4 betalinger',
    title: 'Godkjenn betalinger – Nordic Sandbox Bank',
    step3: 'Steg 3 av 3',
    count: 'Antall betalinger',
    totalNok: 'Sum NOK',
    totalSek: 'Sum SEK',
    nok300: '300,99 kr',
    nok100: '100,33 kr',
    sek100: '100,33 SEK',
    items: ['Betaling 1 av 4', 'Betaling 2 av 4', 'Betaling 3 av 4', 'Betaling 4 av 4'],
    amount: 'Beløp',
    type: 'Betalingstype',
    domestic: 'Innenlands betaling',
    abroad: 'Utenlandsbetaling',
    fromAccount: 'Fra konto',
    bic: 'Mottakers bank (BIC)',
    approve: 'Godkjenn',
    reject: 'Avvis',
  },
} as const;

/** The name in the default test TPP's certificate, as the pages show it. */
const TPP_NAME = 'PSDNO-FSA-123456789 AS';

/** Amounts are formatted with no-break spaces; the expectations use plain ones. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0|\u202f/g, ' ');

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('a signing basket approved in headless Chromium', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;
  let psu: Psu;

  /** Every browser context of a test, checked after the test. */
  const contexts = watchedContexts(() => browser);

  beforeAll(async () => {
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite' }, { ok: '/tpp/basket-ok', nok: '/tpp/basket-nok' }));
    psu = await privatePsu(server.client);
  });

  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));

  afterEach(() => contexts.closeAndCheck([server.baseUrl, tpp.origin], { everyContextLoads: true }));

  /** A fresh browser profile in the PSU's language. */
  async function psuPage(language: Language, options: BrowserContextOptions = {}): Promise<Page> {
    return contexts.open(psuProfile(TEXTS[language].locale, options));
  }

  interface Basket {
    readonly payments: readonly CreatedPayment[];
    readonly basket: CreatedBasket;
    readonly scaRedirect: string;
  }

  /** Three NDCT and one NCBCT payment (explicit authorisation), in a basket with both redirect URIs. */
  async function basketOfFour(): Promise<Basket> {
    const payments = [
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NCBCT, crossBorderBody(psu.account), psu.headers),
    ];
    for (const payment of payments) {
      // Explicit authorisation: nothing started, so no scaRedirect of the payment's own.
      expect(payment.links['scaRedirect']).toBeUndefined();
      expect((await paymentStatusOf(server.client, payment.path)).transactionStatus).toBe('RCVD');
    }
    const basket = await createBasket(
      server.client,
      payments.map((payment) => payment.paymentId),
      { ...psu.headers, 'tpp-redirect-uri': tpp.ok, 'tpp-nok-redirect-uri': tpp.nok },
    );
    expect(await basketStatusOf(server.client, basket.path)).toBe('RCVD');
    const scaRedirect = basket.links['scaRedirect']?.href;
    expect(scaRedirect).toBeDefined();
    return { payments, basket, scaRedirect: scaRedirect! };
  }

  /** label → value of a `<dl>`. */
  async function linesOf(list: ReturnType<Page['locator']>): Promise<Record<string, string>> {
    const labels = await list.locator('dt').allTextContents();
    const values = await list.locator('dd').allTextContents();
    expect(values.length).toBe(labels.length);
    return Object.fromEntries(labels.map((label, index) => [label, plain(values[index])]));
  }

  /** Identify (PSU-ID prefilled and locked), the right code, up to the basket's confirmation page. */
  async function upToConfirmation(page: Page, language: Language, basket: Basket): Promise<void> {
    const t = TEXTS[language];
    await page.goto(basket.scaRedirect);
    await shows(page, t.identifyHeading);
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    expect(await page.title()).toBe(t.title);
    const psuId = page.getByLabel(t.psuId, { exact: true });
    expect(await psuId.inputValue()).toBe(maskedPsuId(psu.customerNumber));
    expect(await psuId.isEditable()).toBe(false);
    await button(page, t.next).click();
    await shows(page, t.codeHeading);
    await page.getByLabel(t.code, { exact: true }).fill('123456');
    await button(page, t.next).click();
    await shows(page, t.heading);
  }

  /** The confirmation page of the basket: heading, count and totals, the four payments with their lines. */
  async function checkConfirmation(page: Page, language: Language): Promise<void> {
    const t = TEXTS[language];
    expect(await page.title()).toBe(t.title);
    expect(await page.getByText(t.step3, { exact: true }).count()).toBe(1);
    expect(await page.getByText(TPP_NAME, { exact: true }).count()).toBe(1);
    expect(await linesOf(page.locator('main > dl'))).toEqual({ [t.count]: '4', [t.totalNok]: t.nok300, [t.totalSek]: t.sek100 });

    const items = page.locator('main > section.item');
    expect(await items.count()).toBe(4);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([...t.items]);
    for (const [index, title] of t.items.entries()) {
      const item = items.nth(index);
      expect(await item.getByRole('heading', { level: 2 }).textContent()).toBe(title);
      const lines = await linesOf(item.locator('dl'));
      expect(lines[t.fromAccount]).toBe(psu.account.bban);
      if (index < 3) {
        expect(lines).toMatchObject({ [t.amount]: t.nok100, [t.type]: t.domestic });
      } else {
        expect(lines).toMatchObject({ [t.amount]: t.sek100, [t.type]: t.abroad, [t.bic]: 'ESSESESS' });
      }
    }
    expect(await button(page, t.approve).count()).toBe(1);
    expect(await button(page, t.reject).count()).toBe(1);
  }

  /** Every payment of the basket, and the basket, are in `status`. */
  async function expectAll(basket: Basket, status: string): Promise<void> {
    for (const payment of basket.payments) {
      expect((await paymentStatusOf(server.client, payment.path)).transactionStatus, payment.paymentId).toBe(status);
    }
    expect(await basketStatusOf(server.client, basket.basket.path)).toBe(status);
  }

  describe.each(['en', 'nb'] as const)('in %s', (language) => {
    const t = TEXTS[language];

    it(`approve: one confirmation page "${t.heading}" lists all four payments and the totals; redirect URI; all ACTC`, async () => {
      const basket = await basketOfFour();
      const page = await psuPage(language);
      await upToConfirmation(page, language, basket);
      await checkConfirmation(page, language);

      await button(page, t.approve).click();
      await page.waitForURL(tpp.ok);
      expect(await heading(page, 'Back at the TPP').count()).toBe(1);
      expect(tpp.hits).toContain('/tpp/basket-ok');
      await expectAll(basket, 'ACTC');
    });
  });

  it('works with JavaScript disabled (en): approve → the TPP redirect URI; all ACTC', async () => {
    const basket = await basketOfFour();
    const page = await psuPage('en', { javaScriptEnabled: false });
    await upToConfirmation(page, 'en', basket);
    await checkConfirmation(page, 'en');
    await button(page, TEXTS.en.approve).click();
    await page.waitForURL(tpp.ok);
    await expectAll(basket, 'ACTC');
  });

  it('reject (en): the nok URI; every payment and the basket RJCT', async () => {
    const basket = await basketOfFour();
    const page = await psuPage('en');
    await upToConfirmation(page, 'en', basket);
    await button(page, TEXTS.en.reject).click();
    await page.waitForURL(tpp.nok);
    expect(tpp.hits).toContain('/tpp/basket-nok');
    await expectAll(basket, 'RJCT');
    const status = await paymentStatusOf(server.client, basket.payments[0]!.path);
    expect(status.psuMessage).toBe('SCA failed: The customer rejected it');
  });
});
