/**
 * Payments approved in a real browser (headless Chromium) and then executed: the PSU
 * follows `_links.scaRedirect`, logs in (PSU-ID locked), enters the one-time code and approves;
 * the TPP gave no redirect URI, so the approval ends on the bank's outcome page ("Done"), which
 * says what became of the payment. Each test has a TPP of its own, whose sandbox clock is at 10:00
 * on the next bank day, so nothing depends on the real time of day.
 * - NDCT from a funded account: "You have approved it." (ACTC); the TPP's batch run executes it
 *   (executed 1): ACSC with fundsAvailable true, the debtor debited and an in-bank creditor
 *   credited by the amount; the link reopened then says it has been paid;
 * - instant (Straks) within the balance: the outcome page says it has been paid (English, and
 *   Bokmål from the browser's locale); ACSC at once, debited with no batch run;
 * - instant above the balance: the outcome page says it could not be paid for lack of money, with
 *   no server error on the way; RJCT with fundsAvailable false, the authorisation finalised;
 * - NDCT above the balance: approved; a batch run leaves it ACCP with fundsAvailable false; the
 *   clock moved to 15:40 (after the day's last batch time), a run rejects it (RJCT) with a
 *   psuMessage on insufficient funds;
 * - with the TPP's redirect URI an instant payment lands the PSU at the TPP; the link reopened
 *   shows the outcome with the way back;
 * - the pages load nothing from other origins and break no CSP rule.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
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
import {
  balanceOf,
  inBankAccount,
  NO_COUNTS,
  nok,
  osloDateTime,
  runBatch,
  setBalance,
  setClock,
  statusOf,
  tppOnBankDay,
  type FundedPsu,
} from '../support/execution.js';
import { INDCTS, NDCT, ndctBody, type Body } from '../support/payments.js';
import { createPayment, maskedPsuId, scaStatusOf, type CreatedPayment } from '../support/sca.js';
import type { TestServer } from '../support/test-server.js';

type Language = 'en' | 'nb';

/** The pages' texts as the PSU reads them. */
const TEXTS = {
  en: {
    ...LOGIN_TEXTS.en,
    confirmHeading: 'Approve this payment',
    approve: 'Approve',
    doneHeading: 'Done',
    approved: 'You have approved it.',
    paid: 'You have approved it, and it has been paid.',
    notPaid: 'You have approved it, but it could not be paid: there is not enough money on the account.',
    closeWindow: 'You can close this window and return to the app.',
    returnTo: 'Return to',
    serverError: 'Something went wrong on our side.',
  },
  nb: {
    ...LOGIN_TEXTS.nb,
    confirmHeading: 'Godkjenn denne betalingen',
    approve: 'Godkjenn',
    doneHeading: 'Ferdig',
    approved: 'Du har godkjent.',
    paid: 'Du har godkjent, og den er betalt.',
    notPaid: 'Du har godkjent, men den kunne ikke betales: det er ikke nok penger på kontoen.',
    closeWindow: 'Du kan lukke dette vinduet og gå tilbake til appen.',
    returnTo: 'Gå tilbake til',
    serverError: 'Noe gikk galt hos oss.',
  },
} as const;

const INSTANT_NOT_PAID = 'Insufficient funds on the debtor account: the instant payment was not made';

// Not run, with the instruction, on a machine without Chromium (outside CI): see test/support/chromium.ts.
describe.skipIf(chromiumMissing() !== undefined)('payments approved in headless Chromium, then executed', () => {
  let server: TestServer;
  let tpp: StandInTpp;
  let browser: Browser;

  /** Every browser context of a test, checked after the test. */
  const contexts = watchedContexts(() => browser);
  /** The bank's answers of 500 or more to the PSU's browser, per test. */
  const serverErrors: string[] = [];

  beforeAll(async () => {
    ({ server, tpp, browser } = await startBrowserTestRig({ dialect: 'sqlite' }, { ok: '/tpp/execution-ok', nok: '/tpp/execution-nok' }));
  });

  afterAll(() => closeBrowserTestRig({ browser, tpp, server }));

  afterEach(async () => {
    await contexts.closeAndCheck([server.baseUrl, tpp.origin], { everyContextLoads: true });
    // A 5xx document is only a "Failed to load resource" console line, which the watch ignores.
    const errors = serverErrors.splice(0);
    expect(errors).toEqual([]);
  });

  /** A fresh browser profile in the PSU's language; the bank's 5xx answers are recorded. */
  async function psuPage(language: Language, options: BrowserContextOptions = {}): Promise<Page> {
    const page = await contexts.open(psuProfile(TEXTS[language].locale, options));
    page.on('response', (response) => {
      if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    return page;
  }

  /** A payment created with PSU-ID; no redirect URI unless `headers` gives one. */
  async function paymentOf(
    client: TppClient,
    psu: FundedPsu,
    product: string,
    body: Body,
    headers: Record<string, string> = {},
  ): Promise<CreatedPayment & { scaRedirect: string }> {
    const payment = await createPayment(client, 'payments', product, body, { ...psu.headers, ...headers });
    expect(payment.body.transactionStatus).toBe('RCVD');
    const scaRedirect = payment.links['scaRedirect']?.href;
    expect(scaRedirect).toBeDefined();
    return { ...payment, scaRedirect: scaRedirect! };
  }

  /** Opens the scaRedirect link, identifies (PSU-ID locked), enters the code and approves. */
  async function approveInBrowser(page: Page, language: Language, scaRedirect: string, psu: FundedPsu): Promise<void> {
    const t = TEXTS[language];
    await page.goto(scaRedirect);
    await shows(page, t.identifyHeading);
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    const psuId = page.getByLabel(t.psuId, { exact: true });
    expect(await psuId.inputValue()).toBe(maskedPsuId(psu.customerNumber));
    expect(await psuId.isEditable()).toBe(false);
    await button(page, t.next).click();
    await shows(page, t.codeHeading);
    await page.getByLabel(t.code, { exact: true }).fill('123456');
    await button(page, t.next).click();
    await shows(page, t.confirmHeading);
    await button(page, t.approve).click();
  }

  /** The outcome page of a successful approval: "Done", the message, and no way onward but closing. */
  async function expectOutcome(page: Page, language: Language, message: string): Promise<void> {
    const t = TEXTS[language];
    await shows(page, t.doneHeading);
    expect(await page.getByRole('status').textContent()).toBe(message);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByText(t.closeWindow, { exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: t.returnTo }).count()).toBe(0);
    expect(await page.content()).not.toContain(t.serverError);
  }

  it('NDCT from a funded account: approved in the browser; the batch run executes it (ACSC), debtor down, in-bank creditor up', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00', '1000.00');
    const creditor = await inBankAccount(client);
    await setBalance(client, creditor.accountId, '50.00');
    const payment = await paymentOf(client, psu, NDCT, ndctBody(psu.account, { creditorAccount: { bban: creditor.bban } }));

    const page = await psuPage('en');
    await approveInBrowser(page, 'en', payment.scaRedirect, psu);
    await expectOutcome(page, 'en', TEXTS.en.approved);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACTC' });
    expect(await scaStatusOf(client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
    // Approval alone moves no money.
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00', interimAvailable: '1000.00' });

    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await balanceOf(client, psu.accountId)).toEqual({ closingBooked: '899.67', expected: '899.67', interimAvailable: '899.67' });
    expect(await balanceOf(client, creditor.accountId)).toEqual({
      closingBooked: '150.33',
      expected: '150.33',
      interimAvailable: '150.33',
    });

    // The PSU opening the link again learns that it has been paid.
    await page.goto(payment.scaRedirect);
    await expectOutcome(page, 'en', TEXTS.en.paid);
  });

  describe.each(['en', 'nb'] as const)('an instant payment within the balance (%s)', (language) => {
    const t = TEXTS[language];

    it(`the outcome page says "${t.paid}"; ACSC at once, with no batch run`, async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const creditor = await inBankAccount(client);
      const payment = await paymentOf(client, psu, INDCTS, ndctBody(psu.account, { creditorAccount: { bban: creditor.bban } }));

      const page = await psuPage(language);
      await approveInBrowser(page, language, payment.scaRedirect, psu);
      await expectOutcome(page, language, t.paid);

      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await scaStatusOf(client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
      // 100.33 and the Straks fee of 5.00 the payment's 201 answered.
      expect(await balanceOf(client, psu.accountId)).toEqual({ closingBooked: '894.67', expected: '894.67', interimAvailable: '894.67' });
      expect(await balanceOf(client, creditor.accountId)).toMatchObject({ closingBooked: '100.33', interimAvailable: '100.33' });
      // Nothing was left for a run.
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    });
  });

  describe.each(['en', 'nb'] as const)('an instant payment above the balance (%s)', (language) => {
    const t = TEXTS[language];

    it(`the outcome page says "${t.notPaid}"; RJCT with fundsAvailable false, SCA finalised, no server error`, async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '100.32');
      const payment = await paymentOf(client, psu, INDCTS, ndctBody(psu.account));

      const page = await psuPage(language);
      await approveInBrowser(page, language, payment.scaRedirect, psu);
      await expectOutcome(page, language, t.notPaid);

      const status = await statusOf(client, payment.path);
      expect(status).toEqual({ transactionStatus: 'RJCT', fundsAvailable: false, psuMessage: INSTANT_NOT_PAID });
      // The PSU did approve: the authorisation is finalised, not failed.
      expect(await scaStatusOf(client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '100.32', interimAvailable: '100.32' });

      // Reloading shows the same outcome.
      await page.reload();
      await expectOutcome(page, language, t.notPaid);
    });
  });

  it('NDCT above the balance: approved; a batch run leaves it ACCP (fundsAvailable false); after the last batch time a run rejects it (RJCT)', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '50.00');
    const payment = await paymentOf(client, psu, NDCT, ndctBody(psu.account, nok('100.33')));

    const page = await psuPage('en');
    await approveInBrowser(page, 'en', payment.scaRedirect, psu);
    await expectOutcome(page, 'en', TEXTS.en.approved);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACTC' });

    expect(await runBatch(client)).toMatchObject({ today: day, lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });

    // 15:40 Oslo time on that bank day: after its last batch time (15:35), so the run is the day's last.
    await setClock(client, osloDateTime(day, '15:40'));
    expect(await runBatch(client)).toMatchObject({ today: day, lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
    const status = await statusOf(client, payment.path);
    expect(status).toEqual({
      transactionStatus: 'RJCT',
      fundsAvailable: false,
      psuMessage: `Insufficient funds on the debtor account: not executed by the last batch run of ${day}`,
    });
    expect(status.psuMessage).toMatch(/insufficient funds/i);
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '50.00', interimAvailable: '50.00' });

    // The PSU opening the link again learns that it could not be paid.
    await page.goto(payment.scaRedirect);
    await expectOutcome(page, 'en', TEXTS.en.notPaid);
  });

  it('with the TPP redirect URI, an instant payment lands the PSU at the TPP; the link reopened says it has been paid, with the way back', async () => {
    const { client, orgId, psu } = await tppOnBankDay(server, '10:00', '1000.00');
    const payment = await paymentOf(client, psu, INDCTS, ndctBody(psu.account), {
      'tpp-redirect-uri': tpp.ok,
      'tpp-nok-redirect-uri': tpp.nok,
    });

    const page = await psuPage('en');
    await approveInBrowser(page, 'en', payment.scaRedirect, psu);
    await page.waitForURL(tpp.ok);
    expect(tpp.hits).toContain('/tpp/execution-ok');
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });

    await page.goto(payment.scaRedirect);
    await shows(page, TEXTS.en.doneHeading);
    expect(await page.getByRole('status').textContent()).toBe(TEXTS.en.paid);
    const back = page.getByRole('link', { name: `${TEXTS.en.returnTo} ${orgId} AS`, exact: true });
    expect(await back.getAttribute('href')).toBe(tpp.ok);
    await back.click();
    await page.waitForURL(tpp.ok);
  });
});
