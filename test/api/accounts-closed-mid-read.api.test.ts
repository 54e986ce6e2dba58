/**
 * An account the bank closes while a read is answered (docs/design.md §2b): found when the list is
 * made, unknown when its balances are asked. The list leaves it out, as it leaves out a closed
 * account, instead of failing whole with a 404 at an `account-id` the list has not; a read of that
 * one account still answers 404 RESOURCE_UNKNOWN at `account-id`. The bank's answers about the
 * listed accounts may arrive in any order: the list keeps the consent's.
 */
import { describe, expect, it } from 'vitest';
import { BankError } from '../../src/bank/bank-error.js';
import { approvedConsent, consentBody } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { wrappedCoreBanking } from '../support/wrapped-core-banking.js';
import { freshTpp, useTestServer } from '../support/execution.js';
import { expectError } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { walk } from '../support/sca.js';

const PSU_PRESENT = { 'psu-ip-address': '2001:db8::7' };

describe.each(DIALECTS)('an account closed while a read is answered (%s)', (dialect) => {
  /** The BBANs of accounts the bank still finds but answers unknown for when their balances are read. */
  const closingBbans = new Set<string>();
  /** The BBANs of accounts the bank closes once the PSU's access to them was asked: it answers them unknown. */
  const closedBbans = new Set<string>();
  /** The BBANs of accounts the bank answers slowly: their answers arrive after the others'. */
  const slowBbans = new Set<string>();
  const server = useTestServer({
    dialect,
    coreBanking: (sandbox) =>
      wrappedCoreBanking(sandbox, {
        account:
          (account) =>
          async (...args) => {
            const found = await account(...args);
            if (found && slowBbans.has(found.bban)) await new Promise((resolve) => setTimeout(resolve, 200));
            return found && closedBbans.has(found.bban) ? undefined : found;
          },
        balances:
          (balances) =>
          async (...args) => {
            const [tpp, accountId] = args;
            const found = await sandbox.account(tpp, accountId);
            if (found && closingBbans.has(found.bban)) throw new BankError('unknown-account', `no account ${accountId}`);
            return balances(...args);
          },
      }),
  });

  async function setUp() {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const kept = await createAccount(client, customer.customerNumber, { name: 'Brukskonto' });
    const closing = await createAccount(client, customer.customerNumber, { name: 'Sparekonto' });
    const access = {
      accounts: [{ bban: kept.bban }, { bban: closing.bban }],
      balances: [{ bban: kept.bban }, { bban: closing.bban }],
      transactions: [{ bban: kept.bban }, { bban: closing.bban }],
    };
    const consentId = await approvedConsent(client, consentBody(access), { 'psu-id': customer.customerNumber }, (link) => walk(link));
    const list = await client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId, ...PSU_PRESENT } });
    expect(list.status, list.text).toBe(200);
    const resourceIdOf = (bban: string) => list.body.accounts.find((entry: any) => entry.bban === bban).resourceId as string;
    closingBbans.add(closing.bban);
    return { client, consentId, kept, closing, closingId: resourceIdOf(closing.bban) };
  }

  it('leaves it out of the list with balances, with the PSU present and without', async () => {
    const { client, consentId, kept } = await setUp();
    for (const headers of [PSU_PRESENT, {}]) {
      const list = await client.get<any>('/v1/accounts?withBalance=true', { headers: { 'consent-id': consentId, ...headers } });
      expect(list.status, list.text).toBe(200);
      expect(list.body.accounts.map((entry: any) => entry.bban)).toEqual([kept.bban]);
      expect(list.body.accounts[0].balances.length).toBeGreaterThan(0);
    }
  });

  it('counts no read of the account it left out against frequencyPerDay: its slots are given back', async () => {
    const { client, consentId, kept, closing, closingId } = await setUp();
    const unattended = { 'consent-id': consentId };
    const list = await client.get<any>('/v1/accounts?withBalance=true', { headers: unattended });
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.map((entry: any) => entry.bban)).toEqual([kept.bban]);
    expect(list.headers['ratelimit']).toMatch(/^limit=4, remaining=3, reset=\d+$/);
    // The bank has the account again: the list's read of it was given back, so this is its first.
    closingBbans.delete(closing.bban);
    const details = await client.get<any>(`/v1/accounts/${closingId}?withBalance=true`, { headers: unattended });
    expect(details.status, details.text).toBe(200);
    expect(details.body.account.bban).toBe(closing.bban);
    expect(details.headers['ratelimit']).toMatch(/^limit=4, remaining=3, reset=\d+$/);
  });

  it("lists the accounts in the consent's order however the bank's answers arrive, leaving out one closed after its access was asked", async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const accounts = [];
    for (const name of ['Brukskonto', 'Sparekonto', 'Buffer', 'Ferie']) {
      accounts.push(await createAccount(client, customer.customerNumber, { name }));
    }
    const references = accounts.map(({ bban }) => ({ bban }));
    const access = { accounts: references, balances: references, transactions: references };
    const consentId = await approvedConsent(client, consentBody(access), { 'psu-id': customer.customerNumber }, (link) => walk(link));
    const headers = { 'consent-id': consentId, ...PSU_PRESENT };
    const before = await client.get<any>('/v1/accounts', { headers });
    expect(before.status, before.text).toBe(200);
    const order: string[] = before.body.accounts.map((entry: any) => entry.bban);
    expect(order).toHaveLength(4);
    slowBbans.add(order[0]!).add(order[2]!);
    closedBbans.add(order[1]!);
    const list = await client.get<any>('/v1/accounts', { headers });
    expect(list.status, list.text).toBe(200);
    expect(list.body.accounts.map((entry: any) => entry.bban)).toEqual([order[0], order[2], order[3]]);
  });

  it('answers a read of that account, with its balances, 404 RESOURCE_UNKNOWN at account-id', async () => {
    const { client, consentId, closingId } = await setUp();
    const headers = { 'consent-id': consentId, ...PSU_PRESENT };
    expectError(await client.get<any>(`/v1/accounts/${closingId}?withBalance=true`, { headers }), 404, 'RESOURCE_UNKNOWN', 'account-id');
    expectError(await client.get<any>(`/v1/accounts/${closingId}/balances`, { headers }), 404, 'RESOURCE_UNKNOWN', 'account-id');
  });
});
