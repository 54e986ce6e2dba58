/**
 * An account found with a PSU's permission (src/bank/account-and-permission.ts): one call to a
 * bank that offers findAccountWithPermission, else findAccount and then permission; without a PSU,
 * the account alone.
 */
import { describe, expect, it } from 'vitest';
import { findAccountAs } from '../../src/bank/account-and-permission.js';
import type { AccountPermission, BankAccount, CoreBanking } from '../../src/bank/core-banking.port.js';

const TPP = { tppId: 'tpp-1' };
const ACCOUNT: BankAccount = {
  id: 'acc-1',
  bban: '12345678903',
  iban: 'NO9312345678903',
  currency: 'NOK',
  name: 'Brukskonto',
  product: 'BRUKSKONTO',
  cashAccountType: 'CACC',
  ownerName: 'Ola Nordmann',
  ownerCustomerNumber: '13039319955',
  ownerType: 'PRIVATE',
};
const OWNER: AccountPermission = { canView: true, canRegister: true };

/** A bank with findAccount and permission only, counting its calls; `combined` adds the one-call method. */
function bank(options: { known: boolean; combined: boolean }) {
  const calls: string[] = [];
  const core = {
    findAccount: async () => {
      calls.push('findAccount');
      return options.known ? ACCOUNT : undefined;
    },
    permission: async () => {
      calls.push('permission');
      return OWNER;
    },
    ...(options.combined && {
      findAccountWithPermission: async () => {
        calls.push('findAccountWithPermission');
        return options.known ? { account: ACCOUNT, permission: OWNER } : undefined;
      },
    }),
  } as unknown as CoreBanking;
  return { core, calls };
}

describe('finding an account with a PSU’s permission', () => {
  it('asks a bank that offers it once', async () => {
    const { core, calls } = bank({ known: true, combined: true });
    expect(await findAccountAs(core, TPP, { bban: ACCOUNT.bban }, { psuId: '13039319955' })).toEqual({
      account: ACCOUNT,
      permission: OWNER,
    });
    expect(calls).toEqual(['findAccountWithPermission']);
  });

  it('asks for the account and then the permission on it otherwise', async () => {
    const { core, calls } = bank({ known: true, combined: false });
    expect(await findAccountAs(core, TPP, { bban: ACCOUNT.bban }, { psuId: '13039319955' })).toEqual({
      account: ACCOUNT,
      permission: OWNER,
    });
    expect(calls).toEqual(['findAccount', 'permission']);
  });

  it('asks for no permission without a PSU, or when there is no such account', async () => {
    const withoutPsu = bank({ known: true, combined: true });
    expect(await findAccountAs(withoutPsu.core, TPP, { bban: ACCOUNT.bban }, {})).toEqual({ account: ACCOUNT });
    expect(withoutPsu.calls).toEqual(['findAccount']);
    const unknown = bank({ known: false, combined: false });
    expect(await findAccountAs(unknown.core, TPP, { bban: ACCOUNT.bban }, { psuId: '13039319955' })).toBeUndefined();
    expect(unknown.calls).toEqual(['findAccount']);
  });
});
