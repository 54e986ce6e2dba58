/**
 * Screenshots of the PSU's SCA redirect pages (and its own page of consents) for the docs (`npm run docs:screenshots`), in
 * English and Bokmål, written to docs/screenshots/*.png. Starts the real app on a throwaway
 * SQLite database (the test server), creates payments as a TPP would, and walks the pages in
 * headless Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH) at a phone-like 480 px width.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { walkScaRedirect } from '../src/client/sca-redirect-driver.js';
import { makeNorwegianBban } from '../src/domain/bban.js';
import { DESKTOP_USER_AGENT, IPHONE_USER_AGENT, launchBrowser } from '../test/support/browser.js';
import { accountNumber, createAccount, createCustomer } from '../test/support/sandbox.js';
import { startTestServer, type TestServer } from '../test/support/test-server.js';

type Language = 'en' | 'nb';
type Body = Record<string, unknown>;

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
const LANGUAGES: readonly Language[] = ['en', 'nb'];
const VIEWPORT = { width: 480, height: 900 };
/** The TPP's redirect URIs: nothing listens there; the browser's requests to them are answered here. */
const TPP_OK = 'http://127.0.0.1:9/tpp/ok';
const TPP_NOK = 'http://127.0.0.1:9/tpp/nok';

const TEXTS = {
  en: { locale: 'en-GB', next: 'Next', code: 'One-time code (6 digits)', psuId: 'National identity number (11 digits)' },
  nb: { locale: 'nb-NO', next: 'Neste', code: 'Engangskode (6 siffer)', psuId: 'Fødselsnummer (11 siffer)' },
} as const;

/** An answer with `_links` (a created payment, a 202 cancellation, a 401 PSU login). */
interface Linked {
  readonly _links?: Readonly<Record<string, { readonly href: string } | undefined>>;
}

function link(body: Linked, name: string): string {
  const href = body._links?.[name]?.href;
  if (href === undefined) throw new Error(`no _links.${name} in ${JSON.stringify(body)}`);
  return href;
}

/** A fixed account number of the sandbox bank (bank code 1234), so the screenshots are the same on every run. */
function sandboxBban(start: number): string {
  for (let n = start; ; n++) {
    const bban = makeNorwegianBban(`1234${String(n).padStart(6, '0')}`);
    if (bban !== undefined) return bban;
  }
}

interface Customer {
  readonly customerNumber: string;
  readonly bban: string;
  readonly headers: Record<string, string>;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const [server, browser] = await Promise.all([startTestServer({ dialect: 'sqlite' }), launchBrowser()]);
  try {
    await shoot(server, browser);
  } finally {
    await browser.close();
    await server.close();
  }
}

async function shoot(server: TestServer, browser: Browser): Promise<void> {
  const person = await createCustomer(server.client, 'PRIVATE', 'Kari Nordmann');
  const account = await createAccount(server.client, person.customerNumber, { bban: sandboxBban(567890) });
  const psu: Customer = { customerNumber: person.customerNumber, bban: account.bban, headers: { 'psu-id': person.customerNumber } };
  // A second account, so the consent page offers a choice.
  await createAccount(server.client, person.customerNumber, { bban: sandboxBban(567990), name: 'Sparekonto', cashAccountType: 'SVGS' });
  const written: string[] = [];

  async function save(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    written.push(`${name}.png`);
  }

  async function open(language: Language, scaRedirect: string, options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({
      locale: TEXTS[language].locale,
      userAgent: DESKTOP_USER_AGENT,
      viewport: VIEWPORT,
      ...options,
    });
    await context.route('http://127.0.0.1:9/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>TPP</title><h1>Back at the TPP</h1>' }),
    );
    const page = await context.newPage();
    await page.goto(scaRedirect);
    return page;
  }

  async function create(
    product: string,
    body: Body,
    headers: Record<string, string> = {},
  ): Promise<{ scaRedirect: string; path: string; paymentId: string }> {
    const response = await server.client.post<Linked>(`/v1/payments/${product}`, body, {
      headers: { ...psu.headers, 'tpp-redirect-uri': TPP_OK, 'tpp-nok-redirect-uri': TPP_NOK, ...headers },
    });
    if (response.status !== 201) throw new Error(`payment not created: ${response.status} ${response.text}`);
    const path = new URL(String(response.headers.location)).pathname;
    // With explicit authorisation there is no scaRedirect: the payment waits for a basket.
    const scaRedirect = headers['tpp-explicit-authorisation-preferred'] === 'true' ? '' : link(response.body, 'scaRedirect');
    return { scaRedirect, path, paymentId: path.split('/').pop() ?? '' };
  }

  /** A domestic payment of an electricity bill with a KID. */
  const kidPayment = (headers: Record<string, string> = {}) =>
    create(
      'norwegian-domestic-credit-transfers',
      {
        debtorAccount: { bban: psu.bban },
        instructedAmount: { currency: 'NOK', amount: '1249.50' },
        creditorAccount: { bban: accountNumber().bban },
        creditorName: 'Fjordstrøm Energi AS',
        remittanceInformationStructured: { reference: '12344', referenceType: 'SCOR' },
      },
      headers,
    );

  /** A cross-border payment in SEK with the currency register's code and text. */
  const crossBorderPayment = (headers: Record<string, string> = {}) =>
    create(
      'norwegian-cross-border-credit-transfers',
      {
        debtorAccount: { bban: psu.bban },
        instructedAmount: { currency: 'SEK', amount: '15000.00' },
        creditorAccount: { bban: accountNumber().bban },
        creditorName: 'Stugförmedlingen i Åre AB',
        creditorAgent: 'ESSESESS',
        creditorAddress: { street: 'Storvägen', buildingNumber: '12', postalCode: '83013', city: 'Åre', country: 'SE' },
        remittanceInformationUnstructured: 'Hyra stuga vecka 8',
        regulatoryReportingCode: '26',
        regulatoryReportingInformation: 'Rent of a holiday cabin',
      },
      headers,
    );

  const click = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).click();
  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  async function toCode(page: Page, language: Language): Promise<void> {
    const before = await heading(page).textContent();
    await click(page, TEXTS[language].next);
    await heading(page)
      .filter({ hasNotText: before ?? '' })
      .waitFor();
  }

  async function enterCode(page: Page, language: Language, code: string, expect: RegExp): Promise<void> {
    await page.getByLabel(TEXTS[language].code, { exact: true }).fill(code);
    await click(page, TEXTS[language].next);
    await page.locator('main').filter({ hasText: expect }).waitFor();
  }

  for (const language of LANGUAGES) {
    // Identify, code, a wrong code and the confirmation of the KID payment.
    const payment = await kidPayment();
    const page = await open(language, payment.scaRedirect);
    await save(page, `identify-${language}`);
    await toCode(page, language);
    await save(page, `code-${language}`);
    await enterCode(page, language, '000000', /2 (attempts left|forsøk igjen)/);
    await save(page, `code-wrong-${language}`);
    await enterCode(page, language, '123456', /Step 3|Steg 3/);
    await save(page, `confirm-${language}`);
    await page.context().close();

    // The cross-border payment's confirmation.
    const crossBorder = await crossBorderPayment();
    const crossPage = await open(language, crossBorder.scaRedirect);
    await toCode(crossPage, language);
    await enterCode(crossPage, language, '123456', /Step 3|Steg 3/);
    await save(crossPage, `confirm-cross-border-${language}`);
    await crossPage.context().close();

    // The identify page on a phone, with the bank-app shortcut.
    const mobile = await open(language, (await kidPayment()).scaRedirect, { userAgent: IPHONE_USER_AGENT, isMobile: true });
    await save(mobile, `identify-mobile-${language}`);
    await mobile.context().close();

    // Three wrong codes: the outcome page.
    const failing = await open(language, (await kidPayment()).scaRedirect);
    await toCode(failing, language);
    await enterCode(failing, language, '000000', /2 (attempts left|forsøk igjen)/);
    await enterCode(failing, language, '000001', /1 (attempt left|forsøk igjen)/);
    await enterCode(failing, language, '000002', /3 (times|ganger)/);
    await save(failing, `outcome-failed-${language}`);
    await failing.context().close();

    // A cancellation of an approved payment: its confirmation page.
    const approved = await kidPayment();
    const approving = await open(language, approved.scaRedirect);
    await toCode(approving, language);
    await enterCode(approving, language, '123456', /Step 3|Steg 3/);
    await click(approving, language === 'en' ? 'Approve' : 'Godkjenn');
    await approving.waitForURL(TPP_OK);
    await approving.context().close();
    const deleted = await server.client.delete<Linked>(approved.path);
    if (deleted.status !== 202) throw new Error(`cancellation not started: ${deleted.status} ${deleted.text}`);
    const started = await server.client.post<Linked>(new URL(link(deleted.body, 'startAuthorisation')).pathname, undefined, {
      headers: psu.headers,
    });
    if (started.status !== 201) throw new Error(`cancellation authorisation not started: ${started.status} ${started.text}`);
    const cancelling = await open(language, link(started.body, 'scaRedirect'));
    await toCode(cancelling, language);
    await enterCode(cancelling, language, '123456', /Step 3|Steg 3/);
    await save(cancelling, `confirm-cancellation-${language}`);
    await cancelling.context().close();

    // A signing basket: the domestic KID payment and the cross-border one, created with explicit
    // authorisation, approved together; the confirmation lists both and the totals per currency.
    const explicit = { 'tpp-explicit-authorisation-preferred': 'true' };
    const members = [await kidPayment(explicit), await crossBorderPayment(explicit)];
    const basket = await server.client.post<Linked>(
      '/v1/signing-baskets',
      { paymentIds: members.map((member) => member.paymentId) },
      { headers: { ...psu.headers, 'tpp-redirect-uri': TPP_OK, 'tpp-nok-redirect-uri': TPP_NOK } },
    );
    if (basket.status !== 201) throw new Error(`basket not created: ${basket.status} ${basket.text}`);
    const basketPage = await open(language, link(basket.body, 'scaRedirect'));
    await toCode(basketPage, language);
    await enterCode(basketPage, language, '123456', /Step 3|Steg 3/);
    await save(basketPage, `confirm-basket-${language}`);
    await basketPage.context().close();

    // The PSU pre-step without a redirect URI: the login ends on a page with the code for the TPP.
    const company = await corporateAccount(server, language === 'en' ? 112233 : 223344);
    const refused = await server.client.post<Linked>(
      '/v1/payments/norwegian-domestic-credit-transfers',
      {
        debtorAccount: { bban: company.bban },
        instructedAmount: { currency: 'NOK', amount: '18750.00' },
        creditorAccount: { bban: accountNumber().bban },
        creditorName: 'Kontorrekvisita AS',
        remittanceInformationUnstructured: 'Faktura 2291',
      },
      { headers: { 'psu-corporate-id': company.organisationNumber } },
    );
    if (refused.status !== 401) throw new Error(`expected the PSU login (401): ${refused.status} ${refused.text}`);
    const login = await open(language, link(refused.body, 'scaRedirect'));
    await save(login, `login-identify-${language}`);
    await login.getByLabel(TEXTS[language].psuId, { exact: true }).fill(company.registrar);
    await toCode(login, language);
    await enterCode(login, language, '123456', /Done|Ferdig/);
    await save(login, `login-code-${language}`);
    await login.context().close();

    // The link opened in a second browser after the PSU identified in the first: in progress elsewhere.
    const bound = await kidPayment();
    const owner = await open(language, bound.scaRedirect);
    await toCode(owner, language);
    const elsewhere = await open(language, bound.scaRedirect);
    await save(elsewhere, `in-progress-elsewhere-${language}`);
    await elsewhere.context().close();
    await owner.context().close();

    // A bank-offered account information consent: the PSU ticks the accounts to share.
    const consent = await server.client.post<Linked>(
      '/v1/consents',
      {
        access: { accounts: [], balances: [], transactions: [] },
        recurringIndicator: true,
        validUntil: '2099-12-31',
        frequencyPerDay: 4,
        combinedServiceIndicator: false,
      },
      { headers: { ...psu.headers, 'tpp-redirect-uri': TPP_OK, 'tpp-nok-redirect-uri': TPP_NOK } },
    );
    if (consent.status !== 201) throw new Error(`consent not created: ${consent.status} ${consent.text}`);
    const consentPage = await open(language, link(consent.body, 'scaRedirect'));
    await toCode(consentPage, language);
    await enterCode(consentPage, language, '123456', /Step 3|Steg 3/);
    await consentPage.getByRole('checkbox').first().check();
    await save(consentPage, `confirm-consent-${language}`);
    await consentPage.context().close();

    // The PSU's own page of consents and payments: log in, then revoke one of two consents.
    await shootOverview(language);

    // An unknown link.
    const unknown = await open(language, `${server.config.publicUrl}/sca/00000000-0000-4000-8000-000000000000`);
    await save(unknown, `error-unknown-link-${language}`);
    await unknown.context().close();
  }
  /**
   * A PSU of its own (so the list is short and the same on every run): two consents given to the
   * TPP, a payment approved and one waiting; the page logged in to, and after one consent is revoked.
   */
  async function shootOverview(language: Language): Promise<void> {
    const owner = await createCustomer(server.client, 'PRIVATE', 'Kari Nordmann');
    const base = language === 'en' ? 611000 : 622000;
    const spending = await createAccount(server.client, owner.customerNumber, { bban: sandboxBban(base), name: 'Brukskonto' });
    const saving = await createAccount(server.client, owner.customerNumber, {
      bban: sandboxBban(base + 100),
      name: 'Sparekonto',
      cashAccountType: 'SVGS',
    });
    const headers = { 'psu-id': owner.customerNumber };
    const consentOf = async (access: Body, validUntil: string) => {
      const response = await server.client.post<Linked & { consentId: string }>(
        '/v1/consents',
        { access, recurringIndicator: true, validUntil, frequencyPerDay: 4, combinedServiceIndicator: false },
        { headers },
      );
      if (response.status !== 201) throw new Error(`consent not created: ${response.status} ${response.text}`);
      await walkScaRedirect(link(response.body, 'scaRedirect'), { codes: ['123456'], decision: 'approve' });
    };
    const all = { bban: spending.bban };
    await consentOf({ accounts: [all], balances: [all], transactions: [all] }, '2099-12-31');
    await consentOf({ accounts: [{ bban: saving.bban }], balances: [{ bban: saving.bban }] }, '2099-12-31');
    const pay = async (amount: string, creditorName: string) => {
      const response = await server.client.post<Linked>(
        '/v1/payments/norwegian-domestic-credit-transfers',
        {
          debtorAccount: { bban: spending.bban },
          instructedAmount: { currency: 'NOK', amount },
          creditorAccount: { bban: sandboxBban(base + 200) },
          creditorName,
          remittanceInformationUnstructured: 'Faktura 2291',
        },
        { headers },
      );
      if (response.status !== 201) throw new Error(`payment not created: ${response.status} ${response.text}`);
      return link(response.body, 'scaRedirect');
    };
    await walkScaRedirect(await pay('1249.50', 'Fjordstrøm Energi AS'), { codes: ['123456'], decision: 'approve' });
    await pay('349.00', 'Bokhandelen AS');

    // The page opens on the TPP's sandbox bank by the link the TPP obtains with a signed request.
    const pageLink = await server.client.post<{ href: string }>('/v1/sandbox/psu-page-links', undefined);
    if (pageLink.status !== 201) throw new Error(`no link to the PSU's page: ${pageLink.status} ${pageLink.text}`);
    const page = await open(language, pageLink.body.href);
    await page.getByLabel(TEXTS[language].psuId, { exact: true }).fill(owner.customerNumber);
    await save(page, `psu-consents-login-${language}`);
    await toCode(page, language);
    await enterCode(page, language, '123456', /Brukskonto|NO\d{13}/);
    // The newest first: the savings account's consent.
    const revoke = page
      .locator('section.consent')
      .first()
      .getByRole('button', { name: language === 'en' ? 'Revoke access' : 'Trekk tilbake tilgangen', exact: true });
    await revoke.click();
    await page.getByRole('status').waitFor();
    await save(page, `psu-consents-${language}`);
    await page.context().close();
  }

  console.log(`wrote ${written.length} screenshots to ${OUT}:\n  ${written.join('\n  ')}`);
}

/** A company with an account and an agreement that lets a private customer register payments. */
async function corporateAccount(
  server: TestServer,
  accountStart: number,
): Promise<{ bban: string; organisationNumber: string; registrar: string }> {
  const owner = await createCustomer(server.client, 'CORPORATE', 'Testfirma AS');
  const account = await createAccount(server.client, owner.customerNumber, { bban: sandboxBban(accountStart) });
  const registrar = await createCustomer(server.client, 'PRIVATE', 'Ola Nordmann');
  const response = await server.client.post<{ organisationNumber: string }>('/v1/sandbox/agreements', {
    owner: owner.customerNumber,
    engagements: [
      { customer: registrar.customerNumber, account: { bban: account.bban }, roles: ['REGISTER', 'VIEW'], registerLimit: '100000.00' },
    ],
  });
  if (response.status !== 201) throw new Error(`agreement not created: ${response.text}`);
  return { bban: account.bban, organisationNumber: response.body.organisationNumber, registrar: registrar.customerNumber };
}

await main();
