/**
 * The ids the server hands out are lower-case UUIDs; a UUID is the same in any letter case on
 * input (RFC 9562 §4). A TPP that sends an id it was given in capitals, in any path of any
 * resource, in the Consent-ID header or in a signing basket's paymentIds, is served as with the id
 * as given (src/http/issued-uuids.ts); the server answers its ids as it issued them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBasket, EXPLICIT, explicitPayment, postBasket, startBasketAuthorisation } from '../support/baskets.js';
import { approvedConsent, consentBody, createConsent, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { NDCT, ndctBody, pathOf, privatePsu, type Psu } from '../support/payments.js';
import { startAuthorisation, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('issued ids in capitals (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  /** GET of the path with its ids in capitals, failing the test unless 200. */
  async function readInCapitals(path: string, headers: Record<string, string> = {}): Promise<any> {
    const upper = path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => id.toUpperCase());
    expect(upper).not.toBe(path);
    const response = await server.client.get<any>(upper, { headers });
    expect(response.status, `${upper}: ${response.text}`).toBe(200);
    return response.body;
  }

  it('reads a payment, its status and its authorisation', async () => {
    const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    expect(payment.paymentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await readInCapitals(`${payment.path}/status`)).toEqual({ transactionStatus: 'RCVD' });
    expect(await readInCapitals(payment.path)).toMatchObject({ transactionStatus: 'RCVD', debtorAccount: { bban: psu.account.bban } });
    const authorisation = await startAuthorisation(server.client, payment.path);
    expect(await readInCapitals(`${payment.path}/authorisations`)).toEqual({ authorisationIds: [authorisation.authorisationId] });
    expect(await readInCapitals(pathOf(authorisation.scaStatus))).toEqual({ scaStatus: 'received' });
  });

  it('reads a consent, its status and its authorisation', async () => {
    const consent = await createConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers);
    expect(await readInCapitals(`/v1/consents/${consent.consentId}/status`)).toEqual({ consentStatus: 'received' });
    expect(await readInCapitals(`/v1/consents/${consent.consentId}`)).toMatchObject({ consentStatus: 'received' });
    const authorisationId = new URL(consent.scaRedirect!).pathname.split('/').pop()!;
    expect(await readInCapitals(`/v1/consents/${consent.consentId}/authorisations/${authorisationId}`)).toEqual({
      scaStatus: 'received',
    });
  });

  it('reads a signing basket, its status and its authorisation', async () => {
    const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    const basket = await createBasket(server.client, [payment.paymentId], { ...psu.headers, ...EXPLICIT });
    expect(await readInCapitals(`${basket.path}/status`)).toEqual({ transactionStatus: 'RCVD' });
    expect(await readInCapitals(basket.path)).toMatchObject({ payments: [payment.paymentId], transactionStatus: 'RCVD' });
    const authorisation = await startBasketAuthorisation(server.client, basket.path);
    expect(await readInCapitals(pathOf(authorisation.scaStatus))).toEqual({ scaStatus: 'received' });
  });

  it('reads an account by its resource id under a consent, and a sandbox mock account', async () => {
    const consentId = await approvedConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers, (link) => walk(link));
    const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
    expect(list.status, list.text).toBe(200);
    const resourceId = list.body.accounts[0].resourceId as string;
    expect(await readInCapitals(`/v1/accounts/${resourceId}/balances`, { 'consent-id': consentId })).toMatchObject({
      account: { iban: psu.account.iban },
    });
    const mock = await server.client.get<any>('/v1/sandbox/accounts');
    expect(mock.status, mock.text).toBe(200);
    const mockAccount = mock.body.accounts.find((account: any) => account.bban === psu.account.bban);
    expect(await readInCapitals(`/v1/sandbox/accounts/${mockAccount.resourceId}`)).toMatchObject({ bban: psu.account.bban });
  });

  it('reads balances under a Consent-ID in capitals', async () => {
    const consentId = await approvedConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers, (link) => walk(link));
    const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
    expect(list.status, list.text).toBe(200);
    const resourceId = list.body.accounts[0].resourceId as string;
    const balances = await server.client.get<any>(`/v1/accounts/${resourceId}/balances`, {
      headers: { 'consent-id': consentId.toUpperCase() },
    });
    expect(balances.status, balances.text).toBe(200);
    expect(balances.body).toMatchObject({ account: { iban: psu.account.iban } });
  });

  it('creates a signing basket of payment ids in capitals, and lists them as issued', async () => {
    const first = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    const second = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    const basket = await createBasket(server.client, [first.paymentId.toUpperCase(), second.paymentId.toUpperCase()], {
      ...psu.headers,
      ...EXPLICIT,
    });
    const view = await server.client.get<any>(basket.path);
    expect(view.status, view.text).toBe(200);
    expect(view.body.payments).toEqual([first.paymentId, second.paymentId]);
  });

  it('refuses a payment named twice in a basket, once in capitals: it is the same payment', async () => {
    const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    const response = await postBasket(
      server.client,
      { paymentIds: [payment.paymentId, payment.paymentId.toUpperCase()] },
      {
        ...psu.headers,
        ...EXPLICIT,
      },
    );
    expect(response.status, response.text).toBe(400);
    expect(response.body.tppMessages[0]).toMatchObject({ code: 'FORMAT_ERROR', path: 'paymentIds' });
    expect(response.body.tppMessages[0].text).toContain(payment.paymentId);
  });

  it('still answers 404 for an id in capitals that names nothing', async () => {
    const response = await server.client.get<any>(`/v1/payments/${NDCT}/3F2A9C1E-0B7D-4E6F-8A5B-1C2D3E4F5A6B/status`);
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'RESOURCE_UNKNOWN' });
  });
});
