/**
 * A consent's SCA (docs/design.md §2b): the confirmation page says in plain words, in nb and en,
 * what the TPP asks; approval makes the consent valid, a rejection or an account the PSU cannot
 * share rejects it; a bank-offered consent lets the PSU tick the accounts to share; a corporate PSU
 * shares only accounts engaged with REGISTER and VIEW; a newer consent granting at least as much, as
 * long and as often ends the older one, a narrower one leaves it valid; validity ends by the bank clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { anotherOrganisationNumber, corporation, expectError } from '../support/payments.js';
import { accountNumber, createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { enterCode, identify, NOK_URI, OK_URI, openPage, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { choiceLabelsOf, consentBody, consentStatusOf, createConsent, detailedAccess, pageText } from '../support/consents.js';

const REDIRECTS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };

describe.each(DIALECTS)('consent SCA (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  async function psuWithAccount(name = 'Brukskonto') {
    const customer = await createCustomer(server.client);
    const account = await createAccount(server.client, customer.customerNumber, { name });
    return { psuId: customer.customerNumber, account };
  }

  /** Identifies the PSU and enters the code: the confirmation page, in `language`. */
  async function confirmationPage(scaRedirect: string, language = 'en'): Promise<string> {
    await identify(scaRedirect, '');
    await enterCode(scaRedirect);
    return (await openPage(scaRedirect, { language })).text;
  }

  it('says what is asked, in English and Bokmål: accounts, balances, transactions, until when and how often', async () => {
    const { psuId, account } = await psuWithAccount();
    const { scaRedirect } = await createConsent(
      server.client,
      consentBody(
        { accounts: [{ bban: account.bban }], balances: [{ bban: account.bban }] },
        { validUntil: '2027-03-01', frequencyPerDay: 2 },
      ),
      { 'psu-id': psuId },
    );
    const en = pageText(await confirmationPage(scaRedirect!, 'en'));
    const spaced = `${account.bban.slice(0, 4)}.${account.bban.slice(4, 6)}.${account.bban.slice(6)}`;
    expect(en).toContain('Share account information');
    expect(en).toContain(`Account details ${spaced}`);
    expect(en).toContain(`Balances ${spaced}`);
    expect(en).not.toContain('Transactions');
    expect(en).toContain('Valid until 1 March 2027');
    expect(en).toContain('Up to 2 times a day when you are not using the app yourself');
    const nb = pageText((await openPage(scaRedirect!, { language: 'nb' })).text);
    expect(nb).toContain('Del kontoinformasjon');
    expect(nb).toContain(`Kontoopplysninger ${spaced}`);
    expect(nb).toContain(`Saldo ${spaced}`);
    expect(nb).toContain('Gyldig til 1. mars 2027');
    expect(nb).toContain('Opptil 2 ganger per dag');
  });

  it('tells a one-off account list consent as such', async () => {
    const { psuId } = await psuWithAccount();
    const { scaRedirect } = await createConsent(
      server.client,
      consentBody({ availableAccountsWithBalance: 'allAccounts' }, { recurringIndicator: false, frequencyPerDay: 1 }),
      { 'psu-id': psuId },
    );
    const text = pageText(await confirmationPage(scaRedirect!));
    expect(text).toContain('The list of your accounts, with their balances');
    expect(text).toContain('How often Once');
  });

  it('makes the consent valid when the PSU approves, and rejected when the PSU rejects', async () => {
    const { psuId, account } = await psuWithAccount();
    const approved = await createConsent(server.client, consentBody(detailedAccess(account)), { 'psu-id': psuId, ...REDIRECTS });
    expect((await walk(approved.scaRedirect!)).redirectedTo).toBe(OK_URI);
    expect(await consentStatusOf(server.client, approved.consentId)).toBe('valid');
    const rejected = await createConsent(server.client, consentBody(detailedAccess(account)), { 'psu-id': psuId, ...REDIRECTS });
    expect((await walk(rejected.scaRedirect!, { decision: 'reject' })).redirectedTo).toBe(NOK_URI);
    expect(await consentStatusOf(server.client, rejected.consentId)).toBe('rejected');
  });

  it('rejects a detailed consent naming an account the PSU cannot share, and the page says so first', async () => {
    const { psuId, account } = await psuWithAccount();
    const other = await psuWithAccount();
    const unknown = accountNumber();
    const access = { accounts: [{ bban: account.bban }, { bban: other.account.bban }], balances: [{ iban: unknown.iban }] };
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody(access), { 'psu-id': psuId, ...REDIRECTS });
    const text = pageText(await confirmationPage(scaRedirect!));
    const spaced = (bban: string) => `${bban.slice(0, 4)}.${bban.slice(4, 6)}.${bban.slice(6)}`;
    expect(text).toContain(`Cannot be shared ${spaced(other.account.bban)}, ${unknown.iban}: not an account you can share`);
    expect(text).not.toContain(`${spaced(account.bban)}: not`);
    const journey = await walk(scaRedirect!);
    expect(journey.redirectedTo).toBeUndefined();
    expect(pageText(journey.lastPage)).toContain('which is not an account you can share');
    expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
  });

  it('lets the PSU tick the accounts of a bank-offered consent, and shows the ones chosen', async () => {
    const customer = await createCustomer(server.client);
    const first = await createAccount(server.client, customer.customerNumber, { name: 'Brukskonto' });
    const second = await createAccount(server.client, customer.customerNumber, { name: 'Sparekonto' });
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', {
      customerNumber: customer.customerNumber,
      maskedPan: '525412******3241',
      name: 'Kari Mastercard',
    });
    expect(card.status, card.text).toBe(201);
    await psuWithAccount('Fremmed konto');
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody({ accounts: [], balances: [], transactions: [] }), {
      'psu-id': customer.customerNumber,
      ...REDIRECTS,
    });
    const labels = choiceLabelsOf(await confirmationPage(scaRedirect!));
    expect(labels).toHaveLength(3);
    const spacedFirst = `${first.bban.slice(0, 4)}.${first.bban.slice(4, 6)}.${first.bban.slice(6)}`;
    expect(labels).toContain(`Brukskonto ${spacedFirst} (NOK)`);
    expect(labels.some((label) => label.includes('525412******3241'))).toBe(true);
    expect(labels.join(' ')).not.toContain('Fremmed');
    const journey = await walk(scaRedirect!, { choose: (label) => label.startsWith('Sparekonto') });
    expect(journey.redirectedTo).toBe(OK_URI);
    const consent = await server.client.get<any>(`/v1/consents/${consentId}`);
    expectBerlinGroupSchema('consentInformationResponse-200_json', consent.body);
    expect(consent.body.consentStatus).toBe('valid');
    const chosen = [{ iban: second.iban, currency: 'NOK' }];
    expect(consent.body.access).toEqual({ accounts: chosen, balances: chosen, transactions: chosen });
  });

  it('rejects a bank-offered consent approved with no account ticked', async () => {
    const { psuId } = await psuWithAccount();
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody({ accounts: [] }), { 'psu-id': psuId, ...REDIRECTS });
    const journey = await walk(scaRedirect!, { choose: () => false });
    expect(pageText(journey.lastPage)).toContain('No account was ticked');
    expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
  });

  it('lets a corporate PSU share accounts engaged with REGISTER and VIEW, not VIEW alone, named with PSU-Corporate-ID', async () => {
    const company = await corporation(server.client);
    const access = consentBody({ accounts: [{ bban: company.account.bban }] });
    const registrar = await createConsent(server.client, access, { ...company.registrar.headers, ...REDIRECTS });
    expect((await walk(registrar.scaRedirect!)).redirectedTo).toBe(OK_URI);
    expect(await consentStatusOf(server.client, registrar.consentId)).toBe('valid');
    // The registrar's PSU-ID names a PSU engaged on the account: it may be told the agreement is needed,
    // never whose it is (without such a PSU: consents-corporate-accounts.api.test.ts).
    const { 'psu-corporate-id': _corporateId, ...withoutCorporateId } = company.registrar.headers;
    const missing = await server.client.post<any>('/v1/consents', access, { headers: withoutCorporateId });
    expectError(missing, 400, 'FORMAT_ERROR', 'PSU-Corporate-ID');
    const elsewhere = { ...company.registrar.headers, 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber) };
    const another = await server.client.post<any>('/v1/consents', access, { headers: elsewhere });
    expectError(another, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
    for (const answer of [missing.text, another.text]) {
      expect(answer).not.toContain('Testfirma AS');
      expect(answer).not.toContain(company.organisationNumber);
    }
    const viewer = await createConsent(server.client, access, { ...company.viewer.headers, ...REDIRECTS });
    await walk(viewer.scaRedirect!);
    expect(await consentStatusOf(server.client, viewer.consentId)).toBe('rejected');
  });

  it('ends an older valid recurring consent when the PSU approves a new one for the same accounts', async () => {
    const { psuId, account } = await psuWithAccount();
    const older = await createConsent(server.client, consentBody(detailedAccess(account)), { 'psu-id': psuId, ...REDIRECTS });
    await walk(older.scaRedirect!);
    const unrelated = await createConsent(server.client, consentBody({ accounts: [{ bban: account.bban }] }), {
      'psu-id': psuId,
      ...REDIRECTS,
    });
    await walk(unrelated.scaRedirect!);
    const newer = await createConsent(server.client, consentBody({ allPsd2: 'allAccounts' }), { 'psu-id': psuId, ...REDIRECTS });
    await walk(newer.scaRedirect!);
    expect(await consentStatusOf(server.client, older.consentId)).toBe('terminatedByTpp');
    expect(await consentStatusOf(server.client, unrelated.consentId)).toBe('terminatedByTpp');
    expect(await consentStatusOf(server.client, newer.consentId)).toBe('valid');
  });

  it('keeps an older consent valid when the new one grants less: fewer kinds, a global one, the owner name', async () => {
    const { psuId, account } = await psuWithAccount();
    const approve = async (access: Record<string, unknown>) => {
      const { consentId, scaRedirect } = await createConsent(server.client, consentBody(access), { 'psu-id': psuId, ...REDIRECTS });
      await walk(scaRedirect!);
      expect(await consentStatusOf(server.client, consentId)).toBe('valid');
      return consentId;
    };
    const broad = await approve(detailedAccess(account));
    await approve({ accounts: [{ bban: account.bban }] });
    await approve({ transactions: [{ bban: account.bban }] });
    expect(await consentStatusOf(server.client, broad)).toBe('valid');
    const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': broad } });
    expect(list.status, list.text).toBe(200);
    const resourceId = list.body.accounts[0].resourceId as string;
    const balances = await server.client.get<any>(`/v1/accounts/${resourceId}/balances`, { headers: { 'consent-id': broad } });
    expect(balances.status, balances.text).toBe(200);

    const global = await approve({ allPsd2: 'allAccountsWithOwnerName' });
    expect(await consentStatusOf(server.client, broad)).toBe('terminatedByTpp');
    await approve({ accounts: [], balances: [], transactions: [] });
    await approve({ allPsd2: 'allAccounts' });
    expect(await consentStatusOf(server.client, global)).toBe('valid');
  });

  it('keeps an older consent valid when the new one, granting as much, ends sooner or allows fewer reads a day', async () => {
    const { psuId, account } = await psuWithAccount();
    const approve = async (extra: Record<string, unknown> = {}) => {
      const body = consentBody({ allPsd2: 'allAccountsWithOwnerName' }, extra);
      const { consentId, scaRedirect } = await createConsent(server.client, body, { 'psu-id': psuId, ...REDIRECTS });
      await walk(scaRedirect!);
      expect(await consentStatusOf(server.client, consentId)).toBe('valid');
      return consentId;
    };
    const older = await approve({ validUntil: osloDay(180), frequencyPerDay: 4 });
    await approve({ validUntil: osloDay(1), frequencyPerDay: 4 });
    await approve({ validUntil: osloDay(180), frequencyPerDay: 1 });
    expect(await consentStatusOf(server.client, older)).toBe('valid');
    const list = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': older } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.map((listed: { bban: string }) => listed.bban)).toContain(account.bban);

    await approve({ validUntil: osloDay(180), frequencyPerDay: 4 });
    expect(await consentStatusOf(server.client, older)).toBe('terminatedByTpp');
  });

  it('expires a valid consent once its validUntil has passed by the bank clock', async () => {
    const { client } = await server.newTpp('PSDNO-FSA-444444444');
    const customer = await createCustomer(client);
    await createAccount(client, customer.customerNumber);
    const { consentId, scaRedirect } = await createConsent(client, consentBody({ allPsd2: 'allAccounts' }, { validUntil: osloDay(2) }), {
      'psu-id': customer.customerNumber,
      ...REDIRECTS,
    });
    await walk(scaRedirect!);
    expect(await consentStatusOf(client, consentId)).toBe('valid');
    const moved = await client.post<any>('/v1/sandbox/clock', { dateTime: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    expect(moved.status, moved.text).toBe(200);
    expect(await consentStatusOf(client, consentId)).toBe('expired');
  });
  describe("the SCA's time is the TPP's bank clock, as the checks counting from it", () => {
    const DAY = 86_400_000;
    async function tppWithClockAhead(number: string, days: number) {
      const { client } = await server.newTpp(number);
      const moved = await client.post<any>('/v1/sandbox/clock', { dateTime: new Date(Date.now() + days * DAY).toISOString() });
      expect(moved.status, moved.text).toBe(200);
      const customer = await createCustomer(client);
      const account = await createAccount(client, customer.customerNumber);
      return { client, psuId: customer.customerNumber, account };
    }

    it('reads history older than 90 days with the PSU present right after the SCA, the clock a day ahead', async () => {
      const { client, psuId, account } = await tppWithClockAhead('PSDNO-FSA-445566771', 1);
      const { consentId, scaRedirect } = await createConsent(client, consentBody(detailedAccess(account)), {
        'psu-id': psuId,
        ...REDIRECTS,
      });
      await walk(scaRedirect!);
      expect(await consentStatusOf(client, consentId)).toBe('valid');
      const list = await client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
      expect(list.status, list.text).toBe(200);
      const resourceId = list.body.accounts[0].resourceId as string;
      const history = await client.get<any>(`/v1/accounts/${resourceId}/transactions?dateFrom=${osloDay(-120)}`, {
        headers: { 'consent-id': consentId, 'psu-ip-address': '192.0.2.10' },
      });
      expect(history.status, history.text).toBe(200);
    });

    it('counts the 180 days after the SCA by the bank clock: valid on its 179th day, though the real clock is behind', async () => {
      const { client, psuId } = await tppWithClockAhead('PSDNO-FSA-445566772', 30);
      const { consentId, scaRedirect } = await createConsent(
        client,
        consentBody({ allPsd2: 'allAccounts' }, { validUntil: '9999-12-31' }),
        {
          'psu-id': psuId,
          ...REDIRECTS,
        },
      );
      await walk(scaRedirect!);
      expect((await client.get<any>(`/v1/consents/${consentId}`)).body.validUntil).toBe(osloDay(30 + 180));
      const moved = await client.post<any>('/v1/sandbox/clock', { dateTime: new Date(Date.now() + (30 + 179) * DAY).toISOString() });
      expect(moved.status, moved.text).toBe(200);
      expect(await consentStatusOf(client, consentId)).toBe('valid');
      await client.post<any>('/v1/sandbox/clock', { dateTime: new Date(Date.now() + (30 + 181) * DAY).toISOString() });
      expect(await consentStatusOf(client, consentId)).toBe('expired');
    });
  });

  it('starts the authorisation explicitly under /consents/{id}/authorisations, lists it and reads its scaStatus', async () => {
    const { psuId, account } = await psuWithAccount();
    const created = await server.client.post<any>('/v1/consents', consentBody(detailedAccess(account)), {
      headers: { 'psu-id': psuId, 'tpp-explicit-authorisation-preferred': 'true' },
    });
    expect(created.status, created.text).toBe(201);
    const consentId = created.body.consentId as string;
    expect(created.body._links.scaRedirect).toBeUndefined();
    const startHref = created.body._links.startAuthorisation.href as string;
    expect(startHref).toMatch(new RegExp(`/v1/consents/${consentId}/authorisations$`));

    const started = await server.client.post<any>(new URL(startHref).pathname, undefined, { headers: { 'psu-id': psuId } });
    expect(started.status, started.text).toBe(201);
    expectBerlinGroupSchema('startScaprocessResponse', started.body);
    expect(started.body.scaStatus).toBe('received');
    const authorisationId = started.body.authorisationId as string;
    expect(started.headers['location']).toMatch(new RegExp(`/v1/consents/${consentId}/authorisations/${authorisationId}$`));

    const list = await server.client.get<any>(`/v1/consents/${consentId}/authorisations`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ authorisationIds: [authorisationId] });
    expectBerlinGroupSchema('authorisations', list.body);

    await walk(started.body._links.scaRedirect.href as string);
    const status = await server.client.get<any>(`/v1/consents/${consentId}/authorisations/${authorisationId}`);
    expect(status.status).toBe(200);
    expect(status.body.scaStatus).toBe('finalised');
    expectBerlinGroupSchema('scaStatusResponse', status.body);
    expect(await consentStatusOf(server.client, consentId)).toBe('valid');

    // A valid consent waits for no approval: no further authorisation is started.
    const again = await server.client.post<any>(`/v1/consents/${consentId}/authorisations`, undefined, { headers: { 'psu-id': psuId } });
    expectError(again, 409, 'STATUS_INVALID');
  });

  it("keeps another TPP out of a consent's authorisations (401 CONSENT_UNKNOWN)", async () => {
    const { psuId, account } = await psuWithAccount();
    const { consentId } = await createConsent(server.client, consentBody(detailedAccess(account)), { 'psu-id': psuId });
    const other = (await server.newTpp('PSDNO-FSA-777777777')).client;
    expectError(await other.get<any>(`/v1/consents/${consentId}/authorisations`), 401, 'CONSENT_UNKNOWN', 'consentId');
    expectError(
      await other.post<any>(`/v1/consents/${consentId}/authorisations`, undefined, { headers: { 'psu-id': psuId } }),
      401,
      'CONSENT_UNKNOWN',
      'consentId',
    );
    expect((await server.client.get<any>(`/v1/consents/${consentId}/authorisations`)).body.authorisationIds).toHaveLength(1);
  });
});
