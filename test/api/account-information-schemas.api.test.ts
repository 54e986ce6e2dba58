/**
 * Every account information operation's 2xx body, in one walk against the seeded sandbox, checked
 * against the Berlin Group NextGenPSD2 1.3.12 schema (test/support/berlin-group-schema.ts):
 * consent creation, reading, status, its authorisations (list, one, a new one), accounts and card
 * accounts (lists with balances, details with balances, balances), the funds confirmation, and the
 * consent's deletion (204, no body).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { consentBody, createConsent } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Ola Nordmann of the seeded set (README "Sandbox data"). */
const OLA = '13039319955';

describe.each(DIALECTS)('account information bodies against the Berlin Group schema (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    expect((await server.client.post('/v1/sandbox/initialize', undefined)).status).toBe(200);
  });
  afterAll(() => server.close());

  it('answers every operation with a body the standard accepts', async () => {
    const checked: string[] = [];
    const ok = async (request: Promise<{ status: number; text: string; body: any }>, status: number, schema?: string, part?: string) => {
      const response = await request;
      expect(response.status, response.text).toBe(status);
      if (schema !== undefined) expectBerlinGroupSchema(schema, part === undefined ? response.body : response.body[part]);
      checked.push(schema ?? String(status));
      return response.body;
    };
    const psu = { 'psu-id': OLA, 'tpp-redirect-uri': 'https://tpp.example/ok' };

    const created = await ok(
      server.client.post<any>('/v1/consents', consentBody({ allPsd2: 'allAccounts' }), { headers: psu }),
      201,
      'consentsResponse-201',
    );
    const consentId = created.consentId as string;
    const consentPath = `/v1/consents/${consentId}`;
    const authorisations = await ok(server.client.get<any>(`${consentPath}/authorisations`), 200, 'authorisations');
    await ok(server.client.get<any>(`${consentPath}/authorisations/${authorisations.authorisationIds[0]}`), 200, 'scaStatusResponse');
    await walk(created._links.scaRedirect.href);
    await ok(server.client.get<any>(consentPath), 200, 'consentInformationResponse-200_json');
    await ok(server.client.get<any>(`${consentPath}/status`), 200, 'consentStatusResponse-200');

    const read = (path: string) => server.client.get<any>(path, { headers: { 'consent-id': consentId } });
    const accounts = await ok(read('/v1/accounts?withBalance=true'), 200, 'accountList');
    const accountId = accounts.accounts[0].resourceId as string;
    await ok(read(`/v1/accounts/${accountId}?withBalance=true`), 200, 'accountDetails', 'account');
    await ok(read(`/v1/accounts/${accountId}/balances`), 200, 'readAccountBalanceResponse-200');
    const cards = await ok(read('/v1/card-accounts?withBalance=true'), 200, 'cardAccountList');
    const cardId = cards.cardAccounts[0].resourceId as string;
    await ok(read(`/v1/card-accounts/${cardId}?withBalance=true`), 200, 'cardAccountDetails', 'cardAccount');
    await ok(read(`/v1/card-accounts/${cardId}/balances`), 200, 'readCardAccountBalanceResponse-200');

    // A second consent, so a new authorisation can be started on one that is still received.
    const second = await createConsent(server.client, consentBody({ accounts: [], balances: [], transactions: [] }), psu);
    await ok(
      server.client.post<any>(`/v1/consents/${second.consentId}/authorisations`, undefined, { headers: psu }),
      201,
      'startScaprocessResponse',
    );

    const funder = (await server.newTpp('PSDNO-FSA-777777777', ['PSP_IC'])).client;
    expect((await funder.post('/v1/sandbox/initialize', undefined)).status).toBe(200);
    const funds = await ok(
      funder.post<any>('/v1/funds-confirmations', {
        account: { bban: '12341100028' },
        instructedAmount: { currency: 'NOK', amount: '100.00' },
      }),
      200,
    );
    expectBerlinGroupSchema('fundsAvailable', funds.fundsAvailable);
    expect(Object.keys(funds)).toEqual(['fundsAvailable']);

    await ok(server.client.delete<any>(consentPath), 204);
    expect(checked).toHaveLength(14);
  });
});
