import { expect } from 'vitest';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { makeOrganisationNumber } from '../../src/domain/organisation-number.js';
import { accountNumber, createAccount, createCustomer, osloDay } from './sandbox.js';
import type { TestServer } from './test-server.js';

/** Builders and assertions shared by the payment API tests (test/api/payments-*.api.test.ts). */

export const NDCT = 'norwegian-domestic-credit-transfers';
export const INDCTS = 'instant-norwegian-domestic-credit-transfers-straks';
export const NCBCT = 'norwegian-cross-border-credit-transfers';
export const CBCT = 'cross-border-credit-transfers';
export const SCT = 'sepa-credit-transfers';
export const PRODUCTS = [NDCT, INDCTS, NCBCT, CBCT, SCT] as const;
export type Product = (typeof PRODUCTS)[number];
export type Service = 'payments' | 'bulk-payments' | 'periodic-payments';
export type Body = Record<string, unknown>;

/** A debtor account as the sandbox created it. */
export interface Account {
  readonly bban: string;
  readonly iban: string;
  readonly currency: string;
}

/** A private sandbox customer with one account, and the PSU-ID header that names the customer. */
export interface Psu {
  readonly customerNumber: string;
  readonly account: Account;
  readonly headers: Record<string, string>;
}

export async function privatePsu(client: TppClient, currency = 'NOK'): Promise<Psu> {
  const customer = await createCustomer(client);
  const account = await createAccount(client, customer.customerNumber, currency === 'NOK' ? {} : { currency });
  return { customerNumber: customer.customerNumber, account, headers: { 'psu-id': customer.customerNumber } };
}

let nextGermanAccount = 1;

/** A fresh valid German IBAN (bank code 37040044), so SEPA bodies built here never collide as logical duplicates. */
export function germanIban(): string {
  const bban = `37040044${String(nextGermanAccount++).padStart(10, '0')}`;
  // ISO 13616: bban + "DE00" with D=13, E=14; check digits are 98 - (that mod 97).
  const check = 98n - (BigInt(`${bban}131400`) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/** A valid NDCT (or INDCTS) body from the debtor account to a fresh Norwegian creditor. */
export function ndctBody(debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  return {
    debtorAccount: { bban: debtor.bban },
    instructedAmount: { currency: 'NOK', amount: '100.33' },
    creditorAccount: { bban: accountNumber().bban },
    creditorName: 'Company 123',
    remittanceInformationUnstructured: 'Kredittrente',
    ...extra,
  };
}

/** A valid cross-border body (NCBCT or CBCT): SEK to a Swedish bank, below the reporting threshold. */
export function crossBorderBody(debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  return {
    debtorAccount: { bban: debtor.bban },
    instructedAmount: { currency: 'SEK', amount: '100.33' },
    creditorAccount: { bban: accountNumber().bban },
    creditorName: 'Company 123',
    creditorAgent: 'ESSESESS',
    creditorAddress: { street: 'Kungsgatan', buildingNumber: '56', postalCode: '11122', city: 'Stockholm', country: 'SE' },
    remittanceInformationUnstructured: 'Invoice 1',
    ...extra,
  };
}

/** A valid SEPA credit transfer: EUR to a fresh German IBAN. */
export function sctBody(debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  return {
    debtorAccount: { bban: debtor.bban },
    instructedAmount: { currency: 'EUR', amount: '100.33' },
    creditorAccount: { iban: germanIban() },
    creditorName: 'Firma GmbH',
    remittanceInformationUnstructured: 'Rechnung 1',
    ...extra,
  };
}

export function singleBody(product: Product, debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  switch (product) {
    case NDCT:
    case INDCTS:
      return ndctBody(debtor, extra);
    case NCBCT:
    case CBCT:
      return crossBorderBody(debtor, extra);
    case SCT:
      return sctBody(debtor, extra);
  }
}

/** One payment of a bulk, to a fresh creditor. */
export function bulkItem(extra: Body = {}): Body {
  return {
    instructedAmount: { currency: 'NOK', amount: '250.00' },
    creditorAccount: { bban: accountNumber().bban },
    creditorName: 'Leverandør AS',
    remittanceInformationUnstructured: 'Faktura 1',
    ...extra,
  };
}

export function bulkBody(debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  return {
    paymentInformationId: 'bulk-1',
    batchBookingPreferred: true,
    debtorAccount: { bban: debtor.bban },
    requestedExecutionDate: osloDay(3),
    payments: [bulkItem(), bulkItem({ instructedAmount: { currency: 'NOK', amount: '12.50' } })],
    ...extra,
  };
}

export function periodicBody(debtor: Pick<Account, 'bban'>, extra: Body = {}): Body {
  return {
    ...ndctBody(debtor),
    startDate: osloDay(7),
    frequency: 'Monthly',
    ...extra,
  };
}

/** The body as it travels: `undefined` fields dropped, as JSON.stringify does. */
export function wire(body: Body): Body {
  return JSON.parse(JSON.stringify(body)) as Body;
}

export interface PostOptions {
  /** PSU-ID, PSU-Corporate-ID or any other header. */
  readonly headers?: Record<string, string>;
  readonly requestId?: string;
  /** Query string without the `?`, e.g. `allowLogicalDuplicate=true`. */
  readonly query?: string;
}

export function initiate(client: TppClient, service: Service, product: string, body: unknown, options: PostOptions = {}) {
  const path = `/v1/${service}/${product}${options.query ? `?${options.query}` : ''}`;
  const headers = { ...options.headers, ...(options.requestId ? { 'x-request-id': options.requestId } : {}) };
  return client.post<any>(path, body, { headers });
}

/** Path and query of an absolute link or Location (the public URL is not where the test server listens). */
export function pathOf(href: string): string {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

/** Creates a payment and fails the test (showing the answer) unless it is 201. */
export async function created(
  response: Promise<TppResponse<any>>,
): Promise<{ paymentId: string; path: string; response: TppResponse<any> }> {
  const answer = await response;
  expect(answer.status, answer.text).toBe(201);
  return { paymentId: answer.body.paymentId as string, path: pathOf(String(answer.headers.location)), response: answer };
}

/** Asserts an error answer: status, wire code and the path of the first tppMessage (absent when `path` is undefined). */
export function expectError(response: TppResponse<any>, status: number, code: string, path?: string): void {
  const body = typeof response.body === 'object' && response.body !== null ? response.body : {};
  expect({ status: response.status, code: body.code, path: body.tppMessages?.[0]?.path }, response.text).toEqual({ status, code, path });
  expect(body).toMatchObject({ status, code, tppMessages: [{ category: 'ERROR', code }] });
}

/** The payments stored for a TPP request id (to count what a request really created). */
export async function paymentsOfRequest(server: TestServer, requestId: string): Promise<string[]> {
  const rows = await server.database.db.selectFrom('payment').select('id').where('request_id', '=', requestId).execute();
  return rows.map((row) => row.id);
}

/** The payments stored with this debtor BBAN in their body. */
export async function paymentsOfDebtor(server: TestServer, bban: string): Promise<string[]> {
  const rows = await server.database.db.selectFrom('payment').select(['id', 'body']).execute();
  return rows
    .filter((row) => {
      const body = (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as { debtorAccount?: { bban?: string } };
      return body.debtorAccount?.bban === bban;
    })
    .map((row) => row.id);
}

/** A corporation with a NOK account and an agreement: a PSU who may register up to `registerLimit`, and one who may only view. */
export interface Corporation {
  readonly account: Account;
  readonly organisationNumber: string;
  readonly registrar: Psu;
  readonly viewer: Psu;
}

export async function corporation(client: TppClient, registerLimit = '1000.00'): Promise<Corporation> {
  const owner = await createCustomer(client, 'CORPORATE', 'Testfirma AS');
  const account = await createAccount(client, owner.customerNumber);
  const registrar = await createCustomer(client);
  const viewer = await createCustomer(client);
  const response = await client.post<any>('/v1/sandbox/agreements', {
    owner: owner.customerNumber,
    engagements: [
      { customer: registrar.customerNumber, account: { bban: account.bban }, roles: ['REGISTER', 'VIEW'], registerLimit },
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
  return { account, organisationNumber, registrar: psu(registrar.customerNumber), viewer: psu(viewer.customerNumber) };
}

/** A valid organisation number other than `taken`. */
export function anotherOrganisationNumber(taken: string): string {
  for (let n = 91234567; ; n++) {
    const candidate = makeOrganisationNumber(String(n));
    if (candidate !== undefined && candidate !== taken) return candidate;
  }
}
