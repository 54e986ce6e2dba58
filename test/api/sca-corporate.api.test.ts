/**
 * SCA of corporate payments: PSU-Corporate-ID names the agreement; a PSU whose
 * engagement has REGISTER may approve. With an approvalLimit below the amount, several approvers
 * are needed: the 201 links startAuthorisation (no implicit start), the first approval leaves the
 * payment PATC, and another engaged approver's authorisation completes it (ACTC, PDNG when due
 * later); the same approver twice fails that authorisation but leaves the payment PATC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { anotherOrganisationNumber, corporation, expectError, NDCT, ndctBody, type Corporation, type Psu } from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import {
  alertOf,
  createPayment,
  dualControlCorporation,
  identify,
  idOfLink,
  inputOf,
  maskedPsuId,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  scaStatusOf,
  startAuthorisation,
  walk,
  type DualControl,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
const ALREADY = 'You have already approved this payment; another approver must approve it too';

describe.each(DIALECTS)('SCA of corporate payments (%s)', (dialect) => {
  let server: TestServer;
  let company: Corporation;
  let dual: DualControl;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    company = await corporation(server.client, '100000.00');
    dual = await dualControlCorporation(server.client, '0');
  });
  afterAll(() => server.close());

  const statusOf = async (path: string) => (await paymentStatusOf(server.client, path)).transactionStatus;

  describe('one approver', () => {
    it('a registrar without approval limit approves alone: implicit start, ACTC', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        ...company.registrar.headers,
        ...URIS,
      });
      expect(Object.keys(payment.links).sort()).toEqual(['scaRedirect', 'scaStatus', 'self', 'status']);
      expect((await walk(payment.links['scaRedirect']!.href)).redirectedTo).toBe(OK_URI);
      expect(await statusOf(payment.path)).toBe('ACTC');
    });

    it('an amount within the approval limit needs one approver: implicit start, ACTC', async () => {
      const limited = await dualControlCorporation(server.client, '1000.00', 1);
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(limited.account), limited.approvers[0]!.headers);
      expect(payment.links['scaRedirect']).toBeDefined();
      expect(payment.links['startAuthorisation']).toBeUndefined();
      await walk(payment.links['scaRedirect']!.href);
      expect(await statusOf(payment.path)).toBe('ACTC');
    });

    it('a PSU engaged only with VIEW cannot approve: the authorisation fails and the payment is RJCT', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        ...company.registrar.headers,
        'tpp-explicit-authorisation-preferred': 'true',
      });
      const started = await startAuthorisation(server.client, payment.path, { 'psu-id': company.viewer.customerNumber });
      const journey = await walk(started.scaRedirect);
      expect(alertOf(journey.lastPage)).toBe('You may not approve payments from this account');
      expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({
        scaStatus: 'failed',
        psuMessage: 'You may not approve payments from this account',
      });
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: You may not approve payments from this account',
      });
    });

    it('an authorisation started without PSU-ID on a RCVD payment still expects the PSU named at creation', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        ...company.registrar.headers,
        'tpp-explicit-authorisation-preferred': 'true',
      });
      const started = await startAuthorisation(server.client, payment.path);
      const page = (await openPage(started.scaRedirect)).text;
      expect(inputOf(page, 'psuId')).toContain(`value="${maskedPsuId(company.registrar.customerNumber)}"`);
      expect(page).not.toContain(company.registrar.customerNumber);
      const answer = await identify(started.scaRedirect, company.viewer.customerNumber);
      expect(alertOf(answer.text)).toBe('Someone other than the customer the app named tried to approve it');
      expect(await statusOf(payment.path)).toBe('RJCT');
    });
  });

  describe('several approvers', () => {
    async function dualPayment(extra: Record<string, unknown> = {}, by: Psu = dual.approvers[0]!) {
      return createPayment(server.client, 'payments', NDCT, ndctBody(dual.account, extra), { ...by.headers, ...URIS });
    }

    it('an amount above the approval limit: the 201 links startAuthorisation only, and no authorisation is started', async () => {
      const payment = await dualPayment();
      const self = `${server.config.publicUrl}${payment.path}`;
      expect(payment.links).toEqual({
        self: { href: self },
        status: { href: `${self}/status` },
        startAuthorisation: { href: `${self}/authorisations` },
      });
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
    });

    it('an approval limit below the amount (not 0) also needs several approvers', async () => {
      const small = await dualControlCorporation(server.client, '50.00', 2);
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(small.account), small.approvers[0]!.headers);
      expect(payment.links['startAuthorisation']).toBeDefined();
      expect(payment.links['scaRedirect']).toBeUndefined();
      const first = await startAuthorisation(server.client, payment.path);
      await walk(first.scaRedirect);
      expect(await statusOf(payment.path)).toBe('PATC');
      const second = await startAuthorisation(server.client, payment.path, { 'psu-id': small.approvers[1]!.customerNumber });
      await walk(second.scaRedirect);
      expect(await statusOf(payment.path)).toBe('ACTC');
    });

    it('the first approval leaves PATC; the same approver again fails that authorisation and the payment stays PATC; another approver completes it (ACTC)', async () => {
      const payment = await dualPayment();
      const first = await startAuthorisation(server.client, payment.path);
      const firstJourney = await walk(first.scaRedirect);
      expect(firstJourney.redirectedTo).toBe(OK_URI);
      expect(await scaStatusOf(server.client, first.scaStatus)).toEqual({ scaStatus: 'finalised' });
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'PATC' });

      const again = await startAuthorisation(server.client, payment.path, { 'psu-id': dual.approvers[0]!.customerNumber });
      const againJourney = await walk(again.scaRedirect);
      expect(againJourney.redirectedTo).toBeUndefined();
      expect(alertOf(againJourney.lastPage)).toBe(ALREADY);
      expect(await scaStatusOf(server.client, again.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: ALREADY });
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'PATC' });

      const second = await startAuthorisation(server.client, payment.path, { 'psu-id': dual.approvers[1]!.customerNumber });
      expect((await walk(second.scaRedirect)).redirectedTo).toBe(OK_URI);
      expect(await scaStatusOf(server.client, second.scaStatus)).toEqual({ scaStatus: 'finalised' });
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'ACTC' });
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({
        authorisationIds: [first.authorisationId, again.authorisationId, second.authorisationId],
      });
    });

    it('the first approver is told another approver must approve too (outcome page without redirect URI)', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(dual.account), dual.approvers[0]!.headers);
      const first = await startAuthorisation(server.client, payment.path);
      const journey = await walk(first.scaRedirect);
      expect(journey.redirectedTo).toBeUndefined();
      expect(journey.lastPage).toContain('Another approver must approve it too');
    });

    it('a PATC payment may be approved by any other engaged approver when the TPP names none', async () => {
      const payment = await dualPayment();
      await walk((await startAuthorisation(server.client, payment.path)).scaRedirect);
      expect(await statusOf(payment.path)).toBe('PATC');
      const next = await startAuthorisation(server.client, payment.path);
      expect(inputOf((await openPage(next.scaRedirect)).text, 'psuId')).not.toContain('readonly');
      await walk(next.scaRedirect, { psuId: dual.approvers[2]!.customerNumber });
      expect(await statusOf(payment.path)).toBe('ACTC');
    });

    it('the second approval of a payment due later makes it PDNG', async () => {
      const payment = await dualPayment({ requestedExecutionDate: osloDay(5) });
      await walk((await startAuthorisation(server.client, payment.path)).scaRedirect);
      expect(await statusOf(payment.path)).toBe('PATC');
      await walk((await startAuthorisation(server.client, payment.path, { 'psu-id': dual.approvers[1]!.customerNumber })).scaRedirect);
      expect(await statusOf(payment.path)).toBe('PDNG');
    });

    it('a viewer on a PATC payment fails the authorisation and the payment is RJCT', async () => {
      const payment = await dualPayment();
      await walk((await startAuthorisation(server.client, payment.path)).scaRedirect);
      const started = await startAuthorisation(server.client, payment.path, { 'psu-id': dual.viewer.customerNumber });
      await walk(started.scaRedirect);
      expect((await scaStatusOf(server.client, started.scaStatus)).scaStatus).toBe('failed');
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({
        transactionStatus: 'RJCT',
        psuMessage: 'SCA failed: You may not approve payments from this account',
      });
    });

    it('a PATC payment can be cancelled through a cancellation authorisation (CANC)', async () => {
      const payment = await dualPayment();
      await walk((await startAuthorisation(server.client, payment.path)).scaRedirect);
      const deleted = await server.client.delete<any>(payment.path);
      expect(deleted.status).toBe(202);
      expect(deleted.body.transactionStatus).toBe('PATC');
      const cancellation = await startAuthorisation(server.client, payment.path, {}, 'cancellation-authorisations');
      await walk(cancellation.scaRedirect, { psuId: dual.approvers[1]!.customerNumber });
      expect(await scaStatusOf(server.client, cancellation.scaStatus)).toEqual({ scaStatus: 'finalised' });
      expect(await statusOf(payment.path)).toBe('CANC');
    });

    it('TPP-Explicit-Authorisation-Preferred on a single-approver corporate payment links startAuthorisation too', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), {
        ...company.registrar.headers,
        'tpp-explicit-authorisation-preferred': 'true',
      });
      expect(Object.keys(payment.links).sort()).toEqual(['self', 'startAuthorisation', 'status']);
      await walk((await startAuthorisation(server.client, payment.path)).scaRedirect);
      expect(await statusOf(payment.path)).toBe('ACTC');
    });
  });

  describe('PSU-Corporate-ID', () => {
    it("a PSU-Corporate-ID other than the payment's on POST authorisations is 401 CORPORATE_ID_INVALID and starts nothing", async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(dual.account), dual.approvers[0]!.headers);
      const response = await server.client.post<any>(`${payment.path}/authorisations`, undefined, {
        headers: { 'psu-corporate-id': anotherOrganisationNumber(dual.organisationNumber), 'psu-id': dual.approvers[1]!.customerNumber },
      });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      expect((await server.client.get<any>(`${payment.path}/authorisations`)).body).toEqual({ authorisationIds: [] });
    });

    it('the corporation of another agreement is refused on cancellation-authorisations too', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), company.registrar.headers);
      await walk(payment.links['scaRedirect']!.href);
      const response = await server.client.post<any>(`${payment.path}/cancellation-authorisations`, undefined, {
        headers: { 'psu-corporate-id': dual.organisationNumber },
      });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
      expect((await server.client.get<any>(`${payment.path}/cancellation-authorisations`)).body).toEqual({ authorisationIds: [] });
    });

    it('the implicit authorisation of a corporate payment is linked to it and named after the PSU', async () => {
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(company.account), company.registrar.headers);
      const id = idOfLink(payment.links['scaRedirect']!.href);
      const row = await server.database.db
        .selectFrom('authorisation')
        .select(['psu_corporate_id', 'expected_psu_id', 'resource_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        psu_corporate_id: company.organisationNumber,
        expected_psu_id: company.registrar.customerNumber,
        resource_id: payment.paymentId,
      });
    });
  });
});
