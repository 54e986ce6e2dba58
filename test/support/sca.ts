import { request as httpRequest } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { expect } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { walkScaRedirect, type PsuActions, type PsuJourney } from '../../src/client/sca-redirect-driver.js';
import { created, initiate, pathOf, type Account, type Psu, type Service } from './payments.js';
import { createAccount, createCustomer } from './sandbox.js';
import type { TestServer } from './test-server.js';

/**
 * Helpers of the SCA-by-redirect API tests (test/api/sca-*.api.test.ts): the PSU's pages walked
 * with plain form posts, step by step, and the TPP's view of authorisations and payments.
 */

/** The sandbox's one-time code. */
export const SANDBOX_CODE = '123456';
export const OK_URI = 'https://tpp.example/callback/ok';
export const NOK_URI = 'https://nok.tpp.example/callback/nok';

export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** What the PSU's browser sends with every request. */
export interface Browser {
  readonly language?: string;
  readonly userAgent?: string;
  /**
   * Its cookies: the pages belong to the browser that opened the link first. Absent: the PSU's
   * one browser of the test file ({@link PSU_BROWSER}); a fresh jar is another browser.
   */
  readonly cookies?: CookieJar;
}

/** The PSU's browser every helper uses unless told otherwise: its cookies live as long as the test file. */
export const PSU_BROWSER = new CookieJar();

/** Another browser than the PSU's: no cookies of its own yet. */
export function otherBrowser(browser: Omit<Browser, 'cookies'> = {}): Browser {
  return { ...browser, cookies: new CookieJar() };
}

/** A page (or a 303) as the PSU's browser receives it. */
export interface PageAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly location: string | undefined;
}

function browserHeaders(url: string, browser: Browser): Record<string, string> {
  const cookie = (browser.cookies ?? PSU_BROWSER).header(new URL(url));
  return {
    accept: 'text/html',
    'user-agent': browser.userAgent ?? DESKTOP_UA,
    ...(browser.language === undefined ? {} : { 'accept-language': browser.language }),
    ...(cookie === undefined ? {} : { cookie }),
  };
}

async function pageOf(url: string, browser: Browser, response: Awaited<ReturnType<typeof httpRequest>>): Promise<PageAnswer> {
  (browser.cookies ?? PSU_BROWSER).store(new URL(url), response.headers['set-cookie']);
  const location = response.headers['location'];
  return {
    status: response.statusCode,
    headers: response.headers,
    text: await response.body.text(),
    location: Array.isArray(location) ? location[0] : location,
  };
}

/** GET of a PSU page, as a browser opens the scaRedirect link. */
export async function openPage(url: string, browser: Browser = {}): Promise<PageAnswer> {
  return pageOf(url, browser, await httpRequest(url, { method: 'GET', headers: browserHeaders(url, browser) }));
}

/** A form post of a PSU page (application/x-www-form-urlencoded). */
export async function postPage(url: string, fields: Record<string, string>, browser: Browser = {}): Promise<PageAnswer> {
  return pageOf(
    url,
    browser,
    await httpRequest(url, {
      method: 'POST',
      headers: { ...browserHeaders(url, browser), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
}

/** An 11-digit PSU-ID as the pages show it: seven dots and its last four digits. */
export function maskedPsuId(psuId: string): string {
  return `${'\u2022'.repeat(psuId.length - 4)}${psuId.slice(-4)}`;
}

/** The CSRF token of a page's form. */
export function csrfOf(html: string): string {
  const match = /<input type="hidden" name="csrf" value="([^"]*)">/.exec(html);
  if (!match?.[1]) throw new Error(`the page has no CSRF token:\n${html}`);
  return unescapeHtml(match[1]);
}

/** The action of a page's form (a path on this server). */
export function formActionOf(html: string): string | undefined {
  const match = /<form method="post" action="([^"]+)">/.exec(html);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

/** The `<input>` element of a named field, or undefined. */
export function inputOf(html: string, name: string): string | undefined {
  return new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
}

/** The submit buttons of a page: `name=value` of each. */
export function buttonsOf(html: string): string[] {
  return [...html.matchAll(/<button[^>]*name="([^"]+)"[^>]*value="([^"]+)"/g)].map((match) => `${match[1]}=${match[2]}`);
}

/** The text of the page's `role="alert"` element, or undefined. */
export function alertOf(html: string): string | undefined {
  const match = /<p[^>]*role="alert"[^>]*>([^<]*)<\/p>/.exec(html);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

/** The href of the page's way back to the TPP, or undefined. */
export function continueHrefOf(html: string): string | undefined {
  const match = /<a class="button" href="([^"]+)">/.exec(html);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

export type Step = 'identify' | 'code' | 'decision';

/** One step of the PSU: reads the current page for its CSRF token, then posts the step's form. */
export async function submit(link: string, step: Step, fields: Record<string, string>, browser: Browser = {}): Promise<PageAnswer> {
  const page = await openPage(link, browser);
  return postPage(`${link}/${step}`, { csrf: csrfOf(page.text), ...fields }, browser);
}

export const identify = (link: string, psuId: string, browser: Browser = {}, method: 'code' | 'app' = 'code') =>
  submit(link, 'identify', { psuId, method }, browser);
export const enterCode = (link: string, code = SANDBOX_CODE, browser: Browser = {}) => submit(link, 'code', { code }, browser);
export const decide = (link: string, decision: 'approve' | 'reject', browser: Browser = {}) =>
  submit(link, 'decision', { decision }, browser);

/** The whole walk with the project's driver (identify, code, decision), in the PSU's browser unless `actions.cookies` names another. */
export function walk(link: string, actions: PsuActions = {}): Promise<PsuJourney> {
  return walkScaRedirect(link, { codes: [SANDBOX_CODE], decision: 'approve', cookies: PSU_BROWSER, ...actions });
}

/** Asserts a 303 after a form post and answers where it sends the browser. */
export function expectSeeOther(answer: PageAnswer): string {
  expect({ status: answer.status, location: answer.location }, answer.text).toMatchObject({ status: 303 });
  return answer.location ?? '';
}

/** The authorisation id at the end of a scaRedirect or scaStatus link. */
export function idOfLink(href: string): string {
  return new URL(href).pathname.split('/').pop() ?? '';
}

/** GET of an authorisation's scaStatus link (a full link from `_links.scaStatus`). */
export async function readScaStatus(client: TppClient, href: string, language?: string): Promise<TppResponse<any>> {
  return client.get<any>(pathOf(href), language === undefined ? {} : { headers: { 'accept-language': language } });
}

/** The scaStatus (and psuMessage) of an authorisation, failing the test unless the read answers 200. */
export async function scaStatusOf(client: TppClient, href: string, language?: string): Promise<{ scaStatus: string; psuMessage?: string }> {
  const response = await readScaStatus(client, href, language);
  expect(response.status, response.text).toBe(200);
  return response.body as { scaStatus: string; psuMessage?: string };
}

/** The payment's status resource body. */
export async function paymentStatusOf(
  client: TppClient,
  paymentPath: string,
): Promise<{ transactionStatus: string; psuMessage?: string; fundsAvailable?: boolean }> {
  const response = await client.get<any>(`${paymentPath}/status`);
  expect(response.status, response.text).toBe(200);
  return response.body as { transactionStatus: string; psuMessage?: string };
}

/** The status stored for a payment, read around the API (no lazy expiry on the way). */
export async function storedPaymentStatus(server: TestServer, paymentId: string): Promise<string | undefined> {
  const row = await server.database.db.selectFrom('payment').select('status').where('id', '=', paymentId).executeTakeFirst();
  return row?.status;
}

/** The scaStatus stored for an authorisation, read around the API. */
export async function storedScaStatus(server: TestServer, authorisationId: string): Promise<string | undefined> {
  const row = await server.database.db
    .selectFrom('authorisation')
    .select('sca_status')
    .where('id', '=', authorisationId)
    .executeTakeFirst();
  return row?.sca_status;
}

export interface ScaMove {
  readonly from: string;
  readonly to: string;
  readonly actorType: string;
  readonly actorId: string;
  readonly reason?: string;
}

/** The audited scaStatus moves of an authorisation, in order. */
export async function scaMoves(server: TestServer, authorisationId: string): Promise<ScaMove[]> {
  const rows = await server.database.db
    .selectFrom('audit_event')
    .selectAll()
    .where('resource_type', '=', 'authorisation')
    .where('resource_id', '=', authorisationId)
    .where('action', '=', 'authorisation.sca-status-changed')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const details = JSON.parse(row.details) as { from: string; to: string; reason?: string };
    return {
      from: details.from,
      to: details.to,
      actorType: row.actor_type,
      actorId: row.actor_id,
      ...(details.reason === undefined ? {} : { reason: details.reason }),
    };
  });
}

/** A created payment with the links of its 201. */
export interface CreatedPayment {
  readonly paymentId: string;
  /** The payment's path (e.g. /v1/payments/…/{id}). */
  readonly path: string;
  readonly links: Record<string, { href: string }>;
  readonly body: any;
}

export async function createPayment(
  client: TppClient,
  service: Service,
  product: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<CreatedPayment> {
  const made = await created(initiate(client, service, product, body, { headers }));
  return { paymentId: made.paymentId, path: made.path, links: made.response.body._links, body: made.response.body };
}

/** `POST {payment}/authorisations` (or cancellation-authorisations), failing the test unless 201. */
export async function startAuthorisation(
  client: TppClient,
  paymentPath: string,
  headers: Record<string, string> = {},
  kind: 'authorisations' | 'cancellation-authorisations' = 'authorisations',
): Promise<{ authorisationId: string; scaRedirect: string; scaStatus: string; response: TppResponse<any> }> {
  const response = await client.post<any>(`${paymentPath}/${kind}`, undefined, { headers });
  expect(response.status, response.text).toBe(201);
  return {
    authorisationId: response.body.authorisationId as string,
    scaRedirect: response.body._links.scaRedirect.href as string,
    scaStatus: response.body._links.scaStatus.href as string,
    response,
  };
}

/**
 * A corporation whose account needs two approvers above `approvalLimit` ('0': always two): each
 * approver is engaged with REGISTER and VIEW and that approval limit; a viewer may only view.
 */
export interface DualControl {
  readonly account: Account;
  readonly organisationNumber: string;
  readonly approvers: readonly Psu[];
  readonly viewer: Psu;
}

export async function dualControlCorporation(client: TppClient, approvalLimit = '0', approverCount = 3): Promise<DualControl> {
  const owner = await createCustomer(client, 'CORPORATE', 'Tofirma AS');
  const account = await createAccount(client, owner.customerNumber);
  const approvers = await Promise.all(Array.from({ length: approverCount }, () => createCustomer(client)));
  const viewer = await createCustomer(client);
  const response = await client.post<any>('/v1/sandbox/agreements', {
    owner: owner.customerNumber,
    engagements: [
      ...approvers.map((approver) => ({
        customer: approver.customerNumber,
        account: { bban: account.bban },
        roles: ['REGISTER', 'VIEW'],
        approvalLimit,
      })),
      { customer: viewer.customerNumber, account: { bban: account.bban }, roles: ['VIEW'] },
    ],
  });
  if (response.status !== 201) throw new Error(`agreement not created: ${response.text}`);
  const organisationNumber = response.body.organisationNumber as string;
  const psu = (customerNumber: string): Psu => ({
    customerNumber,
    account,
    headers: { 'psu-id': customerNumber, 'psu-corporate-id': organisationNumber },
  });
  return {
    account,
    organisationNumber,
    approvers: approvers.map((approver) => psu(approver.customerNumber)),
    viewer: psu(viewer.customerNumber),
  };
}

/**
 * A clock for startTestServer({ now }): the real time plus an offset that only grows when told.
 * Start the server with {@link CLOCK_ENV} so requests signed at the real time are still accepted.
 */
export interface TestClock {
  readonly now: () => Date;
  advance(seconds: number): void;
}

export function testClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
  };
}

/** Lets the signed requests' Date header (real time) differ from the moved clock by up to a day. */
export const CLOCK_ENV = { XS2A_MAX_CLOCK_SKEW_SECONDS: '86400' } as const;
