import { expect } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import type { TppClient } from '../../src/client/tpp-client.js';
import { csrfOf, openPage, postPage, SANDBOX_CODE, type Browser, type PageAnswer } from './sca.js';
import type { TestServer } from './test-server.js';

/**
 * Helpers of the PSU's own page of consents and payments (`/psu/consents`): its forms walked with
 * plain posts, in a browser (cookie jar) of the test's own. In the sandbox a visit starts from the
 * link a TPP obtains with `POST /v1/sandbox/psu-page-links`, on that TPP's sandbox bank.
 */

/** The TPP of the test server's default client: in the sandbox, the bank its PSUs log in to. */
export const DEFAULT_TPP = 'PSDNO-FSA-123456789';

export const overviewUrl = (server: TestServer, path = '') => `${server.baseUrl}/psu/consents${path}`;

/** A browser of its own (a fresh cookie jar), in `language`. */
export function psuBrowser(language = 'en'): Browser & { readonly cookies: CookieJar } {
  return { language, cookies: new CookieJar() };
}

/** A link to the page on `client`'s sandbox bank, as the TPP obtains it. */
export async function pageLink(client: TppClient): Promise<{ href: string; expiresAt: string }> {
  const response = await client.post<any>('/v1/sandbox/psu-page-links', undefined);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Opens `client`'s link in the browser: a visit on that TPP's sandbox bank (the 303 that drops the token from the address). */
export async function openLink(server: TestServer, browser: Browser, client: TppClient = server.client): Promise<PageAnswer> {
  const opened = await openPage((await pageLink(client)).href, browser);
  expect(opened.status, opened.text).toBe(303);
  expect(opened.location).toBe('/psu/consents');
  return openPage(overviewUrl(server), browser);
}

/** Posts one of the page's forms with the CSRF token of the page the browser sees now. */
export async function postForm(server: TestServer, path: string, fields: Record<string, string>, browser: Browser): Promise<PageAnswer> {
  const page = await openPage(overviewUrl(server), browser);
  return postPage(overviewUrl(server, path), { csrf: csrfOf(page.text), ...fields }, browser);
}

/**
 * Logs the PSU in with the sandbox's one-time code: the overview page, as the browser then sees
 * it. In the sandbox the visit starts from `tpp`'s link; in production (`tpp` null) from the page itself.
 */
export async function logIn(
  server: TestServer,
  psuId: string,
  browser: Browser,
  tpp: TppClient | null = server.client,
): Promise<PageAnswer> {
  if (tpp !== null) await openLink(server, browser, tpp);
  const identified = await postForm(server, '/login', { psuId }, browser);
  expect(identified.status, identified.text).toBe(303);
  const authenticated = await postForm(server, '/code', { code: SANDBOX_CODE }, browser);
  expect(authenticated.status, authenticated.text).toBe(303);
  const overview = await openPage(overviewUrl(server), browser);
  expect(overview.status, overview.text).toBe(200);
  return overview;
}

/** The consent ids the page offers to revoke (valid consents), in order. */
export function revocableOf(html: string): string[] {
  return [...html.matchAll(/<input type="hidden" name="consentId" value="([^"]+)">/g)].map((match) => match[1] ?? '');
}
