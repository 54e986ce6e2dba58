/**
 * Creating a signing basket: `POST /v1/signing-baskets` with {"paymentIds": [...]}, through
 * the real server with signed requests. Accepted: 1..10 distinct ids of this TPP's single payments
 * (any of NDCT, INDCTS, NCBCT, CBCT, SCT), created with TPP-Explicit-Authorisation-Preferred or not
 * (an implicit authorisation of a basketed payment is ended: failed, "The payment was put in signing
 * basket <id>", the payment stays RCVD). The 201: {basketId, transactionStatus RCVD, _links} with
 * Location and ASPSP-SCA-Approach: REDIRECT; startAuthorisation instead of scaRedirect/scaStatus
 * when the basket itself is sent with TPP-Explicit-Authorisation-Preferred. Refused:
 * 1. more than 10 ids, none, duplicates, no paymentIds, extra properties, non-string ids: 400 FORMAT_ERROR;
 * 2. a bulk or periodic payment: 400 REFERENCE_MIX_INVALID at paymentIds;
 * 3. an unknown id or another TPP's payment: 404 RESOURCE_UNKNOWN at paymentIds;
 * 4. a payment ACTC, PATC, CANC, RJCT or in another open basket: 409 REFERENCE_STATUS_INVALID;
 * 5. payments from accounts of different PSUs (two private customers; private and corporate): 400 REFERENCE_MIX_INVALID;
 * 6. no PSU identified: 401 PSU_CREDENTIALS_INVALID with _links.scaRedirect to the PSU login; the
 *    token that login yields identifies the PSU instead of PSU-ID;
 * 7. corporate payments without PSU-Corporate-ID: 400 FORMAT_ERROR; with another organisation: 401 CORPORATE_ID_INVALID;
 * 8. a PSU-ID who may not use the debtor accounts: 400 PAYMENT_FAILED at PSU-ID;
 * 9. every refusal changes nothing: the payments stay RCVD, in no basket, and can still be put in one;
 * 10. idempotency: the same X-Request-ID and body replays the 201 (one basket); another body is 409 REQUEST_ID_REUSED.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import {
  basketsHolding,
  basketView,
  createBasket,
  EXPLICIT,
  expectStillBasketable,
  explicitPayment,
  postBasket,
  storedBasketOf,
} from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import {
  anotherOrganisationNumber,
  bulkBody,
  corporation,
  expectError,
  NDCT,
  ndctBody,
  periodicBody,
  privatePsu,
  PRODUCTS,
  singleBody,
  type Body,
  type Corporation,
  type Product,
  type Psu,
} from '../support/payments.js';
import {
  alertOf,
  createPayment,
  dualControlCorporation,
  enterCode,
  expectSeeOther,
  identify,
  idOfLink,
  inputOf,
  maskedPsuId,
  OK_URI,
  openPage,
  paymentStatusOf,
  scaStatusOf,
  startAuthorisation,
  storedScaStatus,
  walk,
  type CreatedPayment,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** An error answer of the basket API: status, wire code, path, and the Berlin Group signing-basket error schema. */
function expectBasketError(response: TppResponse<any>, status: number, code: string, path?: string): void {
  expectError(response, status, code, path);
  expectBerlinGroupSchema(`Error${status}_NG_SBS`, response.body);
}

/** The error's explanation: `message`, else the first tppMessage's text. */
function explanationOf(response: TppResponse<any>): string {
  return String(response.body.message ?? response.body.tppMessages?.[0]?.text ?? '');
}

describe.each(DIALECTS)('signing basket creation and its refusals (%s)', (dialect) => {
  let server: TestServer;
  let alice: Psu;
  let bob: Psu;
  let company: Corporation;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    alice = await privatePsu(server.client);
    bob = await privatePsu(server.client);
    company = await corporation(server.client, '100000.00');
  });
  afterAll(() => server.close());

  /** A single payment created for a basket (explicit authorisation) from the PSU's account. */
  const payment = (owner: Psu = alice, product: Product = NDCT, extra: Body = {}) =>
    explicitPayment(server.client, product, singleBody(product, owner.account, extra), owner.headers);
  const ids = (payments: readonly CreatedPayment[]) => payments.map((created) => created.paymentId);

  describe('accepted', () => {
    it('one payment of each of the five products in one basket: 201 with Location, ASPSP-SCA-Approach and scaRedirect/scaStatus', async () => {
      const payments: CreatedPayment[] = [];
      for (const product of PRODUCTS) payments.push(await payment(alice, product));
      const basket = await createBasket(server.client, ids(payments), alice.headers);
      const body = basket.response.body;
      expectBerlinGroupSchema('signingBasketResponse-201', body);
      expect(body.transactionStatus).toBe('RCVD');
      expect(body.basketId).toMatch(/^[0-9a-f-]{36}$/);
      const self = `${server.config.publicUrl}/v1/signing-baskets/${body.basketId as string}`;
      expect(basket.response.headers['location']).toBe(self);
      expect(basket.response.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(Object.keys(body._links).sort()).toEqual(['scaRedirect', 'scaStatus', 'self', 'status']);
      expect(body._links.self).toEqual({ href: self });
      expect(body._links.status).toEqual({ href: `${self}/status` });
      const authorisationId = idOfLink(body._links.scaRedirect.href);
      expect(body._links.scaStatus).toEqual({ href: `${self}/authorisations/${authorisationId}` });
      for (const created of payments) expect(await storedBasketOf(server, created.paymentId)).toBe(body.basketId);
      expect((await basketView(server.client, basket.path)).payments).toEqual(ids(payments));
    });

    it('TPP-Explicit-Authorisation-Preferred on the basket: _links has startAuthorisation instead of scaRedirect and scaStatus', async () => {
      const basket = await createBasket(server.client, [(await payment()).paymentId], { ...alice.headers, ...EXPLICIT });
      expectBerlinGroupSchema('signingBasketResponse-201', basket.response.body);
      const self = `${server.config.publicUrl}${basket.path}`;
      expect(basket.links).toEqual({
        self: { href: self },
        status: { href: `${self}/status` },
        startAuthorisation: { href: `${self}/authorisations` },
      });
      expect((await server.client.get<any>(`${basket.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
    });

    it("a payment created with implicit authorisation may be basketed: its own link stops working (failed, 'put in signing basket'), and it stays RCVD", async () => {
      const implicit = await createPayment(server.client, 'payments', NDCT, ndctBody(alice.account), alice.headers);
      const ownLink = implicit.links['scaRedirect']!.href;
      const basket = await createBasket(server.client, [implicit.paymentId], alice.headers);
      const reason = `The payment was put in signing basket ${basket.basketId}`;
      expect(await scaStatusOf(server.client, implicit.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: reason });
      expect(await paymentStatusOf(server.client, implicit.path)).toEqual({ transactionStatus: 'RCVD' });
      const page = await openPage(ownLink);
      expect(alertOf(page.text)).toBe(reason);
      expect(await paymentStatusOf(server.client, implicit.path)).toEqual({ transactionStatus: 'RCVD' });
      // The basket's link still approves it.
      await walk(basket.links['scaRedirect']!.href);
      expect(await paymentStatusOf(server.client, implicit.path)).toEqual({ transactionStatus: 'ACTC' });
    });
  });

  describe('1. the body: 400 FORMAT_ERROR', () => {
    it('more than 10 ids is refused at paymentIds; 10 of them still make a basket', async () => {
      const payments: CreatedPayment[] = [];
      for (let i = 0; i < 11; i++) payments.push(await payment());
      expectBasketError(await postBasket(server.client, { paymentIds: ids(payments) }, alice.headers), 400, 'FORMAT_ERROR', 'paymentIds');
      expect(await basketsHolding(server, ids(payments))).toEqual([]);
      await expectStillBasketable(server, payments.slice(0, 10), alice.headers);
      expect(await paymentStatusOf(server.client, payments[10]!.path)).toEqual({ transactionStatus: 'RCVD' });
      expect(await storedBasketOf(server, payments[10]!.paymentId)).toBeNull();
    });

    it('an empty list is refused at paymentIds', async () => {
      expectBasketError(await postBasket(server.client, { paymentIds: [] }, alice.headers), 400, 'FORMAT_ERROR', 'paymentIds');
    });

    it('a payment listed twice is refused at paymentIds, naming it', async () => {
      const [first, second] = [await payment(), await payment()];
      const response = await postBasket(server.client, { paymentIds: [first.paymentId, second.paymentId, first.paymentId] }, alice.headers);
      expectBasketError(response, 400, 'FORMAT_ERROR', 'paymentIds');
      expect(explanationOf(response)).toContain(first.paymentId);
      await expectStillBasketable(server, [first, second], alice.headers);
    });

    it('a body without paymentIds is refused at paymentIds', async () => {
      expectBasketError(await postBasket(server.client, {}, alice.headers), 400, 'FORMAT_ERROR', 'paymentIds');
    });

    it('a property other than paymentIds and consentIds is refused, naming it', async () => {
      const first = await payment();
      const response = await postBasket(server.client, { paymentIds: [first.paymentId], consentId: ['c-1'] }, alice.headers);
      expectBasketError(response, 400, 'FORMAT_ERROR', 'consentId');
      await expectStillBasketable(server, [first], alice.headers);
    });

    it('consent ids are 400 REFERENCE_MIX_INVALID at consentIds: a basket holds payments only', async () => {
      const first = await payment();
      const response = await postBasket(server.client, { paymentIds: [first.paymentId], consentIds: ['c-1'] }, alice.headers);
      expectBasketError(response, 400, 'REFERENCE_MIX_INVALID', 'consentIds');
      await expectStillBasketable(server, [first], alice.headers);
    });

    it('an id that is not a string is refused at that id', async () => {
      const first = await payment();
      const response = await postBasket(server.client, { paymentIds: [first.paymentId, 42] }, alice.headers);
      expectBasketError(response, 400, 'FORMAT_ERROR', 'paymentIds[1]');
      await expectStillBasketable(server, [first], alice.headers);
    });

    it('paymentIds that is not an array is refused at paymentIds', async () => {
      const first = await payment();
      expectBasketError(await postBasket(server.client, { paymentIds: first.paymentId }, alice.headers), 400, 'FORMAT_ERROR', 'paymentIds');
      await expectStillBasketable(server, [first], alice.headers);
    });
  });

  describe('2. single payments only: 400 REFERENCE_MIX_INVALID', () => {
    it.each([
      ['bulk-payments', (psu: Psu) => bulkBody(psu.account)],
      ['periodic-payments', (psu: Psu) => periodicBody(psu.account)],
    ] as const)('a %s id is refused at paymentIds', async (service, body) => {
      const single = await payment();
      const other = await explicitPayment(server.client, NDCT, body(alice), alice.headers, service);
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, other.paymentId] }, alice.headers);
      expectBasketError(response, 400, 'REFERENCE_MIX_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(other.paymentId);
      expect(await paymentStatusOf(server.client, other.path)).toEqual({ transactionStatus: 'RCVD' });
      expect(await storedBasketOf(server, other.paymentId)).toBeNull();
      await expectStillBasketable(server, [single], alice.headers);
    });
  });

  describe('3. payments of this TPP only: 404 RESOURCE_UNKNOWN', () => {
    it('an unknown id is refused at paymentIds, naming it', async () => {
      const single = await payment();
      const unknown = randomUUID();
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, unknown] }, alice.headers);
      expectBasketError(response, 404, 'RESOURCE_UNKNOWN', 'paymentIds');
      expect(explanationOf(response)).toContain(unknown);
      await expectStillBasketable(server, [single], alice.headers);
    });

    it("another TPP's payment is refused at paymentIds and stays free for that TPP", async () => {
      const other = await server.newTpp('PSDNO-FSA-918273645');
      const theirPsu = await privatePsu(other.client);
      const theirs = await explicitPayment(other.client, NDCT, ndctBody(theirPsu.account), theirPsu.headers);
      const single = await payment();
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, theirs.paymentId] }, alice.headers);
      expectBasketError(response, 404, 'RESOURCE_UNKNOWN', 'paymentIds');
      // Even alone, and with the debtor PSU's own PSU-ID.
      expectBasketError(
        await postBasket(server.client, { paymentIds: [theirs.paymentId] }, theirPsu.headers),
        404,
        'RESOURCE_UNKNOWN',
        'paymentIds',
      );
      expect(await storedBasketOf(server, theirs.paymentId)).toBeNull();
      expect(await paymentStatusOf(other.client, theirs.path)).toEqual({ transactionStatus: 'RCVD' });
      await createBasket(other.client, [theirs.paymentId], theirPsu.headers);
      await expectStillBasketable(server, [single], alice.headers);
    });
  });

  describe('4. payments still waiting for their first approval: 409 REFERENCE_STATUS_INVALID', () => {
    it('an approved payment (ACTC)', async () => {
      const approved = await createPayment(server.client, 'payments', NDCT, ndctBody(alice.account), alice.headers);
      await walk(approved.links['scaRedirect']!.href);
      expect(await paymentStatusOf(server.client, approved.path)).toEqual({ transactionStatus: 'ACTC' });
      const single = await payment();
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, approved.paymentId] }, alice.headers);
      expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(approved.paymentId);
      expect(await paymentStatusOf(server.client, approved.path)).toEqual({ transactionStatus: 'ACTC' });
      await expectStillBasketable(server, [single], alice.headers);
    });

    it('a partly approved corporate payment (PATC, dual control)', async () => {
      const dual = await dualControlCorporation(server.client, '0', 2);
      const approver = dual.approvers[0]!;
      const partly = await explicitPayment(server.client, NDCT, ndctBody(dual.account), approver.headers);
      await walk((await startAuthorisation(server.client, partly.path)).scaRedirect);
      expect(await paymentStatusOf(server.client, partly.path)).toEqual({ transactionStatus: 'PATC' });
      const fresh = await explicitPayment(server.client, NDCT, ndctBody(dual.account), approver.headers);
      const response = await postBasket(server.client, { paymentIds: [fresh.paymentId, partly.paymentId] }, approver.headers);
      expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(partly.paymentId);
      expect(await paymentStatusOf(server.client, partly.path)).toEqual({ transactionStatus: 'PATC' });
      await expectStillBasketable(server, [fresh], approver.headers);
    });

    it('a payment the TPP cancelled (CANC)', async () => {
      const cancelled = await payment();
      expect((await server.client.delete<any>(cancelled.path)).status).toBe(204);
      const single = await payment();
      const response = await postBasket(server.client, { paymentIds: [cancelled.paymentId, single.paymentId] }, alice.headers);
      expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(cancelled.paymentId);
      expect((await paymentStatusOf(server.client, cancelled.path)).transactionStatus).toBe('CANC');
      await expectStillBasketable(server, [single], alice.headers);
    });

    it('a payment whose PSU rejected its own authorisation (RJCT)', async () => {
      const rejected = await createPayment(server.client, 'payments', NDCT, ndctBody(alice.account), alice.headers);
      await walk(rejected.links['scaRedirect']!.href, { decision: 'reject' });
      expect((await paymentStatusOf(server.client, rejected.path)).transactionStatus).toBe('RJCT');
      const single = await payment();
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, rejected.paymentId] }, alice.headers);
      expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(rejected.paymentId);
      await expectStillBasketable(server, [single], alice.headers);
    });

    it('a payment already in another open basket; that basket is unchanged', async () => {
      const taken = await payment();
      const first = await createBasket(server.client, [taken.paymentId], alice.headers);
      const single = await payment();
      const response = await postBasket(server.client, { paymentIds: [single.paymentId, taken.paymentId] }, alice.headers);
      expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain(first.basketId);
      expect(await storedBasketOf(server, taken.paymentId)).toBe(first.basketId);
      expect(await basketsHolding(server, [taken.paymentId])).toEqual([first.basketId]);
      expect(await basketView(server.client, first.path)).toMatchObject({ payments: [taken.paymentId], transactionStatus: 'RCVD' });
      await expectStillBasketable(server, [single], alice.headers);
    });
  });

  describe('5. one debtor PSU: 400 REFERENCE_MIX_INVALID', () => {
    it("two private customers' payments are refused: the payments are from accounts of different PSUs", async () => {
      const [mine, theirs] = [await payment(alice), await payment(bob)];
      const response = await postBasket(server.client, { paymentIds: [mine.paymentId, theirs.paymentId] }, alice.headers);
      expectBasketError(response, 400, 'REFERENCE_MIX_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain('different PSUs');
      await expectStillBasketable(server, [mine], alice.headers);
      await expectStillBasketable(server, [theirs], bob.headers);
    });

    it("a private customer's and a corporate agreement's payments are refused: different PSUs", async () => {
      const mine = await payment(alice);
      const corporate = await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers);
      for (const headers of [alice.headers, company.registrar.headers]) {
        const response = await postBasket(server.client, { paymentIds: [mine.paymentId, corporate.paymentId] }, headers);
        expectBasketError(response, 400, 'REFERENCE_MIX_INVALID', 'paymentIds');
        expect(explanationOf(response)).toContain('different PSUs');
      }
      await expectStillBasketable(server, [mine], alice.headers);
      await expectStillBasketable(server, [corporate], company.registrar.headers);
    });

    it("two corporations' payments are refused: different PSUs", async () => {
      const other = await corporation(server.client, '100000.00');
      const ours = await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers);
      const theirs = await explicitPayment(server.client, NDCT, ndctBody(other.account), other.registrar.headers);
      const response = await postBasket(server.client, { paymentIds: [ours.paymentId, theirs.paymentId] }, company.registrar.headers);
      expectBasketError(response, 400, 'REFERENCE_MIX_INVALID', 'paymentIds');
      expect(explanationOf(response)).toContain('different PSUs');
      await expectStillBasketable(server, [ours], company.registrar.headers);
    });
  });

  describe('6. an identified PSU: 401 with the PSU login', () => {
    it('no PSU-ID and no token: 401 PSU_CREDENTIALS_INVALID with _links.scaRedirect to a PSU login; nothing else happens', async () => {
      const payments = [await payment(), await payment()];
      const response = await postBasket(server.client, { paymentIds: ids(payments) });
      expectBasketError(response, 401, 'PSU_CREDENTIALS_INVALID');
      const href = response.body._links.scaRedirect.href as string;
      expect(href).toMatch(new RegExp(`^${server.config.publicUrl}/sca/[0-9a-f-]{36}$`));
      const row = await server.database.db
        .selectFrom('authorisation')
        .select(['purpose', 'resource_id', 'sca_status'])
        .where('id', '=', idOfLink(href))
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ purpose: 'psu-login', resource_id: null, sca_status: 'received' });
      const page = await openPage(href);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<title>Log in');
      await expectStillBasketable(server, payments, alice.headers);
    });

    it('the PSU access token from that login identifies the PSU: the basket is created with Authorization: Bearer and no PSU-ID', async () => {
      const payments = [await payment(), await payment()];
      const refused = await postBasket(server.client, { paymentIds: ids(payments) }, { 'tpp-redirect-uri': OK_URI });
      expectBasketError(refused, 401, 'PSU_CREDENTIALS_INVALID');
      const login = refused.body._links.scaRedirect.href as string;
      expectSeeOther(await identify(login, alice.customerNumber));
      const code = new URL(expectSeeOther(await enterCode(login))).searchParams.get('code');
      expect(code).toBeTruthy();
      const token = await server.client.post<any>('/v1/token', { code });
      expect(token.status, token.text).toBe(200);
      const basket = await createBasket(server.client, ids(payments), { authorization: `Bearer ${token.body.access_token as string}` });
      const stored = await server.database.db
        .selectFrom('signing_basket')
        .select('psu_id')
        .where('id', '=', basket.basketId)
        .executeTakeFirstOrThrow();
      expect(stored.psu_id).toBe(alice.customerNumber);
      const link = basket.links['scaRedirect']!.href;
      const field = inputOf((await openPage(link)).text, 'psuId') ?? '';
      expect(field).toContain(`value="${maskedPsuId(alice.customerNumber)}"`);
      expect(field).toContain('readonly');
      await walk(link);
      for (const created of payments) expect(await paymentStatusOf(server.client, created.path)).toEqual({ transactionStatus: 'ACTC' });
    });
  });

  describe('7. PSU-Corporate-ID of corporate payments', () => {
    it('corporate payments without PSU-Corporate-ID: 400 FORMAT_ERROR at PSU-Corporate-ID', async () => {
      const payments = [
        await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers),
        await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers),
      ];
      const response = await postBasket(server.client, { paymentIds: ids(payments) }, { 'psu-id': company.registrar.customerNumber });
      expectBasketError(response, 400, 'FORMAT_ERROR', 'PSU-Corporate-ID');
      await expectStillBasketable(server, payments, company.registrar.headers);
    });

    it('corporate payments with another organisation number: 401 CORPORATE_ID_INVALID at PSU-Corporate-ID', async () => {
      const payments = [await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers)];
      const response = await postBasket(
        server.client,
        { paymentIds: ids(payments) },
        { 'psu-id': company.registrar.customerNumber, 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber) },
      );
      expectBasketError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      await expectStillBasketable(server, payments, company.registrar.headers);
    });

    it("a private customer's payments with a PSU-Corporate-ID: 401 CORPORATE_ID_INVALID at PSU-Corporate-ID", async () => {
      const payments = [await payment()];
      const response = await postBasket(
        server.client,
        { paymentIds: ids(payments) },
        { ...alice.headers, 'psu-corporate-id': company.organisationNumber },
      );
      expectBasketError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      await expectStillBasketable(server, payments, alice.headers);
    });
  });

  describe('8. a PSU who may use the debtor accounts: 400 PAYMENT_FAILED at PSU-ID', () => {
    it("another private customer as PSU-ID for a private customer's payments", async () => {
      const payments = [await payment(alice), await payment(alice)];
      const response = await postBasket(server.client, { paymentIds: ids(payments) }, bob.headers);
      expectBasketError(response, 400, 'PAYMENT_FAILED', 'PSU-ID');
      await expectStillBasketable(server, payments, alice.headers);
    });

    it("a PSU engaged only with VIEW for a corporation's payments", async () => {
      const payments = [await explicitPayment(server.client, NDCT, ndctBody(company.account), company.registrar.headers)];
      const response = await postBasket(server.client, { paymentIds: ids(payments) }, company.viewer.headers);
      expectBasketError(response, 400, 'PAYMENT_FAILED', 'PSU-ID');
      await expectStillBasketable(server, payments, company.registrar.headers);
    });
  });

  describe('9. a refusal changes nothing', () => {
    it("a refused basket leaves an implicit payment's own authorisation open: its link still approves it", async () => {
      const implicit = await createPayment(server.client, 'payments', NDCT, ndctBody(alice.account), alice.headers);
      const authorisationId = idOfLink(implicit.links['scaRedirect']!.href);
      const refusals = [
        await postBasket(server.client, { paymentIds: [implicit.paymentId, randomUUID()] }, alice.headers),
        await postBasket(server.client, { paymentIds: [implicit.paymentId, (await payment(bob)).paymentId] }, alice.headers),
        await postBasket(server.client, { paymentIds: [implicit.paymentId] }, bob.headers),
        await postBasket(server.client, { paymentIds: [implicit.paymentId] }),
      ];
      expect(refusals.map((response) => [response.status, response.body.code])).toEqual([
        [404, 'RESOURCE_UNKNOWN'],
        [400, 'REFERENCE_MIX_INVALID'],
        [400, 'PAYMENT_FAILED'],
        [401, 'PSU_CREDENTIALS_INVALID'],
      ]);
      expect(await storedScaStatus(server, authorisationId)).toBe('received');
      expect(await scaStatusOf(server.client, implicit.links['scaStatus']!.href)).toEqual({ scaStatus: 'received' });
      expect(await basketsHolding(server, [implicit.paymentId])).toEqual([]);
      expect(await storedBasketOf(server, implicit.paymentId)).toBeNull();
      await walk(implicit.links['scaRedirect']!.href);
      expect(await paymentStatusOf(server.client, implicit.path)).toEqual({ transactionStatus: 'ACTC' });
    });

    it('no refusal stores a signing basket', async () => {
      const before = await server.database.db.selectFrom('signing_basket').select('id').execute();
      const single = await payment();
      await postBasket(server.client, { paymentIds: [single.paymentId, single.paymentId] }, alice.headers);
      await postBasket(server.client, { paymentIds: [single.paymentId, randomUUID()] }, alice.headers);
      await postBasket(server.client, { paymentIds: [single.paymentId] }, bob.headers);
      await postBasket(
        server.client,
        { paymentIds: [single.paymentId] },
        { ...alice.headers, 'psu-corporate-id': company.organisationNumber },
      );
      const after = await server.database.db.selectFrom('signing_basket').select('id').execute();
      expect(after).toEqual(before);
      await expectStillBasketable(server, [single], alice.headers);
    });
  });

  describe('10. X-Request-ID', () => {
    it('the same request again answers the same 201 (same basketId) and creates one basket', async () => {
      const payments = [await payment(), await payment()];
      const requestId = randomUUID();
      const headers = { ...alice.headers, 'x-request-id': requestId };
      const first = await postBasket(server.client, { paymentIds: ids(payments) }, headers);
      expect(first.status, first.text).toBe(201);
      const again = await postBasket(server.client, { paymentIds: ids(payments) }, headers);
      expect(again.status, again.text).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['location']).toBe(first.headers['location']);
      const rows = await server.database.db.selectFrom('signing_basket').select('id').where('request_id', '=', requestId).execute();
      expect(rows).toEqual([{ id: first.body.basketId }]);
      expect(await basketsHolding(server, ids(payments))).toEqual([first.body.basketId]);
    });

    it('the same X-Request-ID with another body is 409 REQUEST_ID_REUSED and creates nothing', async () => {
      const [kept, other] = [await payment(), await payment()];
      const requestId = randomUUID();
      const headers = { ...alice.headers, 'x-request-id': requestId };
      const first = await postBasket(server.client, { paymentIds: [kept.paymentId] }, headers);
      expect(first.status, first.text).toBe(201);
      const reused = await postBasket(server.client, { paymentIds: [other.paymentId] }, headers);
      expectBasketError(reused, 409, 'REQUEST_ID_REUSED', 'X-Request-ID');
      const rows = await server.database.db.selectFrom('signing_basket').select('id').where('request_id', '=', requestId).execute();
      expect(rows).toEqual([{ id: first.body.basketId }]);
      await expectStillBasketable(server, [other], alice.headers);
    });

    it('the PSU counts as resolved: a retry with a token of the same PSU replays, one with another PSU is 409', async () => {
      const payments = [await payment(), await payment()];
      const requestId = randomUUID();
      const first = await postBasket(server.client, { paymentIds: ids(payments) }, { ...alice.headers, 'x-request-id': requestId });
      expect(first.status, first.text).toBe(201);
      // A login of the same PSU (another basket's pre-step) yields her access token.
      const refused = await postBasket(server.client, { paymentIds: [(await payment()).paymentId] }, { 'tpp-redirect-uri': OK_URI });
      const login = refused.body._links.scaRedirect.href as string;
      expectSeeOther(await identify(login, alice.customerNumber));
      const code = new URL(expectSeeOther(await enterCode(login))).searchParams.get('code');
      const token = await server.client.post<any>('/v1/token', { code });
      expect(token.status, token.text).toBe(200);
      const withToken = await postBasket(
        server.client,
        { paymentIds: ids(payments) },
        { authorization: `Bearer ${token.body.access_token as string}`, 'x-request-id': requestId },
      );
      expect(withToken.status, withToken.text).toBe(201);
      expect(withToken.body).toEqual(first.body);
      const otherPsu = await postBasket(server.client, { paymentIds: ids(payments) }, { ...bob.headers, 'x-request-id': requestId });
      expectBasketError(otherPsu, 409, 'REQUEST_ID_REUSED', 'X-Request-ID');
    });

    it('a refused request keeps no claim on its X-Request-ID: the corrected request with that id creates the basket', async () => {
      const payments = [await payment(), await payment()];
      const requestId = randomUUID();
      const refused = await postBasket(server.client, { paymentIds: ids(payments) }, { ...bob.headers, 'x-request-id': requestId });
      expectBasketError(refused, 400, 'PAYMENT_FAILED', 'PSU-ID');
      const corrected = await postBasket(server.client, { paymentIds: ids(payments) }, { ...alice.headers, 'x-request-id': requestId });
      expect(corrected.status, corrected.text).toBe(201);
      expect(await basketsHolding(server, ids(payments))).toEqual([corrected.body.basketId]);
    });
  });
});
