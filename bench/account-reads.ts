/**
 * The account the bench reads in scenarios (g) and (h) (docs/design.md §9: signed balances and a
 * 200-entry transactions page at half the baseline's throughput or more), set up through the API
 * as a TPP would: a sandbox customer and account (mock-data API), 10 000 booked transactions
 * (the data fill, 500 per call), a consent on that account with balances and transactions that
 * the PSU approves on the SCA pages, and the account's resource id as `GET /v1/accounts` gives it.
 */
import { TppClient } from '../src/client/tpp-client.js';
import type { SigningCredentials } from '../src/client/request-signer.js';
import { addDays, todayIn } from '../src/domain/iso-date.js';
import { makeNorwegianIdentityNumber } from '../src/domain/norwegian-identity-number.js';

export interface AccountReadSetup {
  /** The account's id under the consent (`/v1/accounts/{resourceId}`). */
  readonly resourceId: string;
  readonly consentId: string;
  /** Sent with every read: the PSU is present, so frequencyPerDay (4 unattended reads a day) does not apply. */
  readonly psuIpAddress: string;
}

/** Booked transactions on the read account. */
export const ACCOUNT_TRANSACTIONS = 10_000;
/** The data fill's most per call. */
const FILL_PER_CALL = 500;
/** The transactions lie inside the default window of a read without dateFrom (90 days back). */
const FILL_DAYS_BACK = 89;

export const balancesPath = (setup: AccountReadSetup) => `/v1/accounts/${setup.resourceId}/balances`;
/** The first page: limit 200 is what a read without offset and limit gets. */
export const transactionsPagePath = (setup: AccountReadSetup) =>
  `/v1/accounts/${setup.resourceId}/transactions?bookingStatus=booked&limit=200`;

function osloDay(days: number): string {
  return addDays(todayIn('Europe/Oslo', new Date()), days);
}

/** A valid national identity number none of the seeded customers has (born 2 February 1992). */
function freshIdentityNumber(): string {
  for (let n = 100; n < 1_000; n++) {
    const number = makeNorwegianIdentityNumber(`020292${String(n).padStart(3, '0')}`);
    if (number !== undefined) return number;
  }
  throw new Error('no identity number left');
}

function expectStatus(what: string, answer: { status: number; text: string }, status: number): void {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status} (expected ${status}): ${answer.text}`);
}

export async function accountReadSetup(
  baseUrl: string,
  credentials: SigningCredentials,
  log: (line: string) => void,
): Promise<AccountReadSetup> {
  const client = new TppClient(baseUrl, credentials);
  const psuId = freshIdentityNumber();
  const customer = await client.post('/v1/sandbox/customers', {
    customerNumber: psuId,
    customerType: 'PRIVATE',
    customerName: 'Bench Leser',
  });
  expectStatus('creating the sandbox customer', customer, 201);
  const account = await client.post<{ resourceId: string; bban: string }>('/v1/sandbox/accounts', { customerNumber: psuId });
  expectStatus('creating the sandbox account', account, 201);

  const started = Date.now();
  for (let filled = 0; filled < ACCOUNT_TRANSACTIONS; filled += FILL_PER_CALL) {
    const fill = await client.post(`/v1/sandbox/accounts/${account.body.resourceId}/transactions/fill`, {
      count: Math.min(FILL_PER_CALL, ACCOUNT_TRANSACTIONS - filled),
      dateFrom: osloDay(-FILL_DAYS_BACK),
      dateTo: osloDay(-1),
      seed: `bench-${filled}`,
    });
    expectStatus('the transaction fill', fill, 201);
  }
  log(`(g, h) ${ACCOUNT_TRANSACTIONS.toLocaleString('en-US')} transactions booked on the read account in ${Date.now() - started} ms`);

  const bban = account.body.bban;
  const consent = await client.createConsent(
    {
      access: { accounts: [{ bban }], balances: [{ bban }], transactions: [{ bban }] },
      recurringIndicator: true,
      validUntil: osloDay(90),
      frequencyPerDay: 4,
      combinedServiceIndicator: false,
    },
    { headers: { 'psu-id': psuId, 'tpp-redirect-uri': 'https://tpp.example/callback' } },
  );
  expectStatus('creating the consent', consent, 201);
  const scaRedirect = consent.body._links.scaRedirect?.href;
  if (scaRedirect === undefined) throw new Error(`the consent started no authorisation: ${consent.text}`);
  await client.actAsPsu(scaRedirect, { codes: ['123456'], decision: 'approve' });
  const status = await client.getConsentStatus(consent.body.consentId);
  if (status.body.consentStatus !== 'valid') throw new Error(`the consent is ${status.text} after the PSU approved it`);

  const psuIpAddress = '192.0.2.10';
  const accounts = await client.getAccounts(consent.body.consentId, { headers: { 'psu-ip-address': psuIpAddress } });
  expectStatus('listing the consent’s accounts', accounts, 200);
  const listed = accounts.body.accounts.find((entry) => entry.bban === bban);
  if (listed?.resourceId === undefined) throw new Error(`${bban} is not listed under the consent: ${accounts.text}`);
  return { resourceId: listed.resourceId, consentId: consent.body.consentId, psuIpAddress };
}
