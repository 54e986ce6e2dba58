/**
 * When a newer consent of the same TPP and PSU ends an older one (docs/design.md §2b,
 * consent-supersession.ts): only when it grants at least everything the older one granted.
 */
import { describe, expect, it } from 'vitest';
import type { AccessKind, RequestedAccess } from '../../src/modules/consents/consent-access.js';
import type { GrantedAccount } from '../../src/modules/consents/consent-grant.js';
import { supersedes, type GrantedConsent } from '../../src/modules/consents/consent-supersession.js';

const ALL: readonly AccessKind[] = ['accounts', 'balances', 'transactions'];
const DETAILED: RequestedAccess = { kind: 'detailed', accounts: [], balances: [], transactions: [], ownerName: [] };
const BANK_OFFERED: RequestedAccess = { kind: 'bank-offered', kinds: ALL, ownerName: false };
const GLOBAL: RequestedAccess = { kind: 'global', ownerName: false };
const GLOBAL_WITH_OWNER_NAME: RequestedAccess = { kind: 'global', ownerName: true };

function account(id: string, kinds: readonly AccessKind[] = ALL, ownerName = false): GrantedAccount {
  return { bankAccountId: id, type: 'account', kinds, ownerName, reference: { iban: `NO00${id}`, currency: 'NOK' } };
}

function card(id: string, kinds: readonly AccessKind[] = ALL): GrantedAccount {
  return { bankAccountId: id, type: 'card', kinds, ownerName: false, reference: { maskedPan: '525412******3241', currency: 'NOK' } };
}

/** Valid for 180 days from 2026-11-28, read up to 4 times a day, unless told otherwise. */
const LONGEST = { validUntil: '2027-05-27', frequencyPerDay: 4 };

function consent(
  access: RequestedAccess,
  accounts: readonly GrantedAccount[],
  psuCorporateId?: string,
  validity: { validUntil: string; frequencyPerDay: number } = LONGEST,
): GrantedConsent {
  return { access, psuCorporateId, grant: { accounts }, ...validity };
}

describe('supersedes', () => {
  it('ends an older consent granting the same accounts and kinds', () => {
    expect(supersedes(consent(DETAILED, [account('a')]), consent(DETAILED, [account('a')]))).toBe(true);
    expect(supersedes(consent(BANK_OFFERED, [account('a'), card('c')]), consent(DETAILED, [account('a'), card('c')]))).toBe(true);
  });

  it('ends an older consent whose accounts and kinds the newer one grants and more', () => {
    expect(supersedes(consent(DETAILED, [account('a'), account('b')]), consent(DETAILED, [account('a', ['balances'])]))).toBe(true);
    // Details are readable whenever any kind is granted.
    expect(supersedes(consent(DETAILED, [account('a', ['transactions'])]), consent(DETAILED, [account('a', ['accounts'])]))).toBe(true);
  });

  it('keeps an older consent granting a kind the newer one does not', () => {
    expect(supersedes(consent(DETAILED, [account('a', ['accounts'])]), consent(DETAILED, [account('a')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a', ['transactions'])]), consent(BANK_OFFERED, [account('a')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a', ['balances'])]), consent(DETAILED, [account('a', ['transactions'])]))).toBe(false);
  });

  it('keeps an older consent granting an account or card account the newer one does not', () => {
    expect(supersedes(consent(DETAILED, [account('a')]), consent(DETAILED, [account('a'), account('b')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a')]), consent(BANK_OFFERED, [account('a'), card('c')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a'), card('c', ['balances'])]), consent(DETAILED, [card('c')]))).toBe(false);
    // An account and a card account are different things even under one id.
    expect(supersedes(consent(DETAILED, [card('a')]), consent(DETAILED, [account('a')]))).toBe(false);
  });

  it('keeps an older consent with the owner name when the newer one has none', () => {
    expect(supersedes(consent(DETAILED, [account('a')]), consent(DETAILED, [account('a', ALL, true)]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a', ALL, true)]), consent(DETAILED, [account('a')]))).toBe(true);
  });

  it('never ends a global consent by a detailed or bank-offered one, even naming every account it granted', () => {
    const older = consent(GLOBAL, [account('a'), card('c')]);
    expect(supersedes(consent(DETAILED, [account('a'), card('c')]), older)).toBe(false);
    expect(supersedes(consent(BANK_OFFERED, [account('a'), card('c')]), older)).toBe(false);
  });

  it('ends by a global consent any older one of the same scope, unless the older had the owner name and the newer has not', () => {
    expect(supersedes(consent(GLOBAL, [account('a')]), consent(GLOBAL, [account('a'), account('gone')]))).toBe(true);
    expect(supersedes(consent(GLOBAL, [account('a')]), consent(DETAILED, [account('a')]))).toBe(true);
    expect(supersedes(consent(GLOBAL, [account('a')]), consent(GLOBAL_WITH_OWNER_NAME, [account('a', ALL, true)]))).toBe(false);
    expect(supersedes(consent(GLOBAL, [account('a')]), consent(DETAILED, [account('a', ['balances'], true)]))).toBe(false);
    expect(supersedes(consent(GLOBAL_WITH_OWNER_NAME, [account('a', ALL, true)]), consent(GLOBAL, [account('a')]))).toBe(true);
  });

  it("covers by a global consent only its own scope: the PSU's own accounts or one agreement's", () => {
    const corporate = consent(GLOBAL, [account('x')], '923456783');
    expect(supersedes(corporate, consent(GLOBAL, [account('a')]))).toBe(false);
    expect(supersedes(corporate, consent(DETAILED, [account('a')]))).toBe(false);
    expect(supersedes(corporate, consent(DETAILED, [account('x')], '923456783'))).toBe(true);
    expect(supersedes(corporate, consent(GLOBAL, [account('y')], '998877660'))).toBe(false);
  });

  it('leaves account-list consents alone, either way', () => {
    const list: GrantedConsent = {
      access: { kind: 'account-list', withBalance: false, ownerName: false },
      psuCorporateId: undefined,
      grant: { accounts: [account('a', [])], listOnly: { withBalance: false } },
      validUntil: '2026-11-28',
      frequencyPerDay: 1,
    };
    expect(supersedes(list, consent(DETAILED, [account('a', ['accounts'])]))).toBe(false);
    expect(supersedes(consent(GLOBAL, [account('a')]), list)).toBe(false);
  });

  it('keeps an older consent valid longer than the newer one', () => {
    const shorter = { validUntil: '2026-11-29', frequencyPerDay: 4 };
    expect(supersedes(consent(DETAILED, [account('a')], undefined, shorter), consent(DETAILED, [account('a')]))).toBe(false);
    expect(supersedes(consent(GLOBAL, [account('a')], undefined, shorter), consent(GLOBAL, [account('a')]))).toBe(false);
    expect(supersedes(consent(GLOBAL, [account('a')], undefined, shorter), consent(DETAILED, [account('a')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a')]), consent(DETAILED, [account('a')], undefined, shorter))).toBe(true);
  });

  it('keeps an older consent allowing more reads a day without the PSU than the newer one', () => {
    const once = { validUntil: LONGEST.validUntil, frequencyPerDay: 1 };
    expect(supersedes(consent(DETAILED, [account('a')], undefined, once), consent(DETAILED, [account('a')]))).toBe(false);
    expect(supersedes(consent(GLOBAL, [account('a')], undefined, once), consent(GLOBAL, [account('a')]))).toBe(false);
    expect(supersedes(consent(DETAILED, [account('a')]), consent(DETAILED, [account('a')], undefined, once))).toBe(true);
  });

  it('keeps a long and frequent older consent when the newer one is valid for a day, once a day', () => {
    const dayOnce = { validUntil: '2026-11-29', frequencyPerDay: 1 };
    expect(
      supersedes(consent(GLOBAL_WITH_OWNER_NAME, [account('a', ALL, true)], undefined, dayOnce), consent(DETAILED, [account('a')])),
    ).toBe(false);
  });
});
