import { expect } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { osloDay } from './sandbox.js';

/** Builders of the account information API tests (test/api/consents*.api.test.ts, accounts*.api.test.ts). */

export function consentBody(access: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { access, recurringIndicator: true, validUntil: osloDay(90), frequencyPerDay: 4, combinedServiceIndicator: false, ...extra };
}

/** Details, balances and transactions of one account, by BBAN. */
export function detailedAccess(account: { bban: string }): Record<string, unknown> {
  return { accounts: [{ bban: account.bban }], balances: [{ bban: account.bban }], transactions: [{ bban: account.bban }] };
}

export async function createConsent(
  client: TppClient,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ consentId: string; scaRedirect: string | undefined }> {
  const response = await client.post<any>('/v1/consents', body, { headers });
  expect(response.status, response.text).toBe(201);
  return { consentId: response.body.consentId as string, scaRedirect: response.body._links.scaRedirect?.href as string | undefined };
}

/** The text of a page without its tags (to read what it says). */
export function pageText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');
}

/** The labels of the checkboxes a confirmation page offers. */
export function choiceLabelsOf(html: string): string[] {
  return [...html.matchAll(/<input type="checkbox"[^>]*><label for="[^"]+">([^<]*)<\/label>/g)].map((match) =>
    pageText(match[1] ?? '').trim(),
  );
}

export async function consentStatusOf(client: TppClient, consentId: string): Promise<string> {
  const response = await client.get<any>(`/v1/consents/${consentId}/status`);
  expect(response.status, response.text).toBe(200);
  return response.body.consentStatus as string;
}

/** A consent the PSU has approved on the SCA pages (every offered account ticked). */
export async function approvedConsent(
  client: TppClient,
  body: Record<string, unknown>,
  psuHeaders: Record<string, string>,
  walkPages: (link: string) => Promise<unknown>,
): Promise<string> {
  const { consentId, scaRedirect } = await createConsent(client, body, psuHeaders);
  if (scaRedirect === undefined) throw new Error('the consent started no authorisation');
  await walkPages(scaRedirect);
  expect(await consentStatusOf(client, consentId)).toBe('valid');
  return consentId;
}
