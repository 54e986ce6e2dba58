/**
 * The PSU's SCA redirect pages in a real browser (headless Chromium): what a PSU sees and does
 * after the TPP sends them to `_links.scaRedirect`, in English and Bokmål (Accept-Language from
 * the browser's locale).
 * - approve → the TPP's redirect URI, payment ACTC; reject → the nok URI, RJCT;
 * - failures the PSU did not choose (three wrong codes, another PSU than the TPP named, an
 *   expired link) end on an outcome page with the reason and the way back; the payment is RJCT;
 * - a cancellation approved → CANC; the PSU pre-step (login) → redirect with ?code=, which
 *   POST /v1/token exchanges for an access token;
 * - the bank-app shortcut appears on a phone only, and not with Biometric-Authentication: false;
 * - the PSU-ID the TPP named shows masked, never whole;
 * - the pages belong to the browser that opened the link first (an HttpOnly, SameSite=Lax session
 *   cookie for the authorisation's path): another browser sees the in-progress page and can
 *   finish nothing, not even with the first browser's form;
 * - the pages work without JavaScript, load nothing from other origins, and break no CSP rule.
 * Fields and buttons are found by their labels and roles, so the labels are tested too.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { walkScaRedirect } from '../../src/client/sca-redirect-driver.js';
import {
  button,
  closeBrowserTestRig,
  heading,
  IPHONE_USER_AGENT,
  LOGIN_TEXTS,
  psuProfile,
  shows,
  startBrowserTestRig,
  watchedContexts,
  type StandInTpp,
  chromiumMissing,
} from '../support/browser.js';
import { corporation, crossBorderBody, NCBCT, NDCT, ndctBody, pathOf, privatePsu, type Body, type Psu } from '../support/payments.js';
import { identityNumber } from '../support/sandbox.js';
import { maskedPsuId } from '../support/sca.js';
import type { TestServer } from '../support/test-server.js';

type Language = 'en' | 'nb';

/** The pages' texts as the PSU reads them. */
const TEXTS = {
  en: {
    ...LOGIN_TEXTS.en,
    locked: 'The app you came from named this customer.',
    app: 'Confirm in the bank app (fingerprint or face)',
    sandboxCode: 'Sandbox: the code is 123456.',
    stepsOf3: ['Step 1 of 3', 'Step 2 of 3', 'Step 3 of 3'],
    stepsOf2: ['Step 1 of 2', 'Step 2 of 2'],
    wrong2: 'Wrong code. 2 attempts left.',
    wrong1: 'Wrong code. 1 attempt left.',
    confirmHeading: 'Approve this payment',
    cancelHeading: 'Cancel this payment',
    approve: 'Approve',
    reject: 'Reject',
    cancel: 'Cancel the payment',
    keep: 'Keep the payment',
    failedHeading: 'Not completed',
    returnTo: 'Return to',
    wrongCodes: 'The one-time code was wrong 3 times',
    otherPsu: 'Someone other than the customer the app named tried to approve it',
    expired: 'The link expired before the approval was finished',
    amount: 'Amount',
    to: 'To',
    toAccount: 'To account',
    fromAccount: 'From account',
    executionDate: 'Execution date',
    asap: 'as soon as possible',
    message: 'Message',
    nok100: 'NOK 100.33',
    title: 'Approve payment',
    elsewhereHeading: 'In progress in another browser',
    elsewhere:
      'This link has already been opened in another browser, and it can only be finished there. Go back to that browser, or start again from the app you came from.',
  },
  nb: {
    ...LOGIN_TEXTS.nb,
    locked: 'Appen du kom fra oppga denne kunden.',
    app: 'Bekreft i bankappen (fingeravtrykk eller ansikt)',
    sandboxCode: 'Sandkasse: koden er 123456.',
    stepsOf3: ['Steg 1 av 3', 'Steg 2 av 3', 'Steg 3 av 3'],
    stepsOf2: ['Steg 1 av 2', 'Steg 2 av 2'],
    wrong2: 'Feil kode. 2 forsøk igjen.',
    wrong1: 'Feil kode. 1 forsøk igjen.',
    confirmHeading: 'Godkjenn denne betalingen',
    cancelHeading: 'Kanseller denne betalingen',
    approve: 'Godkjenn',
    reject: 'Avvis',
    cancel: 'Kanseller betalingen',
    keep: 'Behold betalingen',
    failedHeading: 'Ikke fullført',
    returnTo: 'Gå tilbake til',
    wrongCodes: 'Engangskoden var feil 3 ganger',
    otherPsu: 'En annen enn kunden appen oppga, forsøkte å godkjenne den',
    expired: 'Lenken utløp før godkjenningen var fullført',
    amount: 'Beløp',
    to: 'Til',
    toAccount: 'Til konto',
    fromAccount: 'Fra konto',
    executionDate: 'Utførelsesdato',
    asap: 'så snart som mulig',
    message: 'Melding',
    nok100: '100,33 kr',
    title: 'Godkjenn betaling',
    elsewhereHeading: 'I gang i en annen nettleser',
    elsewhere:
      'Denne lenken er allerede åpnet i en annen nettleser, og den kan bare fullføres der. Gå tilbake til den nettleseren, eller start på nytt fra appen du kom fra.',
  },
} as const;

const SCA_EXPIRY_SECONDS = 900;
/** The name in the default test TPP's certificate, as the pages show it. */
const TPP_NAME = 'PSDNO-FSA-123456789 AS';

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('SCA redirect pages in headless Chromium', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;
  let psu: Psu;
  /** Added to the server's clock: the expiry test moves it past the link's lifetime. */
  let clockOffsetMs = 0;

  /** Every browser context of a test, checked after the test. */
  const contexts = watchedContexts(() => browser);

  beforeAll(async () => {
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite', now: () => new Date(Date.now() + clockOffsetMs) }));
    psu = await privatePsu(server.client);
  });

  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));

  afterEach(() => contexts.closeAndCheck([server.baseUrl, tpp.origin]));

  /** A fresh browser profile in the PSU's language. */
  async function psuPage(language: Language, options: BrowserContextOptions = {}): Promise<Page> {
    return contexts.open(psuProfile(TEXTS[language].locale, options));
  }

  interface Created {
    readonly paymentId: string;
    readonly scaRedirect: string;
    readonly statusPath: string;
    readonly path: string;
    readonly body: Body;
  }

  /** A payment created by the TPP with both redirect URIs; PSU-ID unless `headers` says otherwise. */
  async function createPayment(options: { headers?: Record<string, string>; body?: Body; product?: string } = {}): Promise<Created> {
    const body = options.body ?? ndctBody(psu.account);
    const response = await server.client.post<any>(`/v1/payments/${options.product ?? NDCT}`, body, {
      headers: {
        ...psu.headers,
        'tpp-redirect-uri': tpp.ok,
        'tpp-nok-redirect-uri': tpp.nok,
        ...options.headers,
      },
    });
    expect(response.status, response.text).toBe(201);
    return {
      paymentId: response.body.paymentId,
      scaRedirect: response.body._links.scaRedirect.href,
      statusPath: pathOf(response.body._links.status.href),
      path: pathOf(String(response.headers.location)),
      body,
    };
  }

  async function statusOf(created: Pick<Created, 'statusPath'>): Promise<{ transactionStatus: string; psuMessage?: string }> {
    const response = await server.client.get<any>(created.statusPath);
    expect(response.status, response.text).toBe(200);
    return response.body;
  }

  /** The confirmation page's label → value lines. */
  async function confirmationLines(page: Page): Promise<Record<string, string>> {
    const labels = await page.locator('main > dl > dt').allTextContents();
    const values = await page.locator('main > dl > dd').allTextContents();
    expect(values.length).toBe(labels.length);
    // Amounts are formatted with no-break spaces.
    return Object.fromEntries(labels.map((label, index) => [label, (values[index] ?? '').replace(/\u00a0|\u202f/g, ' ')]));
  }

  /** Identify (the PSU-ID locked by the TPP) and the right code, up to the confirmation page. */
  async function upToConfirmation(page: Page, language: Language, confirmHeading: string = TEXTS[language].confirmHeading) {
    const t = TEXTS[language];
    await shows(page, t.identifyHeading);
    await button(page, t.next).click();
    await shows(page, t.codeHeading);
    await page.getByLabel(t.code, { exact: true }).fill('123456');
    await button(page, t.next).click();
    await shows(page, confirmHeading);
  }

  describe.each(['en', 'nb'] as const)('in %s', (language) => {
    const t = TEXTS[language];

    it('approve: identify (PSU-ID locked), code, confirmation, then the TPP redirect URI; ACTC', async () => {
      const payment = await createPayment();
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);

      await shows(page, t.identifyHeading);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await page.title()).toBe(`${t.title} – Nordic Sandbox Bank`);
      expect(await page.getByText(t.stepsOf3[0], { exact: true }).count()).toBe(1);
      const psuId = page.getByLabel(t.psuId, { exact: true });
      expect(await psuId.inputValue()).toBe(maskedPsuId(psu.customerNumber));
      expect(await psuId.isEditable()).toBe(false);
      expect(await psuId.getAttribute('aria-describedby')).toBe('psu-id-locked');
      expect(await page.locator('#psu-id-locked').textContent()).toBe(t.locked);
      expect(await page.content()).not.toContain(psu.customerNumber);
      // The stylesheet is inline and allowed by its hash: it applies.
      expect(await page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")).toBe('rgb(11, 61, 92)');
      // A desktop browser is not offered the bank app.
      expect(await button(page, t.app).count()).toBe(0);
      await button(page, t.next).click();

      await shows(page, t.codeHeading);
      expect(await page.getByText(t.stepsOf3[1], { exact: true }).count()).toBe(1);
      expect(await page.getByText(t.sandboxCode, { exact: true }).count()).toBe(1);
      await page.getByLabel(t.code, { exact: true }).fill('123456');
      await button(page, t.next).click();

      await shows(page, t.confirmHeading);
      expect(await page.getByText(t.stepsOf3[2], { exact: true }).count()).toBe(1);
      const creditor = payment.body['creditorAccount'] as { bban: string };
      expect(await confirmationLines(page)).toMatchObject({
        [t.amount]: t.nok100,
        [t.to]: 'Company 123',
        [t.toAccount]: creditor.bban,
        [t.fromAccount]: psu.account.bban,
        [t.executionDate]: t.asap,
        [t.message]: 'Kredittrente',
      });
      expect(await page.getByText(TPP_NAME, { exact: true }).count()).toBe(1);
      expect(await button(page, t.reject).count()).toBe(1);
      await button(page, t.approve).click();

      await page.waitForURL(tpp.ok);
      expect(await heading(page, 'Back at the TPP').count()).toBe(1);
      expect(tpp.hits).toContain('/tpp/ok');
      expect((await statusOf(payment)).transactionStatus).toBe('ACTC');
    });

    it('reject: the confirmation page sends the PSU to the nok URI; RJCT', async () => {
      const payment = await createPayment();
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);
      await upToConfirmation(page, language);
      await button(page, t.reject).click();
      await page.waitForURL(tpp.nok);
      expect(await statusOf(payment)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: The customer rejected it',
      });
    });

    it('three wrong codes: attempts left, then the failure page with the reason and a link to the nok URI; RJCT', async () => {
      const payment = await createPayment();
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);
      await shows(page, t.identifyHeading);
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      const code = page.getByLabel(t.code, { exact: true });

      await code.fill('000000');
      await button(page, t.next).click();
      await page.getByRole('alert').filter({ hasText: t.wrong2 }).waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await code.getAttribute('aria-describedby')).toBe('code-error');
      expect(await code.inputValue()).toBe('');

      await code.fill('111111');
      await button(page, t.next).click();
      await page.getByRole('alert').filter({ hasText: t.wrong1 }).waitFor();

      await code.fill('222222');
      await button(page, t.next).click();
      await shows(page, t.failedHeading);
      expect(await page.getByRole('alert').textContent()).toBe(t.wrongCodes);
      const back = page.getByRole('link', { name: `${t.returnTo} ${TPP_NAME}`, exact: true });
      expect(await back.getAttribute('href')).toBe(tpp.nok);
      expect(await statusOf(payment)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: The one-time code was wrong 3 times',
      });
      // Reloading shows the same outcome; the link leads back to the TPP.
      await page.goto(payment.scaRedirect);
      await shows(page, t.failedHeading);
      await back.click();
      await page.waitForURL(tpp.nok);
    });

    it('another PSU than the TPP named: the field is locked; a tampered form fails the payment (RJCT) with the reason', async () => {
      const payment = await createPayment();
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);
      await shows(page, t.identifyHeading);
      const psuId = page.getByLabel(t.psuId, { exact: true });
      expect(await psuId.inputValue()).toBe(maskedPsuId(psu.customerNumber));
      expect(await psuId.getAttribute('readonly')).toBe('');
      // Simulates a tampered form: the locked field unlocked and another valid number typed.
      await psuId.evaluate((input) => input.removeAttribute('readonly'));
      await psuId.fill(identityNumber());
      await button(page, t.next).click();

      await shows(page, t.failedHeading);
      expect(await page.getByRole('alert').textContent()).toBe(t.otherPsu);
      expect(await page.getByRole('link', { name: `${t.returnTo} ${TPP_NAME}`, exact: true }).getAttribute('href')).toBe(tpp.nok);
      expect(await statusOf(payment)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: Someone other than the customer the app named tried to approve it',
      });
    });

    it('another browser opening the link after the PSU identified sees the in-progress page and finishes nothing; the first browser does', async () => {
      const payment = await createPayment();
      const id = new URL(payment.scaRedirect).pathname.split('/').pop() ?? '';
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);
      await shows(page, t.identifyHeading);
      const [cookie, ...more] = await page.context().cookies();
      expect(more).toEqual([]);
      expect(cookie).toMatchObject({ path: `/sca/${id}`, httpOnly: true, sameSite: 'Lax', secure: false, expires: -1 });
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      const csrf = await page.locator('input[name="csrf"]').getAttribute('value');

      const other = await psuPage(language);
      const opened = await other.goto(payment.scaRedirect);
      expect(opened?.status()).toBe(409);
      await shows(other, t.elsewhereHeading);
      expect(await other.getByRole('alert').textContent()).toBe(t.elsewhere);
      expect(await other.getByLabel(t.code, { exact: true }).count()).toBe(0);
      expect(await other.locator('form').count()).toBe(0);
      expect(await other.context().cookies()).toEqual([]);
      expect(await other.content()).not.toContain(psu.customerNumber);
      // Not even the first browser's form, posted from the other browser, gets anywhere.
      const posted = await other.request.post(`${payment.scaRedirect}/code`, {
        form: { csrf: csrf ?? '', code: '123456' },
        headers: { 'accept-language': t.locale },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(409);
      expect(await posted.text()).toContain(t.elsewhereHeading);
      expect((await statusOf(payment)).transactionStatus).toBe('RCVD');
      const authorisations = await server.client.get<any>(`${payment.path}/authorisations/${id}`);
      expect(authorisations.body).toMatchObject({ scaStatus: 'psuIdentified' });

      await page.getByLabel(t.code, { exact: true }).fill('123456');
      await button(page, t.next).click();
      await shows(page, t.confirmHeading);
      await button(page, t.approve).click();
      await page.waitForURL(tpp.ok);
      expect((await statusOf(payment)).transactionStatus).toBe('ACTC');
      // Afterwards the other browser still sees the in-progress page, not the outcome.
      await other.reload();
      await shows(other, t.elsewhereHeading);
    });

    it('an expired link: reloading after the expiry shows the failure page; RJCT', async () => {
      const payment = await createPayment();
      const page = await psuPage(language);
      await page.goto(payment.scaRedirect);
      await shows(page, t.identifyHeading);
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      clockOffsetMs = (SCA_EXPIRY_SECONDS + 1) * 1000;
      try {
        await page.reload();
        await shows(page, t.failedHeading);
        expect(await page.getByRole('alert').textContent()).toBe(t.expired);
        expect(await page.getByLabel(t.code, { exact: true }).count()).toBe(0);
      } finally {
        // Back to the real time before the TPP's signed request (its Date header is checked).
        clockOffsetMs = 0;
      }
      expect(await statusOf(payment)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: The link expired before the approval was finished',
      });
    });

    it('a cancellation: DELETE of an ACTC payment, its authorisation approved on the pages; CANC', async () => {
      const payment = await createPayment();
      const approved = await walkScaRedirect(payment.scaRedirect, { language });
      expect(approved.redirectedTo).toBe(tpp.ok);
      expect((await statusOf(payment)).transactionStatus).toBe('ACTC');

      const deleted = await server.client.delete<any>(payment.path);
      expect(deleted.status, deleted.text).toBe(202);
      const started = await server.client.post<any>(pathOf(deleted.body._links.startAuthorisation.href), undefined, {
        headers: psu.headers,
      });
      expect(started.status, started.text).toBe(201);

      const page = await psuPage(language);
      await page.goto(started.body._links.scaRedirect.href);
      await upToConfirmation(page, language, t.cancelHeading);
      expect(await page.title()).toBe(`${language === 'en' ? 'Cancel payment' : 'Kanseller betaling'} – Nordic Sandbox Bank`);
      expect(await confirmationLines(page)).toMatchObject({ [t.amount]: t.nok100, [t.to]: 'Company 123' });
      expect(await button(page, t.keep).count()).toBe(1);
      expect(await button(page, t.approve).count()).toBe(0);
      await button(page, t.cancel).click();
      await page.waitForURL(tpp.ok);
      expect((await statusOf(payment)).transactionStatus).toBe('CANC');
    });

    it('the PSU pre-step: a corporate payment without PSU-ID → 401 login → ?code= → POST /v1/token → the payment with the token', async () => {
      const company = await corporation(server.client);
      const body = ndctBody(company.account);
      const corporateHeaders = { 'psu-corporate-id': company.organisationNumber };
      const refused = await server.client.post<any>(`/v1/payments/${NDCT}`, body, {
        headers: { ...corporateHeaders, 'tpp-redirect-uri': tpp.ok, 'tpp-nok-redirect-uri': tpp.nok },
      });
      expect(refused.status, refused.text).toBe(401);

      const page = await psuPage(language);
      await page.goto(refused.body._links.scaRedirect.href);
      await shows(page, t.identifyHeading);
      expect(await page.title()).toBe(`${t.identifyHeading} – Nordic Sandbox Bank`);
      expect(await page.getByText(t.stepsOf2[0], { exact: true }).count()).toBe(1);
      const psuId = page.getByLabel(t.psuId, { exact: true });
      expect(await psuId.inputValue()).toBe('');
      expect(await psuId.isEditable()).toBe(true);
      await psuId.fill(company.registrar.customerNumber);
      await button(page, t.next).click();
      await shows(page, t.codeHeading);
      expect(await page.getByText(t.stepsOf2[1], { exact: true }).count()).toBe(1);
      await page.getByLabel(t.code, { exact: true }).fill('123456');
      await button(page, t.next).click();

      await page.waitForURL((url) => url.href.startsWith(`${tpp.ok}?code=`));
      const code = new URL(page.url()).searchParams.get('code');
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const token = await server.client.post<any>('/v1/token', { code });
      expect(token.status, token.text).toBe(200);
      expect(token.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
      // The token names the PSU: the payment is created, and its link is locked to that PSU.
      const payment = await server.client.post<any>(`/v1/payments/${NDCT}`, body, {
        headers: { ...corporateHeaders, authorization: `Bearer ${token.body.access_token}` },
      });
      expect(payment.status, payment.text).toBe(201);
      await page.goto(payment.body._links.scaRedirect.href);
      await shows(page, t.identifyHeading);
      expect(await page.getByLabel(t.psuId, { exact: true }).inputValue()).toBe(maskedPsuId(company.registrar.customerNumber));
    });

    it('the bank-app shortcut on a phone skips the code step; ACTC', async () => {
      const payment = await createPayment();
      const page = await psuPage(language, { userAgent: IPHONE_USER_AGENT, viewport: { width: 390, height: 844 }, isMobile: true });
      await page.goto(payment.scaRedirect);
      await shows(page, t.identifyHeading);
      const app = button(page, t.app);
      expect(await app.isVisible()).toBe(true);
      expect(await app.getAttribute('aria-describedby')).toBe('app-hint');
      await app.click();
      await shows(page, t.confirmHeading);
      await button(page, t.approve).click();
      await page.waitForURL(tpp.ok);
      expect((await statusOf(payment)).transactionStatus).toBe('ACTC');
    });
  });

  it('a cancellation kept (nb): the nok URI, and the payment stays ACTC', async () => {
    const payment = await createPayment();
    expect((await walkScaRedirect(payment.scaRedirect, { language: 'nb' })).redirectedTo).toBe(tpp.ok);
    const deleted = await server.client.delete<any>(payment.path);
    const started = await server.client.post<any>(pathOf(deleted.body._links.startAuthorisation.href), undefined, {
      headers: psu.headers,
    });
    const page = await psuPage('nb');
    await page.goto(started.body._links.scaRedirect.href);
    await upToConfirmation(page, 'nb', TEXTS.nb.cancelHeading);
    await button(page, TEXTS.nb.keep).click();
    await page.waitForURL(tpp.nok);
    expect((await statusOf(payment)).transactionStatus).toBe('ACTC');
  });

  it('no bank-app shortcut with Biometric-Authentication: false, even on a phone (en)', async () => {
    const payment = await createPayment({ headers: { 'biometric-authentication': 'false' } });
    const page = await psuPage('en', { userAgent: IPHONE_USER_AGENT, viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(payment.scaRedirect);
    await shows(page, TEXTS.en.identifyHeading);
    expect(await button(page, TEXTS.en.next).isVisible()).toBe(true);
    expect(await button(page, TEXTS.en.app).count()).toBe(0);
  });

  it('works with JavaScript disabled (en): approve → the TPP redirect URI; ACTC', async () => {
    const payment = await createPayment();
    const page = await psuPage('en', { javaScriptEnabled: false });
    await page.goto(payment.scaRedirect);
    await upToConfirmation(page, 'en');
    await button(page, TEXTS.en.approve).click();
    await page.waitForURL(tpp.ok);
    expect((await statusOf(payment)).transactionStatus).toBe('ACTC');
  });

  it('a cross-border payment shows its creditor bank and currency-register text on the confirmation page', async () => {
    const payment = await createPayment({
      product: NCBCT,
      body: crossBorderBody(psu.account, { regulatoryReportingCode: '26', regulatoryReportingInformation: 'Rent for skiapartment' }),
    });
    const page = await psuPage('en');
    await page.goto(payment.scaRedirect);
    await upToConfirmation(page, 'en');
    expect(await confirmationLines(page)).toMatchObject({
      Amount: 'SEK 100.33',
      'Creditor bank (BIC)': 'ESSESESS',
      'Currency register': '26 Rent and lease, including licence fees and royalties: Rent for skiapartment',
    });
  });
});
