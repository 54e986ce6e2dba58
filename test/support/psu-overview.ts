import { expect } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import { csrfOf, openPage, postPage, SANDBOX_CODE, type Browser, type PageAnswer } from './sca.js';
import type { TestServer } from './test-server.js';

/**
 * Helpers of the PSU's own page of consents and payments (`/psu/consents`): its forms walked with
 * plain posts, in a browser (cookie jar) of the test's own.
 */

/** The TPP of the test server's default client: in the sandbox, the bank its PSUs log in to. */
export const DEFAULT_TPP = 'PSDNO-FSA-123456789';

export const overviewUrl = (server: TestServer, path = '') => `${server.baseUrl}/psu/consents${path}`;

/** A browser of its own (a fresh cookie jar), in `language`. */
export function psuBrowser(language = 'en'): Browser & { readonly cookies: CookieJar } {
  return { language, cookies: new CookieJar() };
}

/** Posts one of the page's forms with the CSRF token of the page the browser sees now. */
export async function postForm(server: TestServer, path: string, fields: Record<string, string>, browser: Browser): Promise<PageAnswer> {
  const page = await openPage(overviewUrl(server), browser);
  return postPage(overviewUrl(server, path), { csrf: csrfOf(page.text), ...fields }, browser);
}

/** Logs the PSU in with the sandbox's one-time code: the overview page, as the browser then sees it. */
export async function logIn(server: TestServer, psuId: string, browser: Browser, tpp = DEFAULT_TPP): Promise<PageAnswer> {
  const identified = await postForm(server, '/login', { psuId, tpp }, browser);
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
