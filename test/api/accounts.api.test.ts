/**
 * Account and card account reads under a consent (docs/design.md §2b): the Berlin Group shapes,
 * opaque per-TPP resource ids, balances from the bank port, ownerName when asked, and the
 * Consent-ID checks (missing 400, unknown 401 CONSENT_UNKNOWN, not valid 401 CONSENT_INVALID or
 * CONSENT_EXPIRED, outside the consent 401 CONSENT_INVALID, another TPP's account id 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { expectError } from '../support/payments.js';
import { createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { approvedConsent, consentBody, createConsent } from '../support/consents.js';

const LONG_NAME = 'Felleskonto for hytta på Hvaler, vedlikehold og strøm, med innbo og brygge'.slice(0, 70);

describe.each(DIALECTS)('account reads (%s)', (dialect) => {
  let server: TestServer;
  let psuId: string;
  let main: { bban: string; iban: string; resourceId: string };
  let savings: { bban: string; iban: string };
  let third: { bban: string; iban: string };
  let maskedPan: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    const customer = await createCustomer(server.client, 'PRIVATE', 'Kari Nordmann');
    psuId = customer.customerNumber;
    main = await createAccount(server.client, psuId, { name: LONG_NAME });
    const set = await server.client.put<any>(`/v1/sandbox/accounts/${main.resourceId}/balance`, {
      balanceAmount: { currency: 'NOK', amount: '1234.50' },
    });
    expect(set.status, set.text).toBe(200);
    savings = await createAccount(server.client, psuId, { name: 'Sparekonto', product: 'Høyrente', cashAccountType: 'SVGS' });
    third = await createAccount(server.client, psuId, { name: 'Tredje' });
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', {
      customerNumber: psuId,
      name: 'Kari Mastercard',
      creditLimit: { currency: 'NOK', amount: '50000.00' },
    });
    expect(card.status, card.text).toBe(201);
    maskedPan = card.body.maskedPan as string;
  });
  afterAll(() => server.close());

  const approve = (body: Record<string, unknown>, client: TppClient = server.client, psu = psuId) =>
    approvedConsent(client, body, { 'psu-id': psu }, (link) => walk(link));
  const read = (path: string, consentId: string | undefined, client: TppClient = server.client, headers: Record<string, string> = {}) =>
    client.get<any>(path, { headers: { ...(consentId === undefined ? {} : { 'consent-id': consentId }), ...headers } });

  async function resourceIdOf(consentId: string, bban: string): Promise<string> {
    const list = await read('/v1/accounts', consentId);
    expect(list.status, list.text).toBe(200);
    const account = list.body.accounts.find((entry: any) => entry.bban === bban);
    if (!account) throw new Error(`${bban} is not listed: ${list.text}`);
    return account.resourceId as string;
  }

  it('lists the accounts of a detailed consent in the Berlin Group shape, balances only where granted', async () => {
    const consentId = await approve(consentBody({ accounts: [{ bban: savings.bban }], balances: [{ iban: main.iban }] }));
    const list = await read('/v1/accounts?withBalance=true', consentId);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('accountList', list.body);
    expect(list.body.accounts).toHaveLength(2);
    const shown = Object.fromEntries(list.body.accounts.map((account: any) => [account.bban, account]));
    expect(shown[main.bban]).toMatchObject({
      iban: main.iban,
      currency: 'NOK',
      name: LONG_NAME,
      cashAccountType: 'CACC',
      status: 'enabled',
      usage: 'PRIV',
    });
    expect(shown[main.bban].ownerName).toBeUndefined();
    expect(shown[main.bban].balances.map((balance: any) => balance.balanceType)).toEqual(['closingBooked', 'expected', 'interimAvailable']);
    expect(shown[main.bban].balances[0]).toMatchObject({
      balanceAmount: { currency: 'NOK', amount: '1234.50' },
      referenceDate: expect.any(String),
    });
    expect(shown[main.bban]._links.balances.href).toContain(`/v1/accounts/${shown[main.bban].resourceId}/balances`);
    expect(shown[savings.bban]).toMatchObject({ name: 'Sparekonto', product: 'Høyrente', cashAccountType: 'SVGS' });
    expect(shown[savings.bban].balances).toBeUndefined();
    expect(shown[savings.bban]._links).toEqual({});
    for (const account of list.body.accounts) {
      expect(account.resourceId).not.toContain(account.bban);
      expect(account.resourceId).not.toContain(account.bban.slice(4));
    }
  });

  it('reads one account and its balances; the balances of an account granted for details only are 401 CONSENT_INVALID', async () => {
    const consentId = await approve(consentBody({ accounts: [{ bban: savings.bban }], balances: [{ bban: main.bban }] }));
    const mainId = await resourceIdOf(consentId, main.bban);
    const details = await read(`/v1/accounts/${mainId}?withBalance=true`, consentId);
    expect(details.status, details.text).toBe(200);
    expectBerlinGroupSchema('accountDetails', details.body.account);
    expect(details.body.account).toMatchObject({ resourceId: mainId, bban: main.bban, balances: expect.any(Array) });
    const balances = await read(`/v1/accounts/${mainId}/balances`, consentId);
    expect(balances.status, balances.text).toBe(200);
    expectBerlinGroupSchema('readAccountBalanceResponse-200', balances.body);
    expect(balances.body.account).toEqual({ iban: main.iban, currency: 'NOK' });
    expect(balances.body.balances).toEqual([
      {
        balanceType: 'closingBooked',
        balanceAmount: { currency: 'NOK', amount: '1234.50' },
        referenceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
      { balanceType: 'expected', balanceAmount: { currency: 'NOK', amount: '1234.50' }, lastChangeDateTime: expect.any(String) },
      {
        balanceType: 'interimAvailable',
        balanceAmount: { currency: 'NOK', amount: '1234.50' },
        creditLimitIncluded: true,
        lastChangeDateTime: expect.any(String),
      },
    ]);
    expect(balances.body.balances[0].referenceDate < osloDay()).toBe(true);
    const savingsId = await resourceIdOf(consentId, savings.bban);
    expectError(await read(`/v1/accounts/${savingsId}/balances`, consentId), 401, 'CONSENT_INVALID');
  });

  it('gives each TPP its own stable resource ids; another TPP’s id is 404', async () => {
    const first = await approve(consentBody({ allPsd2: 'allAccounts' }));
    const second = await approve(consentBody({ accounts: [{ bban: main.bban }] }));
    const id = await resourceIdOf(first, main.bban);
    expect(await resourceIdOf(second, main.bban)).toBe(id);

    const other = await server.newTpp('PSDNO-FSA-555555555');
    const customer = await createCustomer(other.client);
    const account = await createAccount(other.client, customer.customerNumber);
    const theirs = await approvedConsent(
      other.client,
      consentBody({ allPsd2: 'allAccounts' }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    const theirList = await read('/v1/accounts', theirs, other.client);
    expect(theirList.body.accounts.map((entry: any) => entry.bban)).toEqual([account.bban]);
    expect(theirList.body.accounts[0].resourceId).not.toBe(id);
    expectError(await read(`/v1/accounts/${id}`, theirs, other.client), 404, 'RESOURCE_UNKNOWN', 'account-id');
    expectError(await read(`/v1/accounts/${id}`, first, other.client), 401, 'CONSENT_UNKNOWN', 'Consent-ID');
  });

  it('refuses an account outside the consent with 401 CONSENT_INVALID at account-id', async () => {
    const global = await approve(consentBody({ allPsd2: 'allAccounts' }));
    const thirdId = await resourceIdOf(global, third.bban);
    const narrow = await approve(consentBody({ accounts: [{ bban: main.bban }] }));
    for (const path of [`/v1/accounts/${thirdId}`, `/v1/accounts/${thirdId}/balances`, `/v1/accounts/${thirdId}/transactions`]) {
      const refused = await read(path, narrow);
      expectError(refused, 401, 'CONSENT_INVALID', 'account-id');
      expect(refused.body.tppMessages[0].text).toContain('the consent does not cover this account');
    }
  });

  it('shows ownerName only when the consent asks for it', async () => {
    const withOwner = await approve(consentBody({ allPsd2: 'allAccountsWithOwnerName' }));
    const list = await read('/v1/accounts', withOwner);
    expect(list.body.accounts.map((account: any) => account.ownerName)).toEqual(list.body.accounts.map(() => 'Kari Nordmann'));
    const detailed = await approve(
      consentBody({ accounts: [{ bban: main.bban }, { bban: savings.bban }], additionalInformation: { ownerName: [{ bban: main.bban }] } }),
    );
    const shown = (await read('/v1/accounts', detailed)).body.accounts;
    expect(Object.fromEntries(shown.map((account: any) => [account.bban, account.ownerName]))).toEqual({
      [main.bban]: 'Kari Nordmann',
      [savings.bban]: undefined,
    });
  });

  it('checks Consent-ID: missing 400, unknown 401 CONSENT_UNKNOWN, not approved or ended 401 CONSENT_INVALID', async () => {
    expectError(await read('/v1/accounts', undefined), 400, 'FORMAT_ERROR', 'Consent-ID');
    expectError(await read('/v1/accounts', 'no-such-consent'), 401, 'CONSENT_UNKNOWN', 'Consent-ID');
    const { consentId } = await createConsent(server.client, consentBody({ allPsd2: 'allAccounts' }), { 'psu-id': psuId });
    expectError(await read('/v1/accounts', consentId), 401, 'CONSENT_INVALID', 'Consent-ID');
    const valid = await approve(consentBody({ allPsd2: 'allAccounts' }));
    expect((await server.client.delete<any>(`/v1/consents/${valid}`)).status).toBe(204);
    expectError(await read('/v1/accounts', valid), 401, 'CONSENT_INVALID', 'Consent-ID');
  });

  it('uses up a one-off account-list consent with its first read: a second is 401 CONSENT_EXPIRED', async () => {
    const consentId = await approve(consentBody({ availableAccounts: 'allAccounts' }, { recurringIndicator: false, frequencyPerDay: 1 }));
    expectError(await read('/v1/accounts?withBalance=true', consentId), 401, 'CONSENT_INVALID');
    const list = await read('/v1/accounts', consentId);
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.map((account: any) => account.bban).sort()).toEqual([main.bban, savings.bban, third.bban].sort());
    expect(list.body.accounts.every((account: any) => account.balances === undefined && Object.keys(account._links).length === 0)).toBe(
      true,
    );
    expectError(await read('/v1/accounts', consentId), 401, 'CONSENT_EXPIRED', 'Consent-ID');
    expect((await server.client.get<any>(`/v1/consents/${consentId}/status`)).body.consentStatus).toBe('expired');
  });

  it('lists the balances of an account-list consent that asked for them', async () => {
    const consentId = await approve(consentBody({ availableAccountsWithBalance: 'allAccounts' }, { recurringIndicator: false }));
    const list = await read('/v1/accounts?withBalance=true', consentId);
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.every((account: any) => account.balances.length === 3)).toBe(true);
    // Read without the PSU, yet counted against no frequencyPerDay: the one-off consent is its limit.
    expect(list.headers.ratelimit).toBeUndefined();
  });

  it('reads card accounts: list, details and balances with the credit limit included', async () => {
    const consentId = await approve(consentBody({ balances: [{ maskedPan }] }));
    const list = await read('/v1/card-accounts?withBalance=true', consentId);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('cardAccountList', list.body);
    expect(list.body.cardAccounts).toHaveLength(1);
    const [card] = list.body.cardAccounts;
    expect(card).toMatchObject({
      maskedPan,
      currency: 'NOK',
      name: 'Kari Mastercard',
      creditLimit: { currency: 'NOK', amount: '50000.00' },
    });
    expect((await read('/v1/accounts', consentId)).body).toEqual({ accounts: [] });
    const details = await read(`/v1/card-accounts/${card.resourceId}`, consentId);
    expect(details.status, details.text).toBe(200);
    expectBerlinGroupSchema('cardAccountDetails', details.body.cardAccount);
    const balances = await read(`/v1/card-accounts/${card.resourceId}/balances`, consentId);
    expect(balances.status, balances.text).toBe(200);
    expectBerlinGroupSchema('readCardAccountBalanceResponse-200', balances.body);
    expect(balances.body.cardAccount).toEqual({ maskedPan, currency: 'NOK' });
    const available = balances.body.balances.find((balance: any) => balance.balanceType === 'interimAvailable');
    expect(available).toMatchObject({ balanceAmount: { currency: 'NOK', amount: '50000.00' }, creditLimitIncluded: true });
    expectError(await read(`/v1/accounts/${card.resourceId}`, consentId), 404, 'RESOURCE_UNKNOWN', 'account-id');
  });

  it('links each account to its balances and its transactions, each only where the consent grants them', async () => {
    const consentId = await approve(
      consentBody({
        accounts: [{ bban: savings.bban }],
        balances: [{ bban: main.bban }, { maskedPan }],
        transactions: [{ bban: main.bban }, { bban: third.bban }, { maskedPan }],
      }),
    );
    // The links' paths (their origin is the server's public URL).
    const paths = (links: Record<string, { href: string }>) =>
      Object.fromEntries(Object.entries(links).map(([name, link]) => [name, new URL(link.href).pathname]));
    const list = await read('/v1/accounts', consentId);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('accountList', list.body);
    const shown = Object.fromEntries(list.body.accounts.map((account: any) => [account.bban, account]));
    const base = (bban: string) => `/v1/accounts/${shown[bban].resourceId}`;
    expect(paths(shown[main.bban]._links)).toEqual({
      balances: `${base(main.bban)}/balances`,
      transactions: `${base(main.bban)}/transactions`,
    });
    expect(paths(shown[third.bban]._links)).toEqual({ transactions: `${base(third.bban)}/transactions` });
    expect(shown[savings.bban]._links).toEqual({});
    const details = await read(base(third.bban), consentId);
    expect(details.status, details.text).toBe(200);
    expectBerlinGroupSchema('accountDetails', details.body.account);
    expect(details.body.account._links).toEqual(shown[third.bban]._links);
    // The link leads where it says: the account's transactions under this consent.
    const transactions = await read(paths(shown[third.bban]._links).transactions!, consentId);
    expect(transactions.status, transactions.text).toBe(200);

    const cards = await read('/v1/card-accounts', consentId);
    expect(cards.status, cards.text).toBe(200);
    expectBerlinGroupSchema('cardAccountList', cards.body);
    const [card] = cards.body.cardAccounts;
    const cardBase = `/v1/card-accounts/${card.resourceId}`;
    expect(paths(card._links)).toEqual({ balances: `${cardBase}/balances`, transactions: `${cardBase}/transactions` });
    const cardDetails = await read(cardBase, consentId);
    expect(cardDetails.status, cardDetails.text).toBe(200);
    expectBerlinGroupSchema('cardAccountDetails', cardDetails.body.cardAccount);
    expect(cardDetails.body.cardAccount._links).toEqual(card._links);
  });

  it('refuses a TPP without PSP_AI with 401 ROLE_INVALID', async () => {
    const { client } = await server.newTpp('PSDNO-FSA-666666666', ['PSP_PI']);
    expectError(await read('/v1/accounts', 'any', client), 401, 'ROLE_INVALID');
  });
});
