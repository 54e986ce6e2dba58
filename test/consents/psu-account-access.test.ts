/**
 * Whether the PSU of a consent may still share a granted account (psu-account-access.ts): the rule
 * of the SCA page, asked of the bank with one question per account.
 */
import { describe, expect, it } from 'vitest';
import type { AccountPermission, BankCardAccount, CoreBanking } from '../../src/bank/core-banking.port.js';
import { stillShareable } from '../../src/modules/consents/psu-account-access.js';

const TPP = { tppId: 'tpp-1' };
const NONE: AccountPermission = { canView: false, canRegister: false };

function bank(permission: AccountPermission, cardOwner?: string) {
  const calls: string[] = [];
  const port = {
    async permission(_tpp, psuId, accountId, organisationNumber) {
      calls.push(`permission ${psuId} ${accountId} ${organisationNumber ?? '-'}`);
      return permission;
    },
    async cardAccount(_tpp, id) {
      calls.push(`cardAccount ${id}`);
      return cardOwner === undefined ? undefined : ({ id, ownerCustomerNumber: cardOwner } as BankCardAccount);
    },
  } as Partial<CoreBanking> as CoreBanking;
  return { port, calls };
}

const account = { type: 'account' as const, bankAccountId: 'acc-1' };
const card = { type: 'card' as const, bankAccountId: 'card-1' };
const PRIVATE = { psuId: '13039319955', psuCorporateId: undefined };
const CORPORATE = { psuId: '13039319955', psuCorporateId: '923456783' };

describe('stillShareable', () => {
  it("asks the bank once for the PSU's permission on the account, under the consent's agreement", async () => {
    const { port, calls } = bank({ canView: true, canRegister: true });
    expect(await stillShareable(port, TPP, CORPORATE, account)).toBe(true);
    expect(calls).toEqual(['permission 13039319955 acc-1 923456783']);
  });

  it('own accounts: VIEW suffices; under an agreement VIEW and REGISTER are both needed', async () => {
    expect(await stillShareable(bank({ canView: true, canRegister: false }).port, TPP, PRIVATE, account)).toBe(true);
    expect(await stillShareable(bank({ canView: true, canRegister: false }).port, TPP, CORPORATE, account)).toBe(false);
    expect(await stillShareable(bank({ canView: false, canRegister: true }).port, TPP, CORPORATE, account)).toBe(false);
    expect(await stillShareable(bank(NONE).port, TPP, PRIVATE, account)).toBe(false);
  });

  it("a card account while it is the PSU's own, never under an agreement", async () => {
    expect(await stillShareable(bank(NONE, PRIVATE.psuId).port, TPP, PRIVATE, card)).toBe(true);
    expect(await stillShareable(bank(NONE, '12085592767').port, TPP, PRIVATE, card)).toBe(false);
    expect(await stillShareable(bank(NONE).port, TPP, PRIVATE, card)).toBe(false);
    expect(await stillShareable(bank(NONE, CORPORATE.psuId).port, TPP, CORPORATE, card)).toBe(false);
  });

  it('nothing without an approving PSU', async () => {
    expect(
      await stillShareable(bank({ canView: true, canRegister: true }).port, TPP, { psuId: undefined, psuCorporateId: undefined }, account),
    ).toBe(false);
  });
});
