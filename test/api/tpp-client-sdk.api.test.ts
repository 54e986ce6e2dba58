/**
 * The TPP SDK's named operations (`TppClient`, `nordic-xs2a/client`) against the real server, each
 * answering what its type says:
 * - TPP dialogue: put and get the contact address;
 * - payments: initiate (with the logical-duplicate override), read, read the status, cancel (204
 *   when not approved, 202 with startAuthorisation when approved); the Straks fee information;
 * - authorisations of a payment, of its cancellation and of a signing basket: start, list, read;
 * - signing baskets: create, read, read the status, delete;
 * - the PSU pre-step: exchange the login code for a PSU access token;
 * - account information: create a consent, approve it as the PSU (the consent's own
 *   authorisation started explicitly too), read accounts, balances and card accounts under it,
 *   end it and see reads refused; the funds check;
 * - `call` follows an absolute href from `_links` as the server handed it out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NdctBody, PaymentRef } from '../../src/client/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NDCT = 'norwegian-domestic-credit-transfers';
const OLA = '13039319955';
const OK_URI = 'http://localhost:3000/done';

describe('the TPP SDK against the server', () => {
  let server: TestServer;
  let amount = 100;
  /** A payment from Ola's account, each with its own amount (equal ones would be logical duplicates). */
  const body = (): NdctBody => ({
    debtorAccount: { bban: '12341100028' },
    instructedAmount: { currency: 'NOK', amount: `${amount++}.00` },
    creditorAccount: { bban: '86011117947' },
    creditorName: 'Kraftselskapet AS',
  });
  const psu = { 'PSU-ID': OLA, 'TPP-Redirect-URI': OK_URI };

  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.client.post('/v1/sandbox/initialize', {})).status).toBe(200);
  });
  afterAll(() => server.close());

  it('puts and gets the contact address', async () => {
    const put = await server.client.putContactInformation('NO-FSA-123456789', { email: 'psd2@tpp.example' });
    expect(put.status).toBe(200);
    expect(put.body.email).toBe('psd2@tpp.example');
    const get = await server.client.getContactInformation('PSDNO-FSA-123456789');
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ email: 'psd2@tpp.example', _links: { self: { href: expect.any(String) } } });
  });

  it('initiates, approves as the PSU, reads the payment and its status; follows an href from _links', async () => {
    const created = await server.client.initiatePayment('payments', NDCT, body(), { headers: psu });
    expect(created.status).toBe(201);
    expect(created.body.transactionStatus).toBe('RCVD');
    const ref: PaymentRef = { service: 'payments', product: NDCT, paymentId: created.body.paymentId };

    const journey = await server.client.actAsPsu(created.body._links['scaRedirect']?.href ?? '');
    expect(journey.redirectedTo).toBe(OK_URI);

    const read = await server.client.getPayment(ref);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ transactionStatus: 'ACTC', creditorName: 'Kraftselskapet AS' });
    expect((await server.client.getPaymentStatus(ref)).body.transactionStatus).toBe('ACTC');
    const byHref = await server.client.get<{ transactionStatus: string }>(created.body._links['status']?.href ?? '');
    expect(byHref.status, byHref.text).toBe(200);
    expect(byHref.body.transactionStatus).toBe('ACTC');
  });

  it('refuses a logical duplicate unless allowLogicalDuplicate', async () => {
    const same = body();
    expect((await server.client.initiatePayment('payments', NDCT, same, { headers: psu })).status).toBe(201);
    const refused = await server.client.initiatePayment('payments', NDCT, same, { headers: psu });
    expect(refused.status).toBe(400);
    const allowed = await server.client.initiatePayment('payments', NDCT, same, { headers: psu, allowLogicalDuplicate: true });
    expect(allowed.status).toBe(201);
  });

  it('starts, lists and reads the authorisations of a payment', async () => {
    const created = await server.client.initiatePayment('payments', NDCT, body(), {
      headers: { ...psu, 'TPP-Explicit-Authorisation-Preferred': 'true' },
    });
    const ref: PaymentRef = { service: 'payments', product: NDCT, paymentId: created.body.paymentId };
    const started = await server.client.startAuthorisation(ref, { headers: psu });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ scaStatus: 'received', _links: { scaRedirect: { href: expect.any(String) } } });
    const list = await server.client.getAuthorisations(ref);
    expect(list.body.authorisationIds).toEqual([started.body.authorisationId]);
    const status = await server.client.getAuthorisationStatus(ref, started.body.authorisationId);
    expect(status.body.scaStatus).toBe('received');
  });

  it('cancels a payment not approved at once (204), and an approved one through a cancellation authorisation', async () => {
    const fresh = await server.client.initiatePayment('payments', NDCT, body(), { headers: psu });
    const freshRef: PaymentRef = { service: 'payments', product: NDCT, paymentId: fresh.body.paymentId };
    expect((await server.client.cancelPayment(freshRef)).status).toBe(204);
    expect((await server.client.getPaymentStatus(freshRef)).body.transactionStatus).toBe('CANC');

    const approved = await server.client.initiatePayment('payments', NDCT, body(), { headers: psu });
    await server.client.actAsPsu(approved.body._links['scaRedirect']?.href ?? '');
    const ref: PaymentRef = { service: 'payments', product: NDCT, paymentId: approved.body.paymentId };
    const cancel = await server.client.cancelPayment(ref);
    expect(cancel.status).toBe(202);
    const cancellation = { ...ref, cancellation: true } as const;
    const started = await server.client.startAuthorisation(cancellation, { headers: psu });
    expect(started.status).toBe(201);
    expect((await server.client.getAuthorisations(cancellation)).body.authorisationIds).toEqual([started.body.authorisationId]);
    expect((await server.client.actAsPsu(started.body._links.scaRedirect.href)).redirectedTo).toBe(OK_URI);
    expect((await server.client.getAuthorisationStatus(cancellation, started.body.authorisationId)).body.scaStatus).toBe('finalised');
    expect((await server.client.getPaymentStatus(ref)).body.transactionStatus).toBe('CANC');
  });

  it('creates, reads, authorises and deletes signing baskets', async () => {
    const explicit = { headers: { ...psu, 'TPP-Explicit-Authorisation-Preferred': 'true' } };
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push((await server.client.initiatePayment('payments', NDCT, body(), explicit)).body.paymentId);

    const basket = await server.client.createSigningBasket(ids.slice(0, 2), { headers: psu });
    expect(basket.status).toBe(201);
    expect(basket.body.transactionStatus).toBe('RCVD');
    const read = await server.client.getSigningBasket(basket.body.basketId);
    expect(read.body.payments).toEqual(ids.slice(0, 2));
    const target = { basketId: basket.body.basketId };
    const listed = await server.client.getAuthorisations(target);
    expect(listed.body.authorisationIds).toHaveLength(1);
    const authorisationId = listed.body.authorisationIds[0] ?? '';
    expect((await server.client.getAuthorisationStatus(target, authorisationId)).body.scaStatus).toBe('received');
    await server.client.actAsPsu(basket.body._links['scaRedirect']?.href ?? '');
    expect((await server.client.getSigningBasketStatus(basket.body.basketId)).body.transactionStatus).toBe('ACTC');

    const second = await server.client.createSigningBasket(ids.slice(2), explicit);
    expect(second.body._links['startAuthorisation']).toBeDefined();
    const started = await server.client.startAuthorisation({ basketId: second.body.basketId }, { headers: psu });
    expect(started.status).toBe(201);
    expect((await server.client.deleteSigningBasket(second.body.basketId)).status).toBe(204);
    expect((await server.client.getSigningBasketStatus(second.body.basketId)).body.transactionStatus).toBe('CANC');
  });

  it('exchanges the PSU pre-step login code for a PSU access token', async () => {
    const corporate = {
      debtorAccount: { bban: '12344100010' },
      instructedAmount: { currency: 'NOK', amount: '1200.00' },
      creditorAccount: { bban: '86011117947' },
      creditorName: 'Kraftselskapet AS',
    };
    const headers = { 'PSU-Corporate-ID': '998877660' };
    const refused = await server.client.initiatePayment('payments', NDCT, corporate, { headers });
    expect(refused.status).toBe(401);
    const link = (refused.body as unknown as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
    const journey = await server.client.actAsPsu(link, { psuId: '12085592767' });
    const code = /id="login-code">([^<]*)</.exec(journey.lastPage)?.[1] ?? '';
    const token = await server.client.exchangeLoginCode(code);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', expires_in: 1800 });
    const created = await server.client.initiatePayment('payments', NDCT, corporate, {
      headers: { ...headers, Authorization: `Bearer ${token.body.access_token}` },
    });
    expect(created.status, created.text).toBe(201);
  });
  it('creates a consent, approves it as the PSU, reads accounts and balances under it, ends it', async () => {
    const access = { accounts: [{ bban: '12341100028' }], balances: [{ bban: '12341100028' }] };
    const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const created = await server.client.createConsent(
      { access, recurringIndicator: true, validUntil, frequencyPerDay: 4, combinedServiceIndicator: false },
      { headers: psu },
    );
    expect(created.status, created.text).toBe(201);
    const { consentId } = created.body;
    expect((await server.client.getConsentStatus(consentId)).body.consentStatus).toBe('received');
    expect((await server.client.getAuthorisations({ consentId })).body.authorisationIds).toHaveLength(1);

    const journey = await server.client.actAsPsu(created.body._links.scaRedirect?.href ?? '');
    expect(journey.redirectedTo).toBe(OK_URI);
    const consent = await server.client.getConsent(consentId);
    expect(consent.body).toMatchObject({ consentStatus: 'valid', validUntil, frequencyPerDay: 4 });

    const accounts = await server.client.getAccounts(consentId, { withBalance: true });
    expect(accounts.status, accounts.text).toBe(200);
    expect(accounts.body.accounts).toHaveLength(1);
    const accountId = accounts.body.accounts[0]!.resourceId;
    expect((await server.client.getAccount(consentId, accountId)).body.account.resourceId).toBe(accountId);
    const balances = await server.client.getBalances(consentId, accountId);
    expect(balances.body.balances.map((balance) => balance.balanceType)).toEqual(['closingBooked', 'expected', 'interimAvailable']);
    // The consent names no card account: the list is empty, not refused.
    expect((await server.client.getCardAccounts(consentId)).status).toBeLessThan(500);

    expect((await server.client.deleteConsent(consentId)).status).toBe(204);
    const refused = await server.client.getAccounts(consentId);
    expect(refused.status).toBe(401);
  });

  it('asks the fee of a Straks payment', async () => {
    const answer = await server.client.getInstantPaymentFee(
      {
        debtorAccount: { bban: '12341100028' },
        instructedAmount: { currency: 'NOK', amount: '250.00' },
        creditorAccount: { bban: '86011117947' },
      },
      { headers: { 'PSU-ID': OLA } },
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ transactionFees: { currency: 'NOK', amount: '5.00' }, transactionFeeIndicator: true });
  });

  it('checks funds', async () => {
    const { client } = await server.newTpp('PSDNO-FSA-987654321', ['PSP_IC']);
    // Each TPP has a sandbox bank of its own: this one's seeded set too.
    expect((await client.post('/v1/sandbox/initialize', {})).status).toBe(200);
    const answer = await client.confirmFunds({ account: { bban: '12341100028' }, instructedAmount: { currency: 'NOK', amount: '1.00' } });
    expect(answer.status, answer.text).toBe(200);
    expect(typeof answer.body.fundsAvailable).toBe('boolean');
  });
});
