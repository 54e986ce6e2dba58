/**
 * The authorisation sub-resources of SCA by redirect, as the TPP sees them:
 * - payment creation starts the authorisation implicitly (`_links.scaRedirect` and `scaStatus`);
 *   with TPP-Explicit-Authorisation-Preferred the 201 carries `startAuthorisation` instead;
 * - `POST …/authorisations` answers 201 startScaprocessResponse with Location and
 *   ASPSP-SCA-Approach REDIRECT, only while the payment is RCVD or PATC (else 409 STATUS_INVALID);
 *   `POST …/cancellation-authorisations` only while ACTC, PATC or ACCP (else 405 CANCELLATION_INVALID);
 * - `GET …/authorisations` lists the ids, `GET …/authorisations/{id}` the scaStatus and, once
 *   failed, psuMessage in the request's language; an unknown or another TPP's id is 404;
 * - a PSU-Corporate-ID other than the payment's is 401 CORPORATE_ID_INVALID;
 * - the scaStatus moves received → psuIdentified → scaMethodSelected → finalised (psuAuthenticated
 *   and started in between), each move audited as authorisation.sca-status-changed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
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
  type Body,
  type Psu,
  type Service,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import {
  createPayment,
  decide,
  enterCode,
  expectSeeOther,
  identify,
  idOfLink,
  NOK_URI,
  OK_URI,
  readScaStatus,
  scaMoves,
  scaStatusOf,
  startAuthorisation,
  walk,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXPLICIT = { 'tpp-explicit-authorisation-preferred': 'true' };

describe.each(DIALECTS)('SCA authorisation resources (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const bodyOf = (service: Service): Body =>
    service === 'payments' ? ndctBody(psu.account) : service === 'bulk-payments' ? bulkBody(psu.account) : periodicBody(psu.account);

  const create = (headers: Record<string, string> = {}, service: Service = 'payments', body: Body = bodyOf(service)) =>
    createPayment(server.client, service, NDCT, body, { ...psu.headers, ...headers });

  /** A payment the PSU has approved (ACTC). */
  async function approved(headers: Record<string, string> = {}) {
    const payment = await create(headers);
    await walk(payment.links['scaRedirect']!.href);
    expect((await server.client.get<any>(`${payment.path}/status`)).body.transactionStatus).toBe('ACTC');
    return payment;
  }

  describe('links at payment creation', () => {
    it.each(['payments', 'bulk-payments', 'periodic-payments'] as const)(
      '%s: the 201 starts the authorisation and links scaRedirect (/sca/{id}) and scaStatus, not startAuthorisation',
      async (service) => {
        const payment = await create({}, service);
        expectBerlinGroupSchema('paymentInitiationRequestResponse-201', payment.body);
        const authorisationId = idOfLink(payment.links['scaRedirect']!.href);
        expect(authorisationId).toMatch(UUID);
        const self = `${server.config.publicUrl}${payment.path}`;
        expect(payment.links).toEqual({
          scaRedirect: { href: `${server.config.publicUrl}/sca/${authorisationId}` },
          self: { href: self },
          status: { href: `${self}/status` },
          scaStatus: { href: `${self}/authorisations/${authorisationId}` },
        });
        const list = await server.client.get<any>(`${payment.path}/authorisations`);
        expect(list.status).toBe(200);
        expectBerlinGroupSchema('authorisations', list.body);
        expect(list.body).toEqual({ authorisationIds: [authorisationId] });
        const status = await readScaStatus(server.client, payment.links['scaStatus']!.href);
        expect(status.status).toBe(200);
        expectBerlinGroupSchema('scaStatusResponse', status.body);
        expect(status.body).toEqual({ scaStatus: 'received' });
      },
    );

    it.each(['payments', 'bulk-payments', 'periodic-payments'] as const)(
      '%s with TPP-Explicit-Authorisation-Preferred: true: the 201 links startAuthorisation only, and no authorisation exists yet',
      async (service) => {
        const payment = await create(EXPLICIT, service);
        expectBerlinGroupSchema('paymentInitiationRequestResponse-201', payment.body);
        const self = `${server.config.publicUrl}${payment.path}`;
        expect(payment.links).toEqual({
          self: { href: self },
          status: { href: `${self}/status` },
          startAuthorisation: { href: `${self}/authorisations` },
        });
        expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
      },
    );

    it('TPP-Explicit-Authorisation-Preferred: false starts the authorisation implicitly as without the header', async () => {
      const payment = await create({ 'tpp-explicit-authorisation-preferred': 'false' });
      expect(Object.keys(payment.links).sort()).toEqual(['scaRedirect', 'scaStatus', 'self', 'status']);
    });
  });

  describe('POST …/authorisations', () => {
    it.each(['payments', 'bulk-payments', 'periodic-payments'] as const)(
      '%s: 201 startScaprocessResponse (received, scaRedirect, scaStatus) with Location and ASPSP-SCA-Approach: REDIRECT',
      async (service) => {
        const payment = await create(EXPLICIT, service);
        const response = await server.client.post<any>(`${payment.path}/authorisations`, undefined);
        expect(response.status, response.text).toBe(201);
        expectBerlinGroupSchema('startScaprocessResponse', response.body);
        const authorisationId = response.body.authorisationId as string;
        expect(authorisationId).toMatch(UUID);
        const scaStatus = `${server.config.publicUrl}${payment.path}/authorisations/${authorisationId}`;
        expect(response.body).toEqual({
          scaStatus: 'received',
          authorisationId,
          _links: { scaRedirect: { href: `${server.config.publicUrl}/sca/${authorisationId}` }, scaStatus: { href: scaStatus } },
        });
        expect(response.headers.location).toBe(scaStatus);
        expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
        expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'received' });
      },
    );

    it('lists every authorisation of the payment, oldest first, and only its own', async () => {
      const payment = await create();
      const implicit = idOfLink(payment.links['scaRedirect']!.href);
      const first = await startAuthorisation(server.client, payment.path);
      const second = await startAuthorisation(server.client, payment.path);
      const other = await create();
      const list = await server.client.get<any>(`${payment.path}/authorisations`);
      expectBerlinGroupSchema('authorisations', list.body);
      expect(list.body).toEqual({ authorisationIds: [implicit, first.authorisationId, second.authorisationId] });
      expect((await server.client.get<any>(`${other.path}/authorisations`)).body.authorisationIds).toHaveLength(1);
      expect((await server.client.get<any>(`${payment.path}/cancellation-authorisations`)).body).toEqual({ authorisationIds: [] });
    });

    it('a payment that is no longer RCVD or PATC (ACTC, RJCT, CANC) refuses a new authorisation with 409 STATUS_INVALID', async () => {
      const accepted = await approved();
      const rejected = await create();
      await walkReject(rejected.links['scaRedirect']!.href);
      const cancelled = await create();
      expect((await server.client.delete<any>(cancelled.path)).status).toBe(204);
      for (const payment of [accepted, rejected, cancelled]) {
        const before = (await server.client.get<any>(`${payment.path}/authorisations`)).body.authorisationIds;
        const response = await server.client.post<any>(`${payment.path}/authorisations`, undefined);
        expectError(response, 409, 'STATUS_INVALID');
        expect((await server.client.get<any>(`${payment.path}/authorisations`)).body.authorisationIds).toEqual(before);
      }
    });

    it('PSU-Corporate-ID on a private payment is 401 CORPORATE_ID_INVALID and starts nothing', async () => {
      const payment = await create(EXPLICIT);
      const company = await corporation(server.client);
      const response = await server.client.post<any>(`${payment.path}/authorisations`, undefined, {
        headers: { 'psu-corporate-id': company.organisationNumber },
      });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
    });
  });

  describe('cancellation authorisations', () => {
    it('POST …/cancellation-authorisations of an ACTC payment: 201 with links under cancellation-authorisations', async () => {
      const payment = await approved();
      const response = await server.client.post<any>(`${payment.path}/cancellation-authorisations`, undefined);
      expect(response.status, response.text).toBe(201);
      expectBerlinGroupSchema('startScaprocessResponse', response.body);
      const authorisationId = response.body.authorisationId as string;
      const scaStatus = `${server.config.publicUrl}${payment.path}/cancellation-authorisations/${authorisationId}`;
      expect(response.body).toEqual({
        scaStatus: 'received',
        authorisationId,
        _links: { scaRedirect: { href: `${server.config.publicUrl}/sca/${authorisationId}` }, scaStatus: { href: scaStatus } },
      });
      expect(response.headers.location).toBe(scaStatus);
      expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
      const list = await server.client.get<any>(`${payment.path}/cancellation-authorisations`);
      expectBerlinGroupSchema('authorisations', list.body);
      expect(list.body).toEqual({ authorisationIds: [authorisationId] });
      const status = await readScaStatus(server.client, scaStatus);
      expectBerlinGroupSchema('scaStatusResponse', status.body);
      expect(status.body).toEqual({ scaStatus: 'received' });
      // A cancellation authorisation is not one of the payment's authorisations, and vice versa.
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body.authorisationIds).not.toContain(authorisationId);
      expect((await server.client.get<any>(`${payment.path}/authorisations/${authorisationId}`)).status).toBe(404);
    });

    it('a RCVD, PDNG or RJCT payment refuses a cancellation authorisation with 405 CANCELLATION_INVALID and Allow: GET, HEAD', async () => {
      const received = await create();
      const pending = await create({}, 'payments', ndctBody(psu.account, { requestedExecutionDate: osloDay(5) }));
      await walk(pending.links['scaRedirect']!.href);
      expect((await server.client.get<any>(`${pending.path}/status`)).body.transactionStatus).toBe('PDNG');
      const rejected = await create();
      await walkReject(rejected.links['scaRedirect']!.href);
      for (const payment of [received, pending, rejected]) {
        const response = await server.client.post<any>(`${payment.path}/cancellation-authorisations`, undefined);
        expectError(response, 405, 'CANCELLATION_INVALID');
        // The list of cancellation authorisations may still be read; the refused POST is not offered.
        expect(response.headers['allow']).toBe('GET, HEAD');
        expect((await server.client.get<any>(`${payment.path}/cancellation-authorisations`)).body).toEqual({ authorisationIds: [] });
      }
    });

    it('PSU-Corporate-ID on the cancellation of a private payment is 401 CORPORATE_ID_INVALID', async () => {
      const payment = await approved();
      const response = await server.client.post<any>(`${payment.path}/cancellation-authorisations`, undefined, {
        headers: { 'psu-corporate-id': anotherOrganisationNumber('') },
      });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      expect((await server.client.get<any>(`${payment.path}/cancellation-authorisations`)).body).toEqual({ authorisationIds: [] });
    });
  });

  describe('corporate payments and PSU-Corporate-ID', () => {
    it("a PSU-Corporate-ID other than the payment's is 401 CORPORATE_ID_INVALID; the payment's own is accepted", async () => {
      const company = await corporation(server.client);
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        ...company.registrar.headers,
        ...EXPLICIT,
      });
      const wrong = await server.client.post<any>(`${payment.path}/authorisations`, undefined, {
        headers: { 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber) },
      });
      expectError(wrong, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
      const right = await server.client.post<any>(`${payment.path}/authorisations`, undefined, {
        headers: { 'psu-corporate-id': company.organisationNumber },
      });
      expect(right.status, right.text).toBe(201);
    });
  });

  describe('unknown authorisations', () => {
    it('an unknown authorisation id is 404 RESOURCE_UNKNOWN at authorisationId, under both sub-resources', async () => {
      const payment = await create();
      for (const kind of ['authorisations', 'cancellation-authorisations']) {
        const response = await server.client.get<any>(`${payment.path}/${kind}/${randomUUID()}`);
        expectError(response, 404, 'RESOURCE_UNKNOWN', 'authorisationId');
      }
    });

    it("another payment's authorisation id is 404 under this payment", async () => {
      const payment = await create();
      const other = await create();
      const response = await server.client.get<any>(`${payment.path}/authorisations/${idOfLink(other.links['scaRedirect']!.href)}`);
      expectError(response, 404, 'RESOURCE_UNKNOWN', 'authorisationId');
    });

    it("another TPP's authorisation is 404 for it: neither the payment nor the id is visible", async () => {
      const payment = await create();
      const authorisationId = idOfLink(payment.links['scaRedirect']!.href);
      const other = await server.newTpp('PSDNO-FSA-918273645');
      const theirPsu = await privatePsu(other.client);
      const theirs = await createPayment(other.client, 'payments', NDCT, ndctBody(theirPsu.account), theirPsu.headers);
      expectError(
        await other.client.get<any>(`${theirs.path}/authorisations/${authorisationId}`),
        404,
        'RESOURCE_UNKNOWN',
        'authorisationId',
      );
      expectError(await other.client.get<any>(`${payment.path}/authorisations/${authorisationId}`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
      expectError(await other.client.get<any>(`${payment.path}/authorisations`), 404, 'RESOURCE_UNKNOWN', 'paymentId');
      expectError(await other.client.post<any>(`${payment.path}/authorisations`, undefined), 404, 'RESOURCE_UNKNOWN', 'paymentId');
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body.authorisationIds).toEqual([authorisationId]);
    });
  });

  describe('scaStatus along the pages', () => {
    it('moves received → psuIdentified → (wrong code: still psuIdentified) → scaMethodSelected → finalised', async () => {
      const payment = await create({ 'tpp-redirect-uri': OK_URI });
      const link = payment.links['scaRedirect']!.href;
      const href = payment.links['scaStatus']!.href;
      const read = async () => {
        const response = await readScaStatus(server.client, href);
        expect(response.status).toBe(200);
        expectBerlinGroupSchema('scaStatusResponse', response.body);
        return response.body;
      };
      expect(await read()).toEqual({ scaStatus: 'received' });
      expectSeeOther(await identify(link, psu.customerNumber));
      expect(await read()).toEqual({ scaStatus: 'psuIdentified' });
      expect((await enterCode(link, '000000')).status).toBe(400);
      expect(await read()).toEqual({ scaStatus: 'psuIdentified' });
      expectSeeOther(await enterCode(link));
      expect(await read()).toEqual({ scaStatus: 'scaMethodSelected' });
      expect(expectSeeOther(await decide(link, 'approve'))).toBe(OK_URI);
      expect(await read()).toEqual({ scaStatus: 'finalised' });
    });

    it('writes every move as an authorisation.sca-status-changed audit event by the PSU', async () => {
      const payment = await create();
      const id = idOfLink(payment.links['scaRedirect']!.href);
      expect(await scaMoves(server, id)).toEqual([]);
      await walk(payment.links['scaRedirect']!.href);
      const by = { actorType: 'psu', actorId: psu.customerNumber };
      expect(await scaMoves(server, id)).toEqual([
        { from: 'received', to: 'psuIdentified', ...by },
        { from: 'psuIdentified', to: 'psuAuthenticated', ...by },
        { from: 'psuAuthenticated', to: 'scaMethodSelected', ...by },
        { from: 'scaMethodSelected', to: 'started', ...by },
        { from: 'started', to: 'finalised', ...by },
      ]);
      const events = await server.database.db
        .selectFrom('audit_event')
        .select(['details'])
        .where('resource_type', '=', 'authorisation')
        .where('resource_id', '=', id)
        .execute();
      for (const event of events) {
        expect(JSON.parse(event.details)).toMatchObject({ purpose: 'payment', resourceId: payment.paymentId });
      }
    });

    it('a failure is audited as a move to failed with its reason, and read back as psuMessage in English or Norwegian', async () => {
      const payment = await create();
      const id = idOfLink(payment.links['scaRedirect']!.href);
      await walkReject(payment.links['scaRedirect']!.href);
      const moves = await scaMoves(server, id);
      expect(moves.map((move) => `${move.from}→${move.to}`)).toEqual([
        'received→psuIdentified',
        'psuIdentified→psuAuthenticated',
        'psuAuthenticated→scaMethodSelected',
        'scaMethodSelected→failed',
      ]);
      expect(moves.at(-1)?.reason).toContain('The customer rejected it');
      const href = payment.links['scaStatus']!.href;
      const english = await readScaStatus(server.client, href, 'en');
      expectBerlinGroupSchema('scaStatusResponse', english.body);
      expect(english.body).toEqual({ scaStatus: 'failed', psuMessage: 'The customer rejected it' });
      expect((await readScaStatus(server.client, href, 'nb')).body).toEqual({ scaStatus: 'failed', psuMessage: 'Kunden avviste den' });
      expect((await readScaStatus(server.client, href, 'nb-NO,nb;q=0.9,en;q=0.5')).body.psuMessage).toBe('Kunden avviste den');
    });

    it('a cancellation authorisation moves and is audited the same way, with purpose payment-cancellation', async () => {
      const payment = await approved();
      const cancellation = await startAuthorisation(server.client, payment.path, {}, 'cancellation-authorisations');
      await walk(cancellation.scaRedirect, { psuId: psu.customerNumber });
      expect(await scaStatusOf(server.client, cancellation.scaStatus)).toEqual({ scaStatus: 'finalised' });
      const moves = await scaMoves(server, cancellation.authorisationId);
      expect(moves.map((move) => move.to)).toEqual(['psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'started', 'finalised']);
      const event = await server.database.db
        .selectFrom('audit_event')
        .select('details')
        .where('resource_id', '=', cancellation.authorisationId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(event.details)).toMatchObject({ purpose: 'payment-cancellation', resourceId: payment.paymentId });
    });

    it('redirect URIs of the POST authorisations request replace those of the payment request', async () => {
      const payment = await create({
        ...EXPLICIT,
        'tpp-redirect-uri': 'https://old.example/ok',
        'tpp-nok-redirect-uri': 'https://old.example/nok',
      });
      const started = await startAuthorisation(server.client, payment.path, {
        'tpp-redirect-uri': OK_URI,
        'tpp-nok-redirect-uri': NOK_URI,
      });
      expect((await walk(started.scaRedirect, { psuId: psu.customerNumber })).redirectedTo).toBe(OK_URI);
      const again = await create({
        ...EXPLICIT,
        'tpp-redirect-uri': 'https://old.example/ok',
        'tpp-nok-redirect-uri': 'https://old.example/nok',
      });
      const fallback = await startAuthorisation(server.client, again.path);
      expect((await walk(fallback.scaRedirect, { psuId: psu.customerNumber, decision: 'reject' })).redirectedTo).toBe(
        'https://old.example/nok',
      );
    });
  });

  /** The PSU identifies (as prefilled), enters the code and rejects; answers the decision's 303. */
  async function walkReject(link: string) {
    expectSeeOther(await identify(link, psu.customerNumber));
    expectSeeOther(await enterCode(link));
    return decide(link, 'reject');
  }
});
