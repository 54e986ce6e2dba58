/**
 * `DELETE /v1/sandbox/agreements/{agreementId}/engagements/{engagementId}`: withdraws a
 * PSU's access to one of the corporation's accounts.
 * - 204 with no body; the engagement is gone (GET → 404, not in the agreement any more), audited,
 *   and may be added again; the other engagements of the agreement stay;
 * - an unknown agreement or engagement, an engagement of another agreement, a second DELETE: 404
 *   RESOURCE_UNKNOWN naming the path parameter; another TPP's sandbox is invisible (404);
 * - its effect: a payment the PSU created from that account before the removal fails approval
 *   (RJCT, "You may not approve payments from this account"), also when the access goes while the
 *   PSU is on the confirmation page; another PSU still engaged on the account approves as before;
 *   reads under the PSU's consents no longer list the account, and its details, balances and
 *   transactions are 401 CONSENT_INVALID; a read the consent does not cover says so first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, NDCT, ndctBody, type Account } from '../support/payments.js';
import { approvedConsent, consentBody } from '../support/consents.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import {
  alertOf,
  createPayment,
  csrfOf,
  enterCode,
  identify,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  postPage,
  scaStatusOf,
  walk,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
const MAY_NOT = 'You may not approve payments from this account';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A corporation with one NOK account and an agreement engaging two PSUs on it with REGISTER and VIEW. */
interface Engaged {
  readonly agreementId: string;
  readonly organisationNumber: string;
  readonly account: Account;
  /** customerNumber → engagementId */
  readonly engagements: ReadonlyMap<string, string>;
  readonly psus: readonly string[];
  /** PSU-ID and PSU-Corporate-ID of one of the PSUs. */
  headersOf(customerNumber: string): Record<string, string>;
  /** The agreement's engagement path. */
  pathOf(engagementId: string): string;
}

async function engagedCorporation(client: TppClient): Promise<Engaged> {
  const owner = await createCustomer(client, 'CORPORATE', 'Tilgang AS');
  const account = await createAccount(client, owner.customerNumber);
  const psus = [(await createCustomer(client)).customerNumber, (await createCustomer(client)).customerNumber];
  const response = await client.post<any>('/v1/sandbox/agreements', {
    owner: owner.customerNumber,
    engagements: psus.map((customer) => ({ customer, account: { bban: account.bban }, roles: ['REGISTER', 'VIEW'] })),
  });
  expect(response.status, response.text).toBe(201);
  const agreementId = response.body.agreementId as string;
  const organisationNumber = response.body.organisationNumber as string;
  const engagements = new Map(
    (response.body.engagements as { engagementId: string; customer: string }[]).map((engagement) => [
      engagement.customer,
      engagement.engagementId,
    ]),
  );
  expect(engagements.size).toBe(2);
  return {
    agreementId,
    organisationNumber,
    account,
    engagements,
    psus,
    headersOf: (customerNumber) => ({ 'psu-id': customerNumber, 'psu-corporate-id': organisationNumber }),
    pathOf: (engagementId) => `/v1/sandbox/agreements/${agreementId}/engagements/${engagementId}`,
  };
}

describe.each(DIALECTS)('removing a sandbox engagement (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  const removeEngagement = (corp: Engaged, customerNumber: string, client: TppClient = server.client) =>
    client.delete<any>(corp.pathOf(corp.engagements.get(customerNumber)!));

  function expectUnknown(response: { status: number; body: any; text: string }, path: 'mockAgreementId' | 'engagementId'): void {
    expect(response.status, response.text).toBe(404);
    expect(response.body).toMatchObject({ code: 'RESOURCE_UNKNOWN', tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN', path }] });
    expectBerlinGroupSchema('Error404_NG_AIS', response.body);
  }

  describe('the route', () => {
    it('answers 204 with no body; the engagement is gone (GET → 404) and no longer listed; the other one stays', async () => {
      const corp = await engagedCorporation(server.client);
      const [gone, kept] = corp.psus as [string, string];
      const goneId = corp.engagements.get(gone)!;
      expect((await server.client.get<any>(corp.pathOf(goneId))).status).toBe(200);

      const response = await removeEngagement(corp, gone);
      expect(response.status, response.text).toBe(204);
      expect(response.text).toBe('');

      expectUnknown(await server.client.get<any>(corp.pathOf(goneId)), 'engagementId');
      const agreement = await server.client.get<any>(`/v1/sandbox/agreements/${corp.agreementId}`);
      expect(agreement.status).toBe(200);
      expect(agreement.body.engagements.map((engagement: { engagementId: string }) => engagement.engagementId)).toEqual([
        corp.engagements.get(kept),
      ]);
      expect((await server.client.get<any>(corp.pathOf(corp.engagements.get(kept)!))).status).toBe(200);
    });

    it('is audited as sandbox.engagement.deleted by the TPP', async () => {
      const corp = await engagedCorporation(server.client);
      const engagementId = corp.engagements.get(corp.psus[0]!)!;
      expect((await removeEngagement(corp, corp.psus[0]!)).status).toBe(204);
      const events = await server.database.db
        .selectFrom('audit_event')
        .selectAll()
        .where('resource_id', '=', engagementId)
        .orderBy('id')
        .execute();
      expect(events.map((event) => [event.action, event.actor_type, event.actor_id])).toEqual([
        ['sandbox.engagement.created', 'tpp', 'PSDNO-FSA-123456789'],
        ['sandbox.engagement.deleted', 'tpp', 'PSDNO-FSA-123456789'],
      ]);
    });

    it('a second DELETE of the same engagement answers 404', async () => {
      const corp = await engagedCorporation(server.client);
      expect((await removeEngagement(corp, corp.psus[0]!)).status).toBe(204);
      expectUnknown(await removeEngagement(corp, corp.psus[0]!), 'engagementId');
    });

    it('the PSU may be engaged on the account again afterwards (201, not 409)', async () => {
      const corp = await engagedCorporation(server.client);
      expect((await removeEngagement(corp, corp.psus[0]!)).status).toBe(204);
      const again = await server.client.post<any>(`/v1/sandbox/agreements/${corp.agreementId}/engagements`, {
        customer: corp.psus[0],
        account: { bban: corp.account.bban },
        roles: ['REGISTER', 'VIEW'],
      });
      expect(again.status, again.text).toBe(201);
      expect(again.body.engagementId).not.toBe(corp.engagements.get(corp.psus[0]!));
    });

    it('answers an unknown engagement, an unknown agreement, or an engagement of another agreement with 404 RESOURCE_UNKNOWN', async () => {
      const corp = await engagedCorporation(server.client);
      const other = await engagedCorporation(server.client);
      const engagementId = corp.engagements.get(corp.psus[0]!)!;

      expectUnknown(await server.client.delete<any>(corp.pathOf(UNKNOWN_ID)), 'engagementId');
      expectUnknown(await server.client.delete<any>(corp.pathOf('no-such-engagement')), 'engagementId');
      expectUnknown(await server.client.delete<any>(`/v1/sandbox/agreements/${UNKNOWN_ID}/engagements/${engagementId}`), 'mockAgreementId');
      expectUnknown(await server.client.delete<any>(`/v1/sandbox/agreements/nope/engagements/${engagementId}`), 'mockAgreementId');
      // The engagement exists, but under another agreement.
      expectUnknown(await server.client.delete<any>(other.pathOf(engagementId)), 'engagementId');

      // Nothing was removed by any of them.
      expect((await server.client.get<any>(corp.pathOf(engagementId))).status).toBe(200);
      expect((await server.client.get<any>(`/v1/sandbox/agreements/${other.agreementId}`)).body.engagements).toHaveLength(2);
    });

    it("another TPP's sandbox is invisible: its DELETE answers 404 and removes nothing", async () => {
      const corp = await engagedCorporation(server.client);
      const { client: stranger } = await server.newTpp('PSDNO-FSA-444444444');
      const engagementId = corp.engagements.get(corp.psus[0]!)!;
      expectUnknown(await removeEngagement(corp, corp.psus[0]!, stranger), 'mockAgreementId');
      expect((await server.client.get<any>(corp.pathOf(engagementId))).status).toBe(200);
      // Its own sandbox has no such agreement either.
      expectUnknown(await stranger.get<any>(corp.pathOf(engagementId)), 'mockAgreementId');
    });

    it('refuses an unsigned request with 401 and removes nothing', async () => {
      const corp = await engagedCorporation(server.client);
      const engagementId = corp.engagements.get(corp.psus[0]!)!;
      const response = await server.anonymous.delete<any>(corp.pathOf(engagementId));
      expect(response.status, response.text).toBe(401);
      expect((await server.client.get<any>(corp.pathOf(engagementId))).status).toBe(200);
    });
  });

  describe('its effect on approval', () => {
    it('a payment the PSU created from the account before the removal fails approval: scaStatus failed, payment RJCT', async () => {
      const corp = await engagedCorporation(server.client);
      const psu = corp.psus[0]!;
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(corp.account), { ...corp.headersOf(psu), ...URIS });
      expect((await paymentStatusOf(server.client, payment.path)).transactionStatus).toBe('RCVD');

      expect((await removeEngagement(corp, psu)).status).toBe(204);

      const journey = await walk(payment.links['scaRedirect']!.href);
      expect(journey.redirectedTo).toBeUndefined();
      expect(alertOf(journey.lastPage)).toBe(MAY_NOT);
      expect(await scaStatusOf(server.client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: MAY_NOT });
      const status = await paymentStatusOf(server.client, payment.path);
      expect(status.transactionStatus).toBe('RJCT');
      expect(status.psuMessage).toContain(MAY_NOT);
      expect(status).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${MAY_NOT}` });
    });

    it('the access withdrawn while the PSU is on the confirmation page: approve fails, payment RJCT', async () => {
      const corp = await engagedCorporation(server.client);
      const psu = corp.psus[0]!;
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(corp.account), { ...corp.headersOf(psu), ...URIS });
      const link = payment.links['scaRedirect']!.href;
      expect((await identify(link, psu)).status).toBe(303);
      expect((await enterCode(link)).status).toBe(303);
      const confirmation = await openPage(link);
      expect(confirmation.text).toContain('Approve this payment');

      expect((await removeEngagement(corp, psu)).status).toBe(204);

      const decided = await postPage(`${link}/decision`, { csrf: csrfOf(confirmation.text), decision: 'approve' });
      expect(decided.location).toBeUndefined();
      expect(alertOf(decided.text)).toBe(MAY_NOT);
      const status = await paymentStatusOf(server.client, payment.path);
      expect(status.transactionStatus).toBe('RJCT');
      expect(status.psuMessage).toContain(MAY_NOT);
    });

    it('another PSU still engaged on the account approves a payment of its own as before (ACTC)', async () => {
      const corp = await engagedCorporation(server.client);
      const [gone, kept] = corp.psus as [string, string];
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(corp.account), { ...corp.headersOf(kept), ...URIS });
      expect((await removeEngagement(corp, gone)).status).toBe(204);
      expect((await walk(payment.links['scaRedirect']!.href)).redirectedTo).toBe(OK_URI);
      expect((await paymentStatusOf(server.client, payment.path)).transactionStatus).toBe('ACTC');
    });

    it('a payment approved before the removal stays ACTC', async () => {
      const corp = await engagedCorporation(server.client);
      const psu = corp.psus[0]!;
      const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(corp.account), { ...corp.headersOf(psu), ...URIS });
      expect((await walk(payment.links['scaRedirect']!.href)).redirectedTo).toBe(OK_URI);
      expect((await removeEngagement(corp, psu)).status).toBe(204);
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'ACTC' });
    });
  });

  describe('its effect on consents', () => {
    /** A valid allPsd2 consent of the PSU under the agreement, and the resourceId of the corporation's account in it. */
    async function consentOf(corp: Engaged, psu: string): Promise<{ consentId: string; resourceId: string }> {
      const consentId = await approvedConsent(
        server.client,
        consentBody({ allPsd2: 'allAccounts' }),
        { ...corp.headersOf(psu), ...URIS },
        walk,
      );
      const list = await server.client.get<any>('/v1/accounts?withBalance=true', { headers: { 'consent-id': consentId } });
      expect(list.status, list.text).toBe(200);
      const listed = (list.body.accounts as { iban: string; resourceId: string }[]).find((account) => account.iban === corp.account.iban);
      expect(listed, list.text).toBeDefined();
      return { consentId, resourceId: listed!.resourceId };
    }

    it('reads under a consent of the PSU no longer list or serve the account: 401 CONSENT_INVALID; the other PSU reads as before', async () => {
      const corp = await engagedCorporation(server.client);
      const [gone, kept] = corp.psus as [string, string];
      const lost = await consentOf(corp, gone);
      const still = await consentOf(corp, kept);
      const read = (path: string, consentId: string) =>
        server.client.get<any>(path, { headers: { 'consent-id': consentId, 'psu-ip-address': '192.0.2.10' } });
      const paths = (resourceId: string) => [
        `/v1/accounts/${resourceId}`,
        `/v1/accounts/${resourceId}/balances`,
        `/v1/accounts/${resourceId}/transactions`,
      ];
      for (const path of paths(lost.resourceId)) expect((await read(path, lost.consentId)).status, path).toBe(200);

      expect((await removeEngagement(corp, gone)).status).toBe(204);

      const list = await read('/v1/accounts?withBalance=true', lost.consentId);
      expect(list.status, list.text).toBe(200);
      expect(list.body.accounts).toEqual([]);
      for (const path of paths(lost.resourceId)) {
        const response = await read(path, lost.consentId);
        expectError(response, 401, 'CONSENT_INVALID', 'account-id');
        expect(response.body.tppMessages[0].text, path).toContain('no longer has access to this account');
      }
      const keptList = await read('/v1/accounts?withBalance=true', still.consentId);
      expect(keptList.body.accounts.map((account: { iban: string }) => account.iban)).toEqual([corp.account.iban]);
      for (const path of paths(still.resourceId)) expect((await read(path, still.consentId)).status, path).toBe(200);
    });

    it('says what the consent does not cover before whether the PSU still has access: a consent without balances or transactions', async () => {
      const corp = await engagedCorporation(server.client);
      const [gone] = corp.psus as [string, string];
      const consentId = await approvedConsent(
        server.client,
        consentBody({ accounts: [{ iban: corp.account.iban }] }),
        { ...corp.headersOf(gone), ...URIS },
        walk,
      );
      const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
      expect(list.status, list.text).toBe(200);
      const resourceId = list.body.accounts[0].resourceId as string;
      expect((await removeEngagement(corp, gone)).status).toBe(204);
      for (const kind of ['balances', 'transactions']) {
        const response = await server.client.get<any>(`/v1/accounts/${resourceId}/${kind}`, {
          headers: { 'consent-id': consentId, 'psu-ip-address': '192.0.2.10' },
        });
        expect(response.status, response.text).toBe(401);
        expect(response.body.tppMessages[0].code).toBe('CONSENT_INVALID');
        expect(response.body.tppMessages[0].text, kind).toContain(`does not cover the ${kind} of this account`);
      }
    });
  });
});
