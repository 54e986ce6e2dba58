/**
 * A consent naming an account of a corporate agreement (docs/design.md §2b): before a PSU has
 * logged in, its creation tells the TPP nothing it may not know yet. Without PSU-ID, or with the
 * PSU-ID of a PSU not engaged on the account, it answers as for another customer's account (201,
 * the SCA to come), whatever PSU-Corporate-ID says, and no answer names the agreement or its owner:
 * else a TPP could probe account numbers for corporate accounts and organisation numbers for their
 * owners. The SCA page then decides: a PSU who may not share the account sees that it cannot, and
 * the consent is rejected; a PSU of the agreement named in PSU-Corporate-ID shares it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { DIALECTS } from '../support/databases.js';
import { anotherOrganisationNumber, corporation, type Corporation } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { enterCode, identify, NOK_URI, OK_URI, openPage, otherBrowser, walk } from '../support/sca.js';
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

  it('is refused on the SCA page to a PSU who may not share it: the page says so, names no owner, and the consent is rejected', async () => {
    const spaced = `${company.account.bban.slice(0, 4)}.${company.account.bban.slice(4, 6)}.${company.account.bban.slice(6)}`;
    for (const psuId of [stranger, company.registrar.customerNumber]) {
      // Without PSU-Corporate-ID the PSU shares its own accounts only, even one engaged on the agreement.
      const { consentId, scaRedirect } = await createConsent(server.client, consentBody(detailedAccess(company.account)), REDIRECTS);
      const browser = otherBrowser();
      await identify(scaRedirect!, psuId, browser);
      await enterCode(scaRedirect!, undefined, browser);
      const text = pageText((await openPage(scaRedirect!, { ...browser, language: 'en' })).text);
      expect(text).toContain(`Cannot be shared ${spaced}: not an account you can share`);
      expect(text).not.toContain(OWNER_NAME);
      expect(text).not.toContain(company.organisationNumber);
      const journey = await walk(scaRedirect!, { cookies: browser.cookies });
      expect(journey.redirectedTo).toBeUndefined();
      expect(await consentStatusOf(server.client, consentId)).toBe('rejected');
    }
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
