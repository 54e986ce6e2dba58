/**
 * Account information consents (docs/design.md §2b): creation of the four kinds with the implicit
 * start of their SCA, the validity rules, the reads of a consent and its status, its DELETE, the
 * PSP_AI role, and the consent's SCA walked on the PSU's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, pathOf } from '../support/payments.js';
import { createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { OK_URI, openPage, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { consentBody, createConsent, detailedAccess } from '../support/consents.js';

describe.each(DIALECTS)('consents (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('creates a detailed consent: 201 received, Location, scaRedirect and scaStatus links (the SCA starts with it)', async () => {
    const customer = await createCustomer(server.client);
    const account = await createAccount(server.client, customer.customerNumber);
    const response = await server.client.post<any>('/v1/consents', consentBody(detailedAccess(account)), {
      headers: { 'psu-id': customer.customerNumber, 'tpp-redirect-uri': OK_URI },
    });
    expect(response.status, response.text).toBe(201);
    expectBerlinGroupSchema('consentsResponse-201', response.body);
    expect(response.body.consentStatus).toBe('received');
    expect(response.headers['aspsp-sca-approach']).toBe('REDIRECT');
    const self = `/v1/consents/${response.body.consentId}`;
    expect(pathOf(String(response.headers.location))).toBe(self);
    expect(Object.keys(response.body._links).sort()).toEqual(['scaRedirect', 'scaStatus', 'self', 'status']);
    expect(pathOf(response.body._links.scaStatus.href)).toMatch(new RegExp(`^${self}/authorisations/[0-9a-f-]{36}$`));
    const status = await server.client.get<any>(`${self}/status`);
    expect(status.body).toEqual({ consentStatus: 'received' });
    expectBerlinGroupSchema('consentStatusResponse-200', status.body);
  });

  it('answers startAuthorisation instead when the TPP prefers to start the authorisation itself', async () => {
    const response = await server.client.post<any>('/v1/consents', consentBody({ allPsd2: 'allAccounts' }), {
      headers: { 'tpp-explicit-authorisation-preferred': 'true' },
    });
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body._links).sort()).toEqual(['self', 'startAuthorisation', 'status']);
  });

  it('shows the consent as asked, capped at 180 days and 4 reads a day', async () => {
    const { consentId } = await createConsent(
      server.client,
      consentBody({ allPsd2: 'allAccountsWithOwnerName' }, { validUntil: '9999-12-31', frequencyPerDay: 100_000 }),
    );
    const response = await server.client.get<any>(`/v1/consents/${consentId}`);
    expect(response.status, response.text).toBe(200);
    expectBerlinGroupSchema('consentInformationResponse-200_json', response.body);
    expect(response.body).toMatchObject({
      access: { allPsd2: 'allAccountsWithOwnerName' },
      recurringIndicator: true,
      validUntil: osloDay(180),
      frequencyPerDay: 4,
      lastActionDate: osloDay(),
      consentStatus: 'received',
    });
  });

  it('keeps a validUntil within 180 days as asked, and gives a one-off consent 1 read a day', async () => {
    const { consentId } = await createConsent(
      server.client,
      consentBody({ availableAccounts: 'allAccounts' }, { validUntil: osloDay(10), recurringIndicator: false, frequencyPerDay: 4 }),
    );
    const response = await server.client.get<any>(`/v1/consents/${consentId}`);
    expect(response.body).toMatchObject({
      validUntil: osloDay(10),
      frequencyPerDay: 1,
      recurringIndicator: false,
      access: { availableAccounts: 'allAccounts' },
    });
  });

  it.each([
    [{ validUntil: osloDay(-1) }, { allPsd2: 'allAccounts' }, 400, 'PERIOD_INVALID', 'validUntil'],
    [{ validUntil: '2026-13-01' }, { allPsd2: 'allAccounts' }, 400, 'FORMAT_ERROR', 'validUntil'],
    [{ frequencyPerDay: 0 }, { allPsd2: 'allAccounts' }, 400, 'FORMAT_ERROR', 'frequencyPerDay'],
    [{ combinedServiceIndicator: true }, { allPsd2: 'allAccounts' }, 400, 'FORMAT_ERROR', 'combinedServiceIndicator'],
    [{ recurringIndicator: true }, { availableAccounts: 'allAccounts' }, 400, 'FORMAT_ERROR', 'recurringIndicator'],
    [{}, {}, 400, 'FORMAT_ERROR', 'access'],
    [{}, { accounts: [{ bban: '12345678901' }] }, 400, 'FORMAT_ERROR', 'access.accounts[0].bban'],
    [{}, { accounts: [{ pan: '5254120000003241' }] }, 400, 'FORMAT_ERROR', 'access.accounts[0].pan'],
    [{}, { allPsd2: 'allAccounts', accounts: [{ bban: '12345678903' }] }, 400, 'FORMAT_ERROR', 'access.allPsd2'],
  ])('refuses %j with access %j: %i %s at %s', async (extra, access, status, code, path) => {
    const response = await server.client.post<any>('/v1/consents', consentBody(access, extra));
    expectError(response, status, code, path);
  });

  it('says in a whole sentence what a masked card number is when maskedPan is not one', async () => {
    const response = await server.client.post<any>('/v1/consents', consentBody({ accounts: [{ maskedPan: '5254123241' }] }));
    expectError(response, 400, 'FORMAT_ERROR', 'access.accounts[0].maskedPan');
    expect(response.body.tppMessages[0].text).toBe(
      'The request is not well formed: maskedPan must be a masked card number (its first 4 to 8 digits, 2 to 10 asterisks and its last 4 digits), such as 525412******3241',
    );
  });

  it('refuses a TPP without PSP_AI with 401 ROLE_INVALID', async () => {
    const { client } = await server.newTpp('PSDNO-FSA-222222222', ['PSP_PI']);
    const response = await client.post<any>('/v1/consents', consentBody({ allPsd2: 'allAccounts' }));
    expectError(response, 401, 'ROLE_INVALID');
  });

  it("answers 401 CONSENT_UNKNOWN for another TPP's consent and an unknown one", async () => {
    const { consentId } = await createConsent(server.client, consentBody({ allPsd2: 'allAccounts' }));
    const { client } = await server.newTpp('PSDNO-FSA-333333333');
    expectError(await client.get<any>(`/v1/consents/${consentId}`), 401, 'CONSENT_UNKNOWN', 'consentId');
    expectError(await client.delete<any>(`/v1/consents/${consentId}`), 401, 'CONSENT_UNKNOWN', 'consentId');
    expectError(await server.client.get<any>('/v1/consents/no-such-consent/status'), 401, 'CONSENT_UNKNOWN', 'consentId');
    expect((await server.client.get<any>(`/v1/consents/${consentId}/status`)).body.consentStatus).toBe('received');
  });

  it('terminates a consent on DELETE (204, terminatedByTpp) and ends its open authorisation', async () => {
    const response = await server.client.post<any>('/v1/consents', consentBody({ allPsd2: 'allAccounts' }));
    const consentId = response.body.consentId as string;
    const deleted = await server.client.delete<any>(`/v1/consents/${consentId}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await server.client.get<any>(`/v1/consents/${consentId}/status`)).body.consentStatus).toBe('terminatedByTpp');
    expect((await server.client.delete<any>(`/v1/consents/${consentId}`)).status).toBe(204);
    const page = await openPage(response.body._links.scaRedirect.href);
    expect(page.text).toContain('The app ended the consent');
  });

  it('becomes valid when the PSU approves it on the SCA page, which says what is asked', async () => {
    const customer = await createCustomer(server.client);
    const account = await createAccount(server.client, customer.customerNumber);
    const response = await server.client.post<any>('/v1/consents', consentBody(detailedAccess(account)), {
      headers: { 'psu-id': customer.customerNumber, 'tpp-redirect-uri': OK_URI },
    });
    const journey = await walk(response.body._links.scaRedirect.href);
    expect(journey.redirectedTo).toBe(OK_URI);
    const consent = await server.client.get<any>(`/v1/consents/${response.body.consentId}`);
    expect(consent.body.consentStatus).toBe('valid');
  });
});
