/**
 * Corporate multi-level SCA of consents (docs/design.md §2b): when the bank says an engaged PSU
 * does not share an account's information alone (the sandbox engagement's
 * consentNeedsSecondApprover), that PSU's approval leaves the consent partiallyAuthorised, with the
 * accounts chosen; the TPP starts another authorisation and a second PSU of the agreement approves
 * the same accounts (nothing to tick) to make it valid. Reads wait until then. The same PSU twice
 * fails that authorisation and the consent keeps waiting; a second approver who may not view and
 * register on every account granted, or a failed second SCA, rejects the consent, as a payment in
 * PATC is rejected. Without the setting one approver suffices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { choiceLabelsOf, consentBody, consentStatusOf, createConsent, pageText } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { expectError } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import {
  alertOf,
  enterCode,
  identify,
  inputOf,
  NOK_URI,
  OK_URI,
  openPage,
  otherBrowser,
  scaStatusOf,
  startAuthorisation,
  walk,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const REDIRECTS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
const ALREADY = 'You have already approved this consent; another approver must approve it too';
const BANK_OFFERED = { accounts: [], balances: [], transactions: [] };

/**
 * A corporation with two accounts. `jointly` may not share alone (consentNeedsSecondApprover on
 * both accounts); `alone` and `second` may (REGISTER and VIEW on both); `partly` has REGISTER and
 * VIEW on the first account only and VIEW on the other; `viewer` may only view the first.
 */
interface Company {
  readonly organisationNumber: string;
  readonly accounts: readonly { bban: string; iban: string }[];
  readonly jointly: string;
  readonly alone: string;
  readonly second: string;
  readonly partly: string;
  readonly viewer: string;
  headers(psuId: string): Record<string, string>;
}

describe.each(DIALECTS)('corporate multi-level consent SCA (%s)', (dialect) => {
  let server: TestServer;
  let company: Company;

  async function newCompany(): Promise<Company> {
    const client = server.client;
    const owner = await createCustomer(client, 'CORPORATE', 'Tosignatur AS');
    const first = await createAccount(client, owner.customerNumber, { name: 'Driftskonto' });
    const second = await createAccount(client, owner.customerNumber, { name: 'Skattetrekk' });
    const [jointly, alone, secondApprover, partly, viewer] = await Promise.all(
      Array.from({ length: 5 }, async () => (await createCustomer(client)).customerNumber),
    );
    const both = ['REGISTER', 'VIEW'];
    const on = (customer: string, account: { bban: string }, roles: string[], extra: Record<string, unknown> = {}) => ({
      customer,
      account: { bban: account.bban },
      roles,
      ...extra,
    });
    const response = await client.post<any>('/v1/sandbox/agreements', {
      owner: owner.customerNumber,
      engagements: [
        on(jointly!, first, both, { consentNeedsSecondApprover: true }),
        on(jointly!, second, both, { consentNeedsSecondApprover: true }),
        on(alone!, first, both),
        on(alone!, second, both, { consentNeedsSecondApprover: false }),
        on(secondApprover!, first, both),
        on(secondApprover!, second, both),
        on(partly!, first, both),
        on(partly!, second, ['VIEW']),
        on(viewer!, first, ['VIEW']),
      ],
    });
    expect(response.status, response.text).toBe(201);
    const organisationNumber = response.body.organisationNumber as string;
    return {
      organisationNumber,
      accounts: [first, second],
      jointly: jointly!,
      alone: alone!,
      second: secondApprover!,
      partly: partly!,
      viewer: viewer!,
      headers: (psuId) => ({ 'psu-id': psuId, 'psu-corporate-id': organisationNumber }),
    };
  }

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    company = await newCompany();
  });
  afterAll(() => server.close());

  const readAccounts = (consentId: string) => server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
  /** `POST …/authorisations` for the second approver, answered as it is. */
  const tryStart = (consentId: string) =>
    server.client.post<any>(`/v1/consents/${consentId}/authorisations`, undefined, { headers: { 'psu-id': company.second } });

  /** A bank-offered consent of `company.jointly` approved once, sharing the first account: partiallyAuthorised. */
  async function partlyApproved(headers: Record<string, string> = REDIRECTS) {
    const created = await createConsent(server.client, consentBody(BANK_OFFERED), { ...company.headers(company.jointly), ...headers });
    await walk(created.scaRedirect!, { choose: (label) => label.startsWith('Driftskonto') });
    expect(await consentStatusOf(server.client, created.consentId)).toBe('partiallyAuthorised');
    return created;
  }

  it('keeps the sandbox setting on the engagement: shown when true, absent by default, refused when not a boolean', async () => {
    const agreements = await server.client.get<any>('/v1/sandbox/agreements');
    const ours = (agreements.body.agreements as any[]).find((agreement) => agreement.organisationNumber === company.organisationNumber);
    const of = (customer: string) => (ours.engagements as any[]).filter((engagement) => engagement.customer === customer);
    expect(of(company.jointly).map((engagement) => engagement.consentNeedsSecondApprover)).toEqual([true, true]);
    expect(of(company.alone).map((engagement) => engagement.consentNeedsSecondApprover)).toEqual([undefined, undefined]);
    const refused = await server.client.post<any>(`/v1/sandbox/agreements/${ours.agreementId}/engagements`, {
      customer: company.viewer,
      account: { bban: company.accounts[1]!.bban },
      roles: ['VIEW'],
      consentNeedsSecondApprover: 'yes',
    });
    expect(refused.status, refused.text).toBe(400);
    expect(of(company.viewer)).toHaveLength(1);
  });

  it('a PSU who may share alone makes the consent valid with one approval, as before', async () => {
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody(BANK_OFFERED), {
      ...company.headers(company.alone),
      ...REDIRECTS,
    });
    expect((await walk(scaRedirect!)).redirectedTo).toBe(OK_URI);
    expect(await consentStatusOf(server.client, consentId)).toBe('valid');
  });

  it('the first approval leaves partiallyAuthorised with the accounts chosen; reads wait; a second PSU approves the same accounts and it is valid', async () => {
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody(BANK_OFFERED), {
      ...company.headers(company.jointly),
      ...REDIRECTS,
    });
    const first = await walk(scaRedirect!, { choose: (label) => label.startsWith('Driftskonto') });
    expect(first.redirectedTo).toBe(OK_URI);
    const firstAuthorisations = (await server.client.get<any>(`/v1/consents/${consentId}/authorisations`)).body.authorisationIds;
    expect(firstAuthorisations).toHaveLength(1);
    const firstStatus = await server.client.get<any>(`/v1/consents/${consentId}/authorisations/${firstAuthorisations[0]}`);
    expect(firstStatus.body).toEqual({ scaStatus: 'finalised' });
    expectBerlinGroupSchema('scaStatusResponse', firstStatus.body);

    const status = await server.client.get<any>(`/v1/consents/${consentId}/status`);
    expect(status.body).toEqual({ consentStatus: 'partiallyAuthorised' });
    expectBerlinGroupSchema('consentStatusResponse-200', status.body);
    const consent = await server.client.get<any>(`/v1/consents/${consentId}`);
    expectBerlinGroupSchema('consentInformationResponse-200_json', consent.body);
    expect(consent.body.consentStatus).toBe('partiallyAuthorised');
    const chosen = [{ iban: company.accounts[0]!.iban, currency: 'NOK' }];
    expect(consent.body.access).toEqual({ accounts: chosen, balances: chosen, transactions: chosen });
    expectError(await readAccounts(consentId), 401, 'CONSENT_INVALID', 'Consent-ID');

    // The next approver is another PSU: the TPP names none, and the page expects none.
    const next = await startAuthorisation(server.client, `/v1/consents/${consentId}`);
    expectBerlinGroupSchema('startScaprocessResponse', next.response.body);
    expect(next.response.body.scaStatus).toBe('received');
    const browser = otherBrowser();
    expect(inputOf((await openPage(next.scaRedirect, browser)).text, 'psuId')).not.toContain('readonly');
    await identify(next.scaRedirect, company.second, browser);
    await enterCode(next.scaRedirect, undefined, browser);
    const page = (await openPage(next.scaRedirect, { ...browser, language: 'en' })).text;
    expect(choiceLabelsOf(page)).toEqual([]);
    const text = pageText(page);
    expect(text).toContain('Approved by Another approver of your company. Your approval completes the consent.');
    const spaced = (bban: string) => `${bban.slice(0, 4)}.${bban.slice(4, 6)}.${bban.slice(6)}`;
    expect(text).toContain(`Accounts Driftskonto ${spaced(company.accounts[0]!.bban)} (NOK)`);
    expect(text).not.toContain('Skattetrekk');
    expect(text).toContain('Information Account details, balances and transactions');
    expect(pageText((await openPage(next.scaRedirect, { ...browser, language: 'nb' })).text)).toContain(
      'Godkjent av En annen godkjenner i bedriften. Din godkjenning fullfører samtykket.',
    );

    const second = await walk(next.scaRedirect, { cookies: browser.cookies });
    expect(second.redirectedTo).toBe(OK_URI);
    expect(await scaStatusOf(server.client, next.scaStatus)).toEqual({ scaStatus: 'finalised' });
    expect(await consentStatusOf(server.client, consentId)).toBe('valid');
    const after = await server.client.get<any>(`/v1/consents/${consentId}`);
    expect(after.body.access).toEqual({ accounts: chosen, balances: chosen, transactions: chosen });
    const accounts = await readAccounts(consentId);
    expect(accounts.status, accounts.text).toBe(200);
    expect((accounts.body.accounts as any[]).map((account) => account.iban)).toEqual([company.accounts[0]!.iban]);
  });

  it('an account list consent: the second approver reads that the list is shared, and approves it', async () => {
    const { consentId, scaRedirect } = await createConsent(
      server.client,
      consentBody({ availableAccounts: 'allAccounts' }, { recurringIndicator: false, frequencyPerDay: 1 }),
      { ...company.headers(company.jointly), ...REDIRECTS },
    );
    await walk(scaRedirect!);
    expect(await consentStatusOf(server.client, consentId)).toBe('partiallyAuthorised');
    const next = await startAuthorisation(server.client, `/v1/consents/${consentId}`, { 'psu-id': company.second });
    const browser = otherBrowser();
    await identify(next.scaRedirect, '', browser);
    await enterCode(next.scaRedirect, undefined, browser);
    const text = pageText((await openPage(next.scaRedirect, browser)).text);
    expect(text).toContain('Information The list of the accounts');
    expect(text).toContain('Driftskonto');
    expect(text).toContain('Skattetrekk');
    await walk(next.scaRedirect, { cookies: browser.cookies });
    expect(await consentStatusOf(server.client, consentId)).toBe('valid');
    const accounts = await readAccounts(consentId);
    expect(accounts.status, accounts.text).toBe(200);
    expect((accounts.body.accounts as any[]).map((account) => account.iban).sort()).toEqual(
      company.accounts.map((account) => account.iban).sort(),
    );
  });

  it("once valid, ends the TPP's older valid recurring consent of the first approver for the same accounts", async () => {
    const older = await partlyApproved();
    await walk((await startAuthorisation(server.client, `/v1/consents/${older.consentId}`, { 'psu-id': company.second })).scaRedirect);
    expect(await consentStatusOf(server.client, older.consentId)).toBe('valid');
    const newer = await partlyApproved();
    // Waiting for its second approver, the newer consent ends nothing yet.
    expect(await consentStatusOf(server.client, older.consentId)).toBe('valid');
    await walk((await startAuthorisation(server.client, `/v1/consents/${newer.consentId}`, { 'psu-id': company.alone })).scaRedirect);
    expect(await consentStatusOf(server.client, newer.consentId)).toBe('valid');
    expect(await consentStatusOf(server.client, older.consentId)).toBe('terminatedByTpp');
  });

  it('tells the first approver that another approver must approve too (outcome page without redirect URI)', async () => {
    const { scaRedirect } = await createConsent(server.client, consentBody(BANK_OFFERED), company.headers(company.jointly));
    const journey = await walk(scaRedirect!, { choose: (label) => label.startsWith('Driftskonto') });
    expect(journey.redirectedTo).toBeUndefined();
    expect(pageText(journey.lastPage)).toContain('Another approver of your company must approve it too');
  });

  it('the same PSU approving again fails that authorisation and the consent keeps waiting for another approver', async () => {
    const { consentId } = await partlyApproved();
    const again = await startAuthorisation(server.client, `/v1/consents/${consentId}`, { 'psu-id': company.jointly });
    const journey = await walk(again.scaRedirect);
    expect(journey.redirectedTo).toBeUndefined();
    expect(alertOf(journey.lastPage)).toBe(ALREADY);
    const failed = await scaStatusOf(server.client, again.scaStatus);
    expect(failed).toEqual({ scaStatus: 'failed', psuMessage: ALREADY });
    expectBerlinGroupSchema('scaStatusResponse', failed);
    const nb = await scaStatusOf(server.client, again.scaStatus, 'nb');
    expect(nb.psuMessage).toBe('Du har allerede godkjent dette samtykket; en annen må også godkjenne det');
    expect(await consentStatusOf(server.client, consentId)).toBe('partiallyAuthorised');

    const next = await startAuthorisation(server.client, `/v1/consents/${consentId}`, { 'psu-id': company.alone });
    expect((await walk(next.scaRedirect)).redirectedTo).toBe(OK_URI);
    expect(await consentStatusOf(server.client, consentId)).toBe('valid');
  });

  it('a second approver who may not view and register on every account granted is refused, and the consent is rejected', async () => {
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody(BANK_OFFERED), {
      ...company.headers(company.jointly),
      ...REDIRECTS,
    });
    await walk(scaRedirect!);
    expect((await server.client.get<any>(`/v1/consents/${consentId}`)).body.access.accounts).toHaveLength(2);
    const next = await startAuthorisation(server.client, `/v1/consents/${consentId}`, { 'psu-id': company.partly });
    const browser = otherBrowser();
    await identify(next.scaRedirect, '', browser);
    await enterCode(next.scaRedirect, undefined, browser);
    expect(pageText((await openPage(next.scaRedirect, browser)).text)).toContain(
      `Cannot be shared ${company.accounts[1]!.iban}: not an account you can share. The consent cannot be given.`,
    );
    const journey = await walk(next.scaRedirect, { cookies: browser.cookies });
    const message = `You may not share the information of ${company.accounts[1]!.iban}, which this consent shares`;
    // The PSU reads why on the page before going back to the TPP.
    expect(journey.redirectedTo).toBeUndefined();
    expect(alertOf(journey.lastPage)).toBe(message);
    expect(await scaStatusOf(server.client, next.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: message });
    expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
    expectError(await readAccounts(consentId), 401, 'CONSENT_INVALID', 'Consent-ID');

    // A PSU who may only view is refused the same way.
    const viewed = await partlyApproved();
    const byViewer = await startAuthorisation(server.client, `/v1/consents/${viewed.consentId}`, { 'psu-id': company.viewer });
    await walk(byViewer.scaRedirect);
    expect((await scaStatusOf(server.client, byViewer.scaStatus)).psuMessage).toBe(
      `You may not share the information of ${company.accounts[0]!.iban}, which this consent shares`,
    );
    expect(await consentStatusOf(server.client, viewed.consentId)).toBe('rejected');
  });

  it('a failed SCA on the second authorisation rejects the consent, as it rejects a payment in PATC', async () => {
    const { consentId } = await partlyApproved();
    const next = await startAuthorisation(server.client, `/v1/consents/${consentId}`, { 'psu-id': company.second });
    expect((await walk(next.scaRedirect, { decision: 'reject' })).redirectedTo).toBe(NOK_URI);
    expect((await scaStatusOf(server.client, next.scaStatus)).scaStatus).toBe('failed');
    expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
    expectError(await tryStart(consentId), 409, 'STATUS_INVALID');
  });

  it('a second authorisation naming another agreement in PSU-Corporate-ID is refused (401 CORPORATE_ID_INVALID)', async () => {
    const { consentId } = await partlyApproved();
    const other = await newCompany();
    const refused = await server.client.post<any>(`/v1/consents/${consentId}/authorisations`, undefined, {
      headers: { 'psu-id': company.second, 'psu-corporate-id': other.organisationNumber },
    });
    expectError(refused, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
    expect(await consentStatusOf(server.client, consentId)).toBe('partiallyAuthorised');
  });

  it('the TPP may end a partially authorised consent (DELETE: terminatedByTpp)', async () => {
    const { consentId } = await partlyApproved();
    expect((await server.client.delete<any>(`/v1/consents/${consentId}`)).status).toBe(204);
    expect(await consentStatusOf(server.client, consentId)).toBe('terminatedByTpp');
  });
});
