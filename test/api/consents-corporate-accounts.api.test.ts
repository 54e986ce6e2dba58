/**
 * A consent naming an account of a corporate agreement (docs/design.md §2b): before a PSU has
 * logged in, its creation tells the TPP nothing it may not know yet. Without PSU-ID, or with the
 * PSU-ID of a PSU not engaged on the account, it answers as for another customer's account (201,
 * the SCA to come), whatever PSU-Corporate-ID says, and no answer names the agreement or its owner:
 * else a TPP could probe account numbers for corporate accounts and organisation numbers for their
 * owners. The SCA page then decides: a PSU who may not share the account sees that it cannot, and
 * the consent is rejected; a PSU of the agreement named in PSU-Corporate-ID shares it. Asked
 * without PSU-Corporate-ID, a PSU with a role on the account (logged in now) reads why it cannot
 * share it: its company's account, to be asked for on the company's behalf; no other PSU, and not
 * the TPP, learns that it is corporate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { DIALECTS } from '../support/databases.js';
import { anotherOrganisationNumber, corporation, type Corporation } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { enterCode, identify, idOfLink, NOK_URI, OK_URI, openPage, otherBrowser, scaStatusOf, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { consentBody, consentStatusOf, createConsent, detailedAccess, pageText } from '../support/consents.js';

const REDIRECTS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
/** The corporate owner's name as test/support/payments.ts `corporation` creates it. */
const OWNER_NAME = 'Testfirma AS';

describe.each(DIALECTS)('a consent naming a corporate account (%s)', (dialect) => {
  let server: TestServer;
  let company: Corporation;
  /** An ordinary account of another (private) customer. */
  let foreign: { bban: string };
  /** A private customer engaged on no agreement. */
  let stranger: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    company = await corporation(server.client);
    const owner = await createCustomer(server.client);
    foreign = await createAccount(server.client, owner.customerNumber);
    stranger = (await createCustomer(server.client)).customerNumber;
  });
  afterAll(() => server.close());

  const post = (account: { bban: string }, headers: Record<string, string>) =>
    server.client.post<any>('/v1/consents', consentBody(detailedAccess(account)), { headers: { ...headers, ...REDIRECTS } });

  /** What a TPP could tell two answers apart by: status, members, consent status, links. */
  function shapeOf(response: TppResponse<any>) {
    return {
      status: response.status,
      members: Object.keys(response.body ?? {}).sort(),
      consentStatus: response.body?.consentStatus,
      links: Object.keys(response.body?._links ?? {}).sort(),
    };
  }

  /** The answers for the corporate account and for the foreign one are alike and name no agreement. */
  async function expectAnsweredAsForeign(headers: Record<string, string>) {
    const corporate = await post(company.account, headers);
    const ordinary = await post(foreign, headers);
    expect(shapeOf(corporate), corporate.text).toEqual(shapeOf(ordinary));
    expect(corporate.status, corporate.text).toBe(201);
    for (const answer of [corporate.text, JSON.stringify(corporate.headers)]) {
      expect(answer).not.toContain(OWNER_NAME);
      expect(answer).not.toContain(company.organisationNumber);
      expect(answer.toLowerCase()).not.toContain('corporate');
      expect(answer.toLowerCase()).not.toContain('bedrift');
    }
  }

  it('without PSU-ID answers as for another customer account, with or without a PSU-Corporate-ID, naming no owner', async () => {
    await expectAnsweredAsForeign({});
    await expectAnsweredAsForeign({ 'psu-corporate-id': company.organisationNumber });
    await expectAnsweredAsForeign({ 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber) });
  });

  it('with the PSU-ID of a PSU not engaged on it answers as for another customer account, naming no owner', async () => {
    await expectAnsweredAsForeign({ 'psu-id': stranger });
    await expectAnsweredAsForeign({ 'psu-id': stranger, 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber) });
  });

  const spaced = (bban: string) => `${bban.slice(0, 4)}.${bban.slice(4, 6)}.${bban.slice(6)}`;

  /** A consent asked without PSU-ID and PSU-Corporate-ID, its SCA walked by `psuId` up to the confirmation page. */
  async function confirmationPageOf(psuId: string) {
    const { consentId, scaRedirect } = await createConsent(server.client, consentBody(detailedAccess(company.account)), REDIRECTS);
    const browser = otherBrowser();
    await identify(scaRedirect!, psuId, browser);
    await enterCode(scaRedirect!, undefined, browser);
    const en = pageText((await openPage(scaRedirect!, { ...browser, language: 'en' })).text);
    const nb = pageText((await openPage(scaRedirect!, { ...browser, language: 'nb' })).text);
    return { consentId, scaRedirect: scaRedirect!, browser, en, nb };
  }

  /** The consent cannot be given, and what the TPP reads of the failure names neither the account's owner nor its agreement. */
  async function expectRefusedNeutrally(consentId: string, scaRedirect: string, browser: ReturnType<typeof otherBrowser>) {
    const journey = await walk(scaRedirect, { cookies: browser.cookies });
    expect(journey.redirectedTo).toBeUndefined();
    expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
    const scaStatus = `https://tpp.example/v1/consents/${consentId}/authorisations/${idOfLink(scaRedirect)}`;
    for (const language of ['en', 'nb']) {
      const { psuMessage } = await scaStatusOf(server.client, scaStatus, language);
      expect(psuMessage).toContain(language === 'en' ? 'which is not an account you can share' : 'som ikke er en konto du kan dele');
      for (const leak of [OWNER_NAME, company.organisationNumber, 'company', 'corporate', 'bedrift', 'PSU-Corporate-ID']) {
        expect(psuMessage).not.toContain(leak);
      }
    }
  }

  it('is refused on the SCA page to a PSU not engaged on it: the page says only that it cannot be shared, names no owner, and the consent is rejected', async () => {
    // A private customer engaged on no agreement, the PSU of another company's agreement, and a PSU
    // of this agreement with view only, who could not share it on the company's behalf either.
    const otherCompany = await corporation(server.client);
    for (const psuId of [stranger, otherCompany.registrar.customerNumber, company.viewer.customerNumber]) {
      const { consentId, scaRedirect, browser, en, nb } = await confirmationPageOf(psuId);
      expect(en).toContain(`Cannot be shared ${spaced(company.account.bban)}: not an account you can share. The consent cannot be given.`);
      expect(nb).toContain(`Kan ikke deles ${spaced(company.account.bban)}: ikke en konto du kan dele. Samtykket kan ikke gis.`);
      for (const text of [en, nb]) {
        for (const leak of [OWNER_NAME, company.organisationNumber, 'PSU-Corporate-ID', 'organisation number', 'organisasjonsnummer']) {
          expect(text).not.toContain(leak);
        }
      }
      expect(en.toLowerCase()).not.toContain('company');
      expect(en.toLowerCase()).not.toContain('corporate');
      expect(nb.toLowerCase()).not.toContain('bedrift');
      await expectRefusedNeutrally(consentId, scaRedirect, browser);
    }
  });

  it("tells a PSU of its agreement who may share it, asked for without PSU-Corporate-ID, that it is the company's account and the app must ask on its behalf; still refused", async () => {
    // Without PSU-Corporate-ID the PSU shares its own accounts only, even one engaged on the agreement.
    const { consentId, scaRedirect, browser, en, nb } = await confirmationPageOf(company.registrar.customerNumber);
    expect(en).toContain(
      `Cannot be shared ${spaced(company.account.bban)}: this account belongs to the agreement of your company ${OWNER_NAME} ` +
        `(organisation number ${company.organisationNumber}), but the app asked for it on your own behalf, as a private person. ` +
        'The consent cannot be given. Ask the app to start again and ask on behalf of the company, with its organisation number (PSU-Corporate-ID).',
    );
    expect(nb).toContain(
      `Kan ikke deles ${spaced(company.account.bban)}: kontoen hører til avtalen til bedriften din ${OWNER_NAME} ` +
        `(organisasjonsnummer ${company.organisationNumber}), men appen ba om den for deg selv, som privatperson. ` +
        'Samtykket kan ikke gis. Be appen starte på nytt og spørre på vegne av bedriften, med organisasjonsnummeret (PSU-Corporate-ID).',
    );
    expect(en).not.toContain('not an account you can share');
    // Nothing else changes: the consent cannot be given with it, and the TPP learns nothing of the company.
    await expectRefusedNeutrally(consentId, scaRedirect, browser);
  });

  it('is shared on the SCA page by a PSU of the agreement named in PSU-Corporate-ID; refused to one outside it, or under another agreement', async () => {
    const corporateId = { 'psu-corporate-id': company.organisationNumber, ...REDIRECTS };
    const shared = await createConsent(server.client, consentBody(detailedAccess(company.account)), corporateId);
    const registrar = await walk(shared.scaRedirect!, { psuId: company.registrar.customerNumber, cookies: otherBrowser().cookies });
    expect(registrar.redirectedTo).toBe(OK_URI);
    expect(await consentStatusOf(server.client, shared.consentId)).toBe('valid');

    const refused = await createConsent(server.client, consentBody(detailedAccess(company.account)), corporateId);
    const outsider = await walk(refused.scaRedirect!, { psuId: stranger, cookies: otherBrowser().cookies });
    expect(outsider.redirectedTo).toBeUndefined();
    expect(pageText(outsider.lastPage)).toContain('which is not an account you can share');
    expect(await consentStatusOf(server.client, refused.consentId)).toBe('rejected');

    // Another agreement named: even the agreement's own PSU cannot share the account under it.
    const elsewhere = { 'psu-corporate-id': anotherOrganisationNumber(company.organisationNumber), ...REDIRECTS };
    const misnamed = await createConsent(server.client, consentBody(detailedAccess(company.account)), elsewhere);
    const underAnother = await walk(misnamed.scaRedirect!, { psuId: company.registrar.customerNumber, cookies: otherBrowser().cookies });
    expect(underAnother.redirectedTo).toBeUndefined();
    expect(pageText(underAnother.lastPage)).toContain('which is not an account you can share');
    expect(pageText(underAnother.lastPage)).not.toContain(OWNER_NAME);
    expect(await consentStatusOf(server.client, misnamed.consentId)).toBe('rejected');
  });
});
