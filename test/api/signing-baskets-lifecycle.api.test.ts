/**
 * A signing basket after its creation, through the real server with signed requests:
 * - GET /v1/signing-baskets/{id}: the payment ids in the TPP's order, transactionStatus, and _links
 *   self, status and (while a payment waits for approval and the basket is not deleted)
 *   startAuthorisation; GET …/status: {transactionStatus}; another TPP's or an unknown basket is 404;
 * - POST …/authorisations: 201 startScaprocessResponse with Location and ASPSP-SCA-Approach;
 *   409 REFERENCE_STATUS_INVALID once deleted or when no payment waits; GET …/authorisations lists
 *   the ids; GET …/authorisations/{id} answers scaStatus (psuMessage when failed), 404 for an
 *   authorisation not of this basket;
 * - a payment in an open basket cannot be authorised alone (409 REFERENCE_STATUS_INVALID);
 * - one approval moves each payment by its own rules (ACTC, PDNG when due later) and the basket
 *   shows the worst case (past ACTC counts ACTC); a rejection or three wrong codes reject every
 *   payment ("SCA failed: …") and the basket; a payment the TPP cancelled first stays CANC and the
 *   basket is RJCT; corporate dual control: PATC after the first approver, ACTC after a second, and
 *   the same approver twice fails that authorisation and leaves PATC;
 * - DELETE before any approval: 204 (again 204), the basket reads CANC, its open authorisation
 *   fails ("The TPP deleted the signing basket"), the payments stay RCVD and are free again (alone
 *   or in another basket); after an approval: 409 REFERENCE_STATUS_INVALID and nothing changes;
 * - a basket's link expires like a payment's (XS2A_SCA_EXPIRY_SECONDS): the basket and each payment RJCT.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { fundedPsu } from '../support/execution.js';
import {
  basketStatusOf,
  basketView,
  createBasket,
  deleteBasket,
  EXPLICIT,
  explicitPayment,
  postBasket,
  startBasketAuthorisation,
  storedBasketOf,
  type CreatedBasket,
} from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import {
  crossBorderBody,
  expectError,
  INDCTS,
  NCBCT,
  NDCT,
  ndctBody,
  privatePsu,
  sctBody,
  SCT,
  type Body,
  type Psu,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import {
  alertOf,
  CLOCK_ENV,
  continueHrefOf,
  createPayment,
  dualControlCorporation,
  idOfLink,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  scaStatusOf,
  startAuthorisation,
  storedPaymentStatus,
  testClock,
  walk,
  type CreatedPayment,
  type DualControl,
  type TestClock,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
const REJECTED = 'The customer rejected it';
const WRONG_CODES = 'The one-time code was wrong 3 times';
const ALREADY = 'You have already approved this payment; another approver must approve it too';
const DELETED = 'The TPP deleted the signing basket';
const EXPIRED = 'The link expired before the approval was finished';

const ids = (payments: readonly CreatedPayment[]) => payments.map((payment) => payment.paymentId);

/** An error answer of the basket API: status, wire code, path, and the Berlin Group signing-basket error schema. */
function expectBasketError(response: TppResponse<any>, status: number, code: string, path?: string): void {
  expectError(response, status, code, path);
  expectBerlinGroupSchema(`Error${status}_NG_SBS`, response.body);
}

describe.each(DIALECTS)('signing basket reads and authorisations (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const payment = (extra: Body = {}) => explicitPayment(server.client, NDCT, ndctBody(psu.account, extra), psu.headers);
  const payments = async (count: number) => {
    const made: CreatedPayment[] = [];
    for (let i = 0; i < count; i++) made.push(await payment());
    return made;
  };

  describe('GET', () => {
    it('the basket: payment ids in the order the TPP listed them, RCVD, and links self, status and startAuthorisation', async () => {
      const [first, second, third] = await payments(3);
      const order = [third!.paymentId, first!.paymentId, second!.paymentId];
      const basket = await createBasket(server.client, order, psu.headers);
      const response = await server.client.get<any>(basket.path);
      expect(response.status, response.text).toBe(200);
      expectBerlinGroupSchema('signingBasketResponse-200', response.body);
      const self = `${server.config.publicUrl}${basket.path}`;
      expect(response.body).toEqual({
        payments: order,
        transactionStatus: 'RCVD',
        _links: { self: { href: self }, status: { href: `${self}/status` }, startAuthorisation: { href: `${self}/authorisations` } },
      });
    });

    it('the status: {transactionStatus}', async () => {
      const basket = await createBasket(server.client, ids(await payments(1)), psu.headers);
      const response = await server.client.get<any>(`${basket.path}/status`);
      expect(response.status, response.text).toBe(200);
      expectBerlinGroupSchema('signingBasketStatusResponse-200', response.body);
      expect(response.body).toEqual({ transactionStatus: 'RCVD' });
    });

    it('an unknown basket is 404 RESOURCE_UNKNOWN on every basket operation', async () => {
      const path = `/v1/signing-baskets/${randomUUID()}`;
      expectBasketError(await server.client.get<any>(path), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await server.client.get<any>(`${path}/status`), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await deleteBasket(server.client, path), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await server.client.post<any>(`${path}/authorisations`, undefined), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await server.client.get<any>(`${path}/authorisations`), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await server.client.get<any>(`${path}/authorisations/${randomUUID()}`), 404, 'RESOURCE_UNKNOWN', 'basketId');
    });

    it("another TPP's basket is 404 RESOURCE_UNKNOWN on every basket operation, and stays as it was", async () => {
      const made = await payments(1);
      const basket = await createBasket(server.client, ids(made), psu.headers);
      const authorisationId = idOfLink(basket.links['scaRedirect']!.href);
      const other = (await server.newTpp('PSDNO-FSA-987654321')).client;
      expectBasketError(await other.get<any>(basket.path), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await other.get<any>(`${basket.path}/status`), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await deleteBasket(other, basket.path), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await other.post<any>(`${basket.path}/authorisations`, undefined), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await other.get<any>(`${basket.path}/authorisations`), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expectBasketError(await other.get<any>(`${basket.path}/authorisations/${authorisationId}`), 404, 'RESOURCE_UNKNOWN', 'basketId');
      expect(await basketView(server.client, basket.path)).toMatchObject({ transactionStatus: 'RCVD', payments: ids(made) });
      expect((await server.client.get<any>(`${basket.path}/authorisations`)).body).toEqual({ authorisationIds: [authorisationId] });
    });
  });

  describe('authorisations', () => {
    it('POST …/authorisations on an explicit basket: 201 startScaprocessResponse with Location; listed; its scaStatus; its link approves', async () => {
      const made = await payments(2);
      const basket = await createBasket(server.client, ids(made), { ...psu.headers, ...EXPLICIT, ...URIS });
      const response = await server.client.post<any>(`${basket.path}/authorisations`, undefined);
      expect(response.status, response.text).toBe(201);
      expectBerlinGroupSchema('startScaprocessResponse', response.body);
      const authorisationId = response.body.authorisationId as string;
      const scaStatus = `${server.config.publicUrl}${basket.path}/authorisations/${authorisationId}`;
      expect(response.body).toEqual({
        scaStatus: 'received',
        authorisationId,
        _links: { scaRedirect: { href: `${server.config.publicUrl}/sca/${authorisationId}` }, scaStatus: { href: scaStatus } },
      });
      expect(response.headers['location']).toBe(scaStatus);
      expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');

      const list = await server.client.get<any>(`${basket.path}/authorisations`);
      expect(list.status, list.text).toBe(200);
      expectBerlinGroupSchema('authorisations', list.body);
      expect(list.body).toEqual({ authorisationIds: [authorisationId] });
      const status = await server.client.get<any>(`${basket.path}/authorisations/${authorisationId}`);
      expect(status.status, status.text).toBe(200);
      expectBerlinGroupSchema('scaStatusResponse', status.body);
      expect(status.body).toEqual({ scaStatus: 'received' });

      expect((await walk(response.body._links.scaRedirect.href as string)).redirectedTo).toBe(OK_URI);
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'finalised' });
      for (const created of made) expect(await paymentStatusOf(server.client, created.path)).toEqual({ transactionStatus: 'ACTC' });
      expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
    });

    it('the implicit authorisation of a basket is listed, and its scaStatus link answers', async () => {
      const basket = await createBasket(server.client, ids(await payments(1)), psu.headers);
      const authorisationId = idOfLink(basket.links['scaRedirect']!.href);
      expect((await server.client.get<any>(`${basket.path}/authorisations`)).body).toEqual({ authorisationIds: [authorisationId] });
      expect(basket.links['scaStatus']!.href).toBe(`${server.config.publicUrl}${basket.path}/authorisations/${authorisationId}`);
      expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'received' });
    });

    it("an authorisation id not of this basket (unknown, another basket's, a payment's) is 404 RESOURCE_UNKNOWN", async () => {
      const basket = await createBasket(server.client, ids(await payments(1)), psu.headers);
      const other = await createBasket(server.client, ids(await payments(1)), psu.headers);
      const own = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      for (const id of [randomUUID(), idOfLink(other.links['scaRedirect']!.href), idOfLink(own.links['scaRedirect']!.href)]) {
        expectBasketError(await server.client.get<any>(`${basket.path}/authorisations/${id}`), 404, 'RESOURCE_UNKNOWN', 'authorisationId');
      }
    });

    it('POST …/authorisations when no payment waits for approval any more (all ACTC, or all RJCT) is 409 REFERENCE_STATUS_INVALID', async () => {
      const approved = await createBasket(server.client, ids(await payments(2)), psu.headers);
      await walk(approved.links['scaRedirect']!.href);
      expect(await basketStatusOf(server.client, approved.path)).toBe('ACTC');
      expect((await basketView(server.client, approved.path))._links['startAuthorisation']).toBeUndefined();
      expectBasketError(await server.client.post<any>(`${approved.path}/authorisations`, undefined), 409, 'REFERENCE_STATUS_INVALID');

      const rejected = await createBasket(server.client, ids(await payments(2)), psu.headers);
      await walk(rejected.links['scaRedirect']!.href, { decision: 'reject' });
      expect(await basketStatusOf(server.client, rejected.path)).toBe('RJCT');
      expect((await basketView(server.client, rejected.path))._links['startAuthorisation']).toBeUndefined();
      expectBasketError(await server.client.post<any>(`${rejected.path}/authorisations`, undefined), 409, 'REFERENCE_STATUS_INVALID');
      expect((await server.client.get<any>(`${rejected.path}/authorisations`)).body.authorisationIds).toHaveLength(1);
    });

    it('a payment in an open basket cannot be authorised alone: POST {payment}/authorisations is 409 REFERENCE_STATUS_INVALID', async () => {
      const [held] = await payments(1);
      const basket = await createBasket(server.client, [held!.paymentId], psu.headers);
      const response = await server.client.post<any>(`${held!.path}/authorisations`, undefined, { headers: psu.headers });
      expectError(response, 409, 'REFERENCE_STATUS_INVALID');
      expect(response.body.message ?? response.body.tppMessages[0].text).toContain(basket.basketId);
      expect((await server.client.get<any>(`${held!.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
      expect(await paymentStatusOf(server.client, held!.path)).toEqual({ transactionStatus: 'RCVD' });
    });
  });
});

describe.each(DIALECTS)('what the approval of a signing basket does (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let dual: DualControl;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    // Funded: an instant payment in a basket settles at approval, and only with the money there.
    psu = await fundedPsu(server.client, '100000.00');
    dual = await dualControlCorporation(server.client, '0', 3);
  });
  afterAll(() => server.close());

  const payment = (body: Body = ndctBody(psu.account), product: string = NDCT) =>
    explicitPayment(server.client, product, body, psu.headers);
  const statusOf = async (created: CreatedPayment) => paymentStatusOf(server.client, created.path);

  it('one approval: each payment by its own rules (ACTC; PDNG when due later), and the basket ACTC (past ACTC counts ACTC)', async () => {
    const today = await payment();
    const later = await payment(ndctBody(psu.account, { requestedExecutionDate: osloDay(3) }));
    const instant = await payment(ndctBody(psu.account), INDCTS);
    const abroad = await payment(crossBorderBody(psu.account), NCBCT);
    const sepa = await payment(sctBody(psu.account), SCT);
    const all = [today, later, instant, abroad, sepa];
    const basket = await createBasket(server.client, ids(all), { ...psu.headers, ...URIS });
    const page = await openPage(basket.links['scaRedirect']!.href);
    expect(page.status).toBe(200);
    const journey = await walk(basket.links['scaRedirect']!.href);
    expect(journey.redirectedTo).toBe(OK_URI);
    expect(await statusOf(later)).toEqual({ transactionStatus: 'PDNG' });
    for (const created of [today, abroad, sepa]) expect(await statusOf(created)).toEqual({ transactionStatus: 'ACTC' });
    expect(await statusOf(instant)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
    expect(await basketView(server.client, basket.path)).toMatchObject({ payments: ids(all), transactionStatus: 'ACTC' });
  });

  it('the basket is PDNG-only: every payment due later is PDNG and the basket ACTC', async () => {
    const all = [
      await payment(ndctBody(psu.account, { requestedExecutionDate: osloDay(3) })),
      await payment(ndctBody(psu.account, { requestedExecutionDate: osloDay(3) })),
    ];
    const basket = await createBasket(server.client, ids(all), psu.headers);
    await walk(basket.links['scaRedirect']!.href);
    for (const created of all) expect(await statusOf(created)).toEqual({ transactionStatus: 'PDNG' });
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
  });

  it("the PSU rejects: every payment RJCT with psuMessage 'SCA failed: …', the basket RJCT, the authorisation failed", async () => {
    const all = [await payment(), await payment()];
    const basket = await createBasket(server.client, ids(all), { ...psu.headers, ...URIS });
    expect((await walk(basket.links['scaRedirect']!.href, { decision: 'reject' })).redirectedTo).toBe(NOK_URI);
    for (const created of all) {
      expect(await statusOf(created)).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${REJECTED}` });
    }
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: REJECTED });
  });

  it('three wrong codes: every payment RJCT, the basket RJCT', async () => {
    const all = [await payment(), await payment()];
    const basket = await createBasket(server.client, ids(all), psu.headers);
    const journey = await walk(basket.links['scaRedirect']!.href, { codes: ['000000'] });
    expect(journey.steps).toEqual(['identify', 'code', 'code', 'code']);
    for (const created of all) {
      expect(await statusOf(created)).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${WRONG_CODES}` });
    }
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: WRONG_CODES });
  });

  it('a payment the TPP cancelled before the approval stays CANC; the others are ACTC; the basket RJCT', async () => {
    const [kept, cancelled, other] = [await payment(), await payment(), await payment()];
    const basket = await createBasket(server.client, ids([kept, cancelled, other]), psu.headers);
    expect((await server.client.delete<any>(cancelled.path)).status).toBe(204);
    const journey = await walk(basket.links['scaRedirect']!.href);
    expect(journey.lastPage).toContain('You have approved 2 of 3 payments.');
    expect(await statusOf(kept)).toEqual({ transactionStatus: 'ACTC' });
    expect(await statusOf(other)).toEqual({ transactionStatus: 'ACTC' });
    expect(await statusOf(cancelled)).toEqual({
      transactionStatus: 'CANC',
      psuMessage: 'Cancelled by the TPP before the PSU approved it',
    });
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
  });

  it('corporate dual control: PATC after the first approver; the same approver again fails and leaves PATC; a second approver makes ACTC', async () => {
    const [first, second, third] = dual.approvers;
    const all = [
      await explicitPayment(server.client, NDCT, ndctBody(dual.account), first!.headers),
      await explicitPayment(server.client, NDCT, ndctBody(dual.account), first!.headers),
    ];
    const basket = await createBasket(server.client, ids(all), { ...first!.headers, ...URIS });
    expect((await walk(basket.links['scaRedirect']!.href)).redirectedTo).toBe(OK_URI);
    for (const created of all) expect(await statusOf(created)).toEqual({ transactionStatus: 'PATC' });
    expect(await basketStatusOf(server.client, basket.path)).toBe('PATC');
    expect((await basketView(server.client, basket.path))._links['startAuthorisation']).toBeDefined();

    const again = await startBasketAuthorisation(server.client, basket.path, { 'psu-id': first!.customerNumber });
    const againJourney = await walk(again.scaRedirect);
    expect(againJourney.redirectedTo).toBeUndefined();
    expect(alertOf(againJourney.lastPage)).toBe(ALREADY);
    expect(await scaStatusOf(server.client, again.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: ALREADY });
    for (const created of all) expect(await statusOf(created)).toEqual({ transactionStatus: 'PATC' });
    expect(await basketStatusOf(server.client, basket.path)).toBe('PATC');

    const next = await startBasketAuthorisation(server.client, basket.path, { 'psu-id': second!.customerNumber });
    expect((await walk(next.scaRedirect)).redirectedTo).toBe(OK_URI);
    expect(await scaStatusOf(server.client, next.scaStatus)).toEqual({ scaStatus: 'finalised' });
    for (const created of all) expect(await statusOf(created)).toEqual({ transactionStatus: 'ACTC' });
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
    expect((await server.client.get<any>(`${basket.path}/authorisations`)).body).toEqual({
      authorisationIds: [idOfLink(basket.links['scaRedirect']!.href), again.authorisationId, next.authorisationId],
    });
    // Nothing waits any more: a third approver gets no authorisation.
    expectBasketError(
      await server.client.post<any>(`${basket.path}/authorisations`, undefined, { headers: { 'psu-id': third!.customerNumber } }),
      409,
      'REFERENCE_STATUS_INVALID',
    );
  });

  it('corporate dual control on an explicit basket: the TPP starts both approvers’ authorisations (PATC, then ACTC)', async () => {
    const [first, second] = dual.approvers;
    const all = [await explicitPayment(server.client, NDCT, ndctBody(dual.account), first!.headers)];
    const basket = await createBasket(server.client, ids(all), { ...first!.headers, ...EXPLICIT });
    await walk((await startBasketAuthorisation(server.client, basket.path)).scaRedirect);
    expect(await basketStatusOf(server.client, basket.path)).toBe('PATC');
    await walk((await startBasketAuthorisation(server.client, basket.path, { 'psu-id': second!.customerNumber })).scaRedirect);
    expect(await statusOf(all[0]!)).toEqual({ transactionStatus: 'ACTC' });
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
  });
});

describe.each(DIALECTS)('DELETE of a signing basket (%s)', (dialect) => {
  // A server per test: a DELETE that never answers (see deleteBasket) spoils only its own test.
  let server: TestServer;
  let psu: Psu;
  beforeEach(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterEach(async () => {
    // A request left hanging must not keep the server from closing.
    server.app.server.closeAllConnections();
    await server.close();
  });

  const payment = () => explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);

  async function basketOf(
    count: number,
    headers: Record<string, string> = {},
  ): Promise<{ basket: CreatedBasket; payments: CreatedPayment[] }> {
    const made: CreatedPayment[] = [];
    for (let i = 0; i < count; i++) made.push(await payment());
    return { basket: await createBasket(server.client, ids(made), { ...psu.headers, ...URIS, ...headers }), payments: made };
  }

  it("before any approval: 204; the basket reads CANC; its authorisation failed ('The TPP deleted the signing basket'); the payments stay RCVD and free", async () => {
    const { basket, payments } = await basketOf(2);
    const deleted = await deleteBasket(server.client, basket.path);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await basketStatusOf(server.client, basket.path)).toBe('CANC');
    const self = `${server.config.publicUrl}${basket.path}`;
    expect(await basketView(server.client, basket.path)).toEqual({
      payments: ids(payments),
      transactionStatus: 'CANC',
      _links: { self: { href: self }, status: { href: `${self}/status` } },
    });
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: DELETED });
    for (const created of payments) {
      expect(await paymentStatusOf(server.client, created.path)).toEqual({ transactionStatus: 'RCVD' });
      expect(await storedBasketOf(server, created.paymentId)).toBeNull();
    }
    const row = await server.database.db
      .selectFrom('signing_basket')
      .select('deleted_at')
      .where('id', '=', basket.basketId)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('a second DELETE is 204 again and changes nothing', async () => {
    const { basket, payments } = await basketOf(1);
    expect((await deleteBasket(server.client, basket.path)).status).toBe(204);
    const again = await deleteBasket(server.client, basket.path);
    expect(again.status, again.text).toBe(204);
    expect(await basketStatusOf(server.client, basket.path)).toBe('CANC');
    expect(await paymentStatusOf(server.client, payments[0]!.path)).toEqual({ transactionStatus: 'RCVD' });
  });

  it('after the DELETE a payment can be authorised alone (POST {payment}/authorisations 201) and approved', async () => {
    const { basket, payments } = await basketOf(2);
    expect((await deleteBasket(server.client, basket.path)).status).toBe(204);
    const started = await startAuthorisation(server.client, payments[0]!.path);
    await walk(started.scaRedirect);
    expect(await paymentStatusOf(server.client, payments[0]!.path)).toEqual({ transactionStatus: 'ACTC' });
    expect(await paymentStatusOf(server.client, payments[1]!.path)).toEqual({ transactionStatus: 'RCVD' });
    // The deleted basket stays CANC whatever its former payments do.
    expect(await basketStatusOf(server.client, basket.path)).toBe('CANC');
  });

  it('after the DELETE the payments can be put in another basket, which approves them', async () => {
    const { basket, payments } = await basketOf(2);
    expect((await deleteBasket(server.client, basket.path)).status).toBe(204);
    const next = await createBasket(server.client, ids(payments), psu.headers);
    await walk(next.links['scaRedirect']!.href);
    for (const created of payments) expect(await paymentStatusOf(server.client, created.path)).toEqual({ transactionStatus: 'ACTC' });
    expect(await basketStatusOf(server.client, next.path)).toBe('ACTC');
    expect(await basketStatusOf(server.client, basket.path)).toBe('CANC');
  });

  it('after the DELETE: POST …/authorisations is 409 REFERENCE_STATUS_INVALID, and the old link shows the deletion and approves nothing', async () => {
    const { basket, payments } = await basketOf(1);
    expect((await deleteBasket(server.client, basket.path)).status).toBe(204);
    expectBasketError(await server.client.post<any>(`${basket.path}/authorisations`, undefined), 409, 'REFERENCE_STATUS_INVALID');
    const page = await openPage(basket.links['scaRedirect']!.href);
    expect(alertOf(page.text)).toBe(DELETED);
    expect(continueHrefOf(page.text)).toBe(NOK_URI);
    expect(await paymentStatusOf(server.client, payments[0]!.path)).toEqual({ transactionStatus: 'RCVD' });
  });

  it('after an approval: 409 REFERENCE_STATUS_INVALID and nothing changes', async () => {
    const { basket, payments } = await basketOf(2);
    await walk(basket.links['scaRedirect']!.href);
    expectBasketError(await deleteBasket(server.client, basket.path), 409, 'REFERENCE_STATUS_INVALID');
    expect(await basketView(server.client, basket.path)).toMatchObject({ transactionStatus: 'ACTC', payments: ids(payments) });
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
    for (const created of payments) {
      expect(await paymentStatusOf(server.client, created.path)).toEqual({ transactionStatus: 'ACTC' });
      expect(await storedBasketOf(server, created.paymentId)).toBe(basket.basketId);
    }
    const row = await server.database.db
      .selectFrom('signing_basket')
      .select('deleted_at')
      .where('id', '=', basket.basketId)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });

  it('after a first approval of dual control (PATC): 409 REFERENCE_STATUS_INVALID; the second approver can still complete it', async () => {
    const dual = await dualControlCorporation(server.client, '0', 2);
    const [first, second] = dual.approvers;
    const all = [await explicitPayment(server.client, NDCT, ndctBody(dual.account), first!.headers)];
    const basket = await createBasket(server.client, ids(all), first!.headers);
    await walk(basket.links['scaRedirect']!.href);
    expect(await basketStatusOf(server.client, basket.path)).toBe('PATC');
    expectBasketError(await deleteBasket(server.client, basket.path), 409, 'REFERENCE_STATUS_INVALID');
    expect(await basketStatusOf(server.client, basket.path)).toBe('PATC');
    expect(await storedBasketOf(server, all[0]!.paymentId)).toBe(basket.basketId);
    await walk((await startBasketAuthorisation(server.client, basket.path, { 'psu-id': second!.customerNumber })).scaRedirect);
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
  });
});

describe.each(DIALECTS)('expiry of a signing basket link (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  let psu: Psu;
  beforeAll(async () => {
    clock = testClock();
    server = await startTestServer({ dialect, now: clock.now, env: { ...CLOCK_ENV, XS2A_SCA_EXPIRY_SECONDS: '60' } });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function basketOf(count: number, headers: Record<string, string> = {}) {
    const made: CreatedPayment[] = [];
    for (let i = 0; i < count; i++) made.push(await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers));
    return { basket: await createBasket(server.client, ids(made), { ...psu.headers, ...URIS, ...headers }), payments: made };
  }

  it('59 s after the link was handed out nothing has expired; after 61 s the basket status read shows RJCT and each payment RJCT', async () => {
    const { basket, payments } = await basketOf(2);
    clock.advance(59);
    expect(await basketStatusOf(server.client, basket.path)).toBe('RCVD');
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'received' });
    clock.advance(2);
    for (const created of payments) expect(await storedPaymentStatus(server, created.paymentId)).toBe('RCVD');
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
    for (const created of payments) {
      expect(await storedPaymentStatus(server, created.paymentId)).toBe('RJCT');
      expect(await paymentStatusOf(server.client, created.path)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: `SCA failed: ${EXPIRED}`,
      });
    }
    expect(await scaStatusOf(server.client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
    expect((await basketView(server.client, basket.path))._links['startAuthorisation']).toBeUndefined();
  });

  it('reading one payment of the basket after expiry answers RJCT too', async () => {
    const { basket, payments } = await basketOf(2);
    clock.advance(61);
    expect(await paymentStatusOf(server.client, payments[0]!.path)).toEqual({
      transactionStatus: 'RJCT',
      psuMessage: `SCA failed: ${EXPIRED}`,
    });
    expect(await storedPaymentStatus(server, payments[1]!.paymentId)).toBe('RJCT');
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
  });

  it('opening the expired link shows the expiry with the way back; the payments are RJCT', async () => {
    const { basket, payments } = await basketOf(1);
    clock.advance(61);
    const page = await openPage(basket.links['scaRedirect']!.href);
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe(EXPIRED);
    expect(continueHrefOf(page.text)).toBe(NOK_URI);
    expect(await storedPaymentStatus(server, payments[0]!.paymentId)).toBe('RJCT');
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
  });

  it('an explicit basket has no link to expire; an authorisation started later expires 60 s after its start', async () => {
    const { basket, payments } = await basketOf(1, EXPLICIT);
    clock.advance(120);
    expect(await basketStatusOf(server.client, basket.path)).toBe('RCVD');
    const started = await startBasketAuthorisation(server.client, basket.path);
    clock.advance(59);
    expect(await basketStatusOf(server.client, basket.path)).toBe('RCVD');
    clock.advance(2);
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
    expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
    expect(await paymentStatusOf(server.client, payments[0]!.path)).toEqual({
      transactionStatus: 'RJCT',
      psuMessage: `SCA failed: ${EXPIRED}`,
    });
  });

  it('a payment whose own link expired is rejected before it is judged: the basket is 409 REFERENCE_STATUS_INVALID', async () => {
    const implicit = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const fresh = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    clock.advance(61);
    expect(await storedPaymentStatus(server, implicit.paymentId)).toBe('RCVD');
    const response = await postBasket(server.client, { paymentIds: [fresh.paymentId, implicit.paymentId] }, psu.headers);
    expectBasketError(response, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
    expect(await paymentStatusOf(server.client, implicit.path)).toEqual({
      transactionStatus: 'RJCT',
      psuMessage: `SCA failed: ${EXPIRED}`,
    });
    expect(await storedBasketOf(server, fresh.paymentId)).toBeNull();
    await createBasket(server.client, [fresh.paymentId], psu.headers);
  });
});
