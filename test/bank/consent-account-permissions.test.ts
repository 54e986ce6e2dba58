/**
 * The permissions a consent's SCA asks of the bank, one per account (shareable-accounts.ts for the
 * first approver, consent-joint-approval.ts for the second): asked all at once, since a bank's
 * port answers each over its own round trip, and still applied to the right account each.
 */
import { describe, expect, it } from 'vitest';
import type { AccountPermission, BankAccount, CoreBanking } from '../../src/bank/core-banking.port.js';
import { secondApproverRefusal } from '../../src/modules/consents/consent-joint-approval.js';
import { shareableAccounts } from '../../src/modules/consents/shareable-accounts.js';
import type { Grant } from '../../src/modules/consents/consent-grant.js';

const TPP = { tppId: 'tpp-1' };
const ORGANISATION = '923609016';

function account(id: string, bban: string): BankAccount {
  return {
    id,
    bban,
    iban: `NO00${bban}`,
    currency: 'NOK',
    name: 'Driftskonto',
    product: 'DRIFTSKONTO',
    cashAccountType: 'CACC',
    ownerName: 'Fjordkraft AS',
    ownerCustomerNumber: ORGANISATION,
    ownerType: 'CORPORATE',
  };
}

const ACCOUNTS = [account('acc-1', '12345678903'), account('acc-2', '12345678911'), account('acc-3', '12345678929')];

/**
 * A bank whose permission answers come only once every account's permission was asked: a server
 * asking one after another would wait for ever (the test times out). `denied` are the accounts
 * the PSU may not register on.
 */
function bankAnsweringOnceAllAsked(denied: readonly string[]) {
  const asked: string[] = [];
  let release!: () => void;
  const allAsked = new Promise<void>((resolve) => (release = resolve));
  const core = {
    accountsOf: async () => ACCOUNTS,
    cardAccountsOf: async () => [],
    permission: async (_tpp: unknown, _psuId: string, accountId: string): Promise<AccountPermission> => {
      asked.push(accountId);
      if (asked.length === ACCOUNTS.length) release();
      await allAsked;
      return { canView: true, canRegister: !denied.includes(accountId) };
    },
  } as unknown as CoreBanking;
  return { core, asked };
}

describe('the permissions a consent’s SCA asks of the bank', () => {
  it('are asked for all the PSU’s accounts at once, each applied to its own account', async () => {
    const { core, asked } = bankAnsweringOnceAllAsked(['acc-2']);
    const shareable = await shareableAccounts(core, TPP, '13039319955', ORGANISATION);
    expect(asked.sort()).toEqual(['acc-1', 'acc-2', 'acc-3']);
    expect(shareable.map((entry) => entry.bankAccountId)).toEqual(['acc-1', 'acc-3']);
  });

  it('are asked for all the consent’s accounts at once when a second approver comes', async () => {
    const { core, asked } = bankAnsweringOnceAllAsked(['acc-3']);
    const grant = {
      accounts: ACCOUNTS.map((entry) => ({
        bankAccountId: entry.id,
        type: 'account',
        kinds: ['balances'],
        ownerName: false,
        reference: { iban: entry.iban, currency: entry.currency },
      })),
    } satisfies Grant;
    const refusal = await secondApproverRefusal(core, { tppId: TPP.tppId, psuId: 'first', psuCorporateId: ORGANISATION, grant }, 'second');
    expect(asked.sort()).toEqual(['acc-1', 'acc-2', 'acc-3']);
    expect(refusal?.rejectsConsent).toBe(true);
    expect(refusal?.reason.en).toContain('NO0012345678929');
    expect(refusal?.reason.en).not.toContain('NO0012345678903');
  });
});
