import { expect } from 'vitest';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { createPayment, paymentStatusOf, type CreatedPayment } from './sca.js';
import type { Service } from './payments.js';
import type { TestServer } from './test-server.js';

/**
 * Helpers of the signing-basket tests (test/api/signing-baskets*.api.test.ts, the browser test):
 * payments created with explicit authorisation, as a TPP collects them for a basket, and the
 * basket calls.
 */

export const EXPLICIT = { 'tpp-explicit-authorisation-preferred': 'true' } as const;

/** A payment created with TPP-Explicit-Authorisation-Preferred: true (no authorisation started). */
export function explicitPayment(
  client: TppClient,
  product: string,
  body: unknown,
  headers: Record<string, string> = {},
  service: Service = 'payments',
): Promise<CreatedPayment> {
  return createPayment(client, service, product, body, { ...EXPLICIT, ...headers });
}

/** `POST /v1/signing-baskets` as sent, whatever the answer. */
export function postBasket(client: TppClient, body: unknown, headers: Record<string, string> = {}): Promise<TppResponse<any>> {
  return client.post<any>('/v1/signing-baskets', body, { headers });
}

/** A created basket with the links of its 201. */
export interface CreatedBasket {
  readonly basketId: string;
  /** /v1/signing-baskets/{basketId} */
  readonly path: string;
  readonly links: Record<string, { href: string }>;
  readonly response: TppResponse<any>;
}

/** Creates a basket and fails the test (showing the answer) unless it is 201. */
export async function createBasket(
  client: TppClient,
  paymentIds: readonly string[],
  headers: Record<string, string> = {},
): Promise<CreatedBasket> {
  const response = await postBasket(client, { paymentIds }, headers);
  expect(response.status, response.text).toBe(201);
  const basketId = response.body.basketId as string;
  return { basketId, path: `/v1/signing-baskets/${basketId}`, links: response.body._links, response };
}

/** The basket's status as `GET …/status` answers it. */
export async function basketStatusOf(client: TppClient, basketPath: string): Promise<string> {
  const response = await client.get<any>(`${basketPath}/status`);
  expect(response.status, response.text).toBe(200);
  return response.body.transactionStatus as string;
}

/** The basket as `GET /v1/signing-baskets/{id}` answers it, failing the test unless 200. */
export async function basketView(
  client: TppClient,
  basketPath: string,
): Promise<{ payments: string[]; transactionStatus: string; _links: Record<string, { href: string }> }> {
  const response = await client.get<any>(basketPath);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** `POST {basket}/authorisations`, failing the test unless 201. */
export async function startBasketAuthorisation(
  client: TppClient,
  basketPath: string,
  headers: Record<string, string> = {},
): Promise<{ authorisationId: string; scaRedirect: string; scaStatus: string; response: TppResponse<any> }> {
  const response = await client.post<any>(`${basketPath}/authorisations`, undefined, { headers });
  expect(response.status, response.text).toBe(201);
  return {
    authorisationId: response.body.authorisationId as string,
    scaRedirect: response.body._links.scaRedirect.href as string,
    scaStatus: response.body._links.scaStatus.href as string,
    response,
  };
}

/** The ids of the stored signing baskets (read around the API) that list any of these payments. */
export async function basketsHolding(server: TestServer, paymentIds: readonly string[]): Promise<string[]> {
  const rows = await server.database.db.selectFrom('signing_basket').select(['id', 'payment_ids']).execute();
  return rows.filter((row) => (JSON.parse(row.payment_ids) as string[]).some((id) => paymentIds.includes(id))).map((row) => row.id);
}

/** The basket a payment is stored in (read around the API), or null. */
export async function storedBasketOf(server: TestServer, paymentId: string): Promise<string | null | undefined> {
  const row = await server.database.db.selectFrom('payment').select('basket_id').where('id', '=', paymentId).executeTakeFirst();
  return row?.basket_id;
}

/**
 * A refused basket changed nothing: each payment still reads RCVD, is stored in no basket, no
 * signing_basket row lists it, and the payments can still be put in a basket together (created
 * here, with `headers`: the payments are in that basket afterwards).
 */
export async function expectStillBasketable(
  server: TestServer,
  payments: readonly Pick<CreatedPayment, 'paymentId' | 'path'>[],
  headers: Record<string, string>,
): Promise<CreatedBasket> {
  const ids = payments.map((payment) => payment.paymentId);
  for (const payment of payments) {
    expect(await paymentStatusOf(server.client, payment.path), payment.paymentId).toEqual({ transactionStatus: 'RCVD' });
    expect(await storedBasketOf(server, payment.paymentId), payment.paymentId).toBeNull();
  }
  expect(await basketsHolding(server, ids)).toEqual([]);
  const basket = await createBasket(server.client, ids, headers);
  expect(await basketsHolding(server, ids)).toEqual([basket.basketId]);
  return basket;
}

/**
 * `DELETE /v1/signing-baskets/{id}`, failing the test with an explanation when no answer comes
 * within `withinMs` (a DELETE that waits on the database forever must not look like a slow test).
 */
export async function deleteBasket(client: TppClient, basketPath: string, withinMs = 5000): Promise<TppResponse<any>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`DELETE ${basketPath} did not answer within ${withinMs} ms`)), withinMs);
  });
  try {
    return await Promise.race([client.delete<any>(basketPath), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
