/**
 * A consent naming accounts of a corporate agreement, asked without PSU-Corporate-ID
 * (company-accounts.ts, consent-confirmation.ts): the confirmation page tells a PSU engaged on the
 * account that it is its company's and the app must ask on the company's behalf; to any other PSU
 * it says only, as before, that the account cannot be shared.
 */
import { describe, expect, it } from 'vitest';
import type { AccountPermission, BankAccount, CoreBanking } from '../../src/bank/core-banking.port.js';
import { companyAccountsAskedPrivately, type CompanyAgreement } from '../../src/modules/consents/company-accounts.js';
import { referenceKey, type ConsentReference } from '../../src/modules/consents/consent-access.js';
import { consentConfirmation } from '../../src/modules/consents/consent-confirmation.js';
import type { Consent } from '../../src/modules/consents/consent.model.js';

const TPP = { tppId: 'PSDNO-FSA-TEST' };
const PSU = '13039319955';
const ORGANISATION = '912345679';

function bankAccount(id: string, bban: string, fields: Partial<BankAccount> = {}): BankAccount {
  return {
    id,
    bban,
    iban: `NO93${bban}`,
    currency: 'NOK',
    name: 'Driftskonto',
    product: 'BRUKSKONTO',
    cashAccountType: 'CACC',
    ownerName: 'Fjordfisk AS',
    ownerCustomerNumber: ORGANISATION,
    ownerType: 'CORPORATE',
    organisationNumber: ORGANISATION,
    ...fields,
  };
}

const NONE: AccountPermission = { canView: false, canRegister: false };

/** A bank of these accounts, where the PSU has the permissions given (by account id) under the agreement. */
function bank(accounts: readonly BankAccount[], permissions: Record<string, AccountPermission>): CoreBanking {
  return {
    findAccount: async (_tpp, reference) =>
      accounts.find((account) => ('bban' in reference ? account.bban === reference.bban : account.iban === reference.iban)),
    permission: async (_tpp, psuId, accountId, organisationNumber) =>
      psuId === PSU && organisationNumber === ORGANISATION ? (permissions[accountId] ?? NONE) : NONE,
  } as Partial<CoreBanking> as CoreBanking;
}

function consentNaming(references: readonly ConsentReference[]): Consent {
  return {
    id: 'consent-1',
    tppId: TPP.tppId,
    status: 'received',
    access: { kind: 'detailed', accounts: references, balances: references, transactions: [], ownerName: [] },
    recurring: true,
    validUntil: '2027-02-26',
    frequencyPerDay: 4,
    psuId: undefined,
    psuCorporateId: undefined,
    grant: undefined,
    approvedAt: undefined,
    lastActionDate: '2026-11-28',
    requestId: 'request-1',
    requestContext: {} as Consent['requestContext'],
    createdAt: '2026-11-28T10:00:00.000Z',
    statusChangedAt: '2026-11-28T10:00:00.000Z',
  };
}

const cannotBeShared = (consent: Consent, companyAccounts?: ReadonlyMap<string, CompanyAgreement>) =>
  consentConfirmation(consent, [], companyAccounts)
    .lines.filter((line) => line.label.en === 'Cannot be shared')
    .map((line) => line.value);

describe('companyAccountsAskedPrivately', () => {
  const driftskonto = bankAccount('a', '12345678903');
  const lonnskonto = bankAccount('b', '12345678911', { ownerName: '  ' });
  const privat = bankAccount('c', '98765432103', { ownerType: 'PRIVATE', ownerName: 'Kari Nordmann', organisationNumber: undefined });
  const core = bank([driftskonto, lonnskonto, privat], { a: { canView: true, canRegister: true } });

  it('finds nothing for a PSU who could not share the account on the company’s behalf either (view only, or register only)', async () => {
    for (const permission of [
      { canView: true, canRegister: false },
      { canView: false, canRegister: true },
    ]) {
      const found = await companyAccountsAskedPrivately(bank([driftskonto], { a: permission }), TPP, PSU, undefined, [
        { bban: driftskonto.bban },
      ]);
      expect(found.size).toBe(0);
    }
  });

  it('finds an account of an agreement the PSU has a role on, with the company as the bank names it', async () => {
    const found = await companyAccountsAskedPrivately(core, TPP, PSU, undefined, [{ bban: driftskonto.bban }, { iban: driftskonto.iban }]);
    expect([...found.entries()]).toEqual([
      [referenceKey({ bban: driftskonto.bban }), { organisationNumber: ORGANISATION, companyName: 'Fjordfisk AS' }],
      [referenceKey({ iban: driftskonto.iban }), { organisationNumber: ORGANISATION, companyName: 'Fjordfisk AS' }],
    ]);
    const unnamed = await companyAccountsAskedPrivately(
      bank([lonnskonto], { b: { canView: true, canRegister: true } }),
      TPP,
      PSU,
      undefined,
      [{ bban: lonnskonto.bban }],
    );
    expect(unnamed.get(referenceKey({ bban: lonnskonto.bban }))).toEqual({ organisationNumber: ORGANISATION, companyName: undefined });
  });

  it('finds nothing for an account the PSU has no role on, a private account, another currency, a card, an unknown number', async () => {
    const found = await companyAccountsAskedPrivately(core, TPP, PSU, undefined, [
      // Of the same agreement, but the PSU's role is on another of its accounts.
      { bban: lonnskonto.bban },
      { bban: privat.bban },
      { bban: driftskonto.bban, currency: 'EUR' },
      { maskedPan: '525412******3241' },
      { bban: '11112233334' },
    ]);
    expect(found.size).toBe(0);
    const stranger = await companyAccountsAskedPrivately(core, TPP, '01017012345', undefined, [{ bban: driftskonto.bban }]);
    expect(stranger.size).toBe(0);
  });

  it('finds nothing when the consent was asked on behalf of a company', async () => {
    expect((await companyAccountsAskedPrivately(core, TPP, PSU, ORGANISATION, [{ bban: driftskonto.bban }])).size).toBe(0);
  });
});

describe('the confirmation page of a consent naming accounts the PSU cannot share', () => {
  const first = { bban: '12345678903' };
  const second = { iban: 'NO9312345678911' };
  const foreign = { bban: '98765432103' };
  const ofCompany = (companyName: string | undefined) =>
    new Map<string, CompanyAgreement>([
      [referenceKey(first), { organisationNumber: ORGANISATION, companyName }],
      [referenceKey(second), { organisationNumber: ORGANISATION, companyName }],
    ]);

  it('says only that they cannot be shared when none is of an agreement the PSU is engaged on', () => {
    expect(cannotBeShared(consentNaming([first, foreign]))).toEqual([
      {
        en: '1234.56.78903, 9876.54.32103: not an account you can share. The consent cannot be given.',
        nb: '1234.56.78903, 9876.54.32103: ikke en konto du kan dele. Samtykket kan ikke gis.',
      },
    ]);
  });

  it("names the company's agreement of those that are, apart from the others, and says the app must ask on the company's behalf", () => {
    expect(cannotBeShared(consentNaming([first, foreign, second]), ofCompany('Fjordfisk AS'))).toEqual([
      {
        en: '9876.54.32103: not an account you can share. The consent cannot be given.',
        nb: '9876.54.32103: ikke en konto du kan dele. Samtykket kan ikke gis.',
      },
      {
        en:
          `1234.56.78903, NO9312345678911: these accounts belong to the agreement of your company Fjordfisk AS (organisation number ${ORGANISATION}), ` +
          'but the app asked for them on your own behalf, as a private person. The consent cannot be given. ' +
          'Ask the app to start again and ask on behalf of the company, with its organisation number (PSU-Corporate-ID).',
        nb:
          `1234.56.78903, NO9312345678911: kontoene hører til avtalen til bedriften din Fjordfisk AS (organisasjonsnummer ${ORGANISATION}), ` +
          'men appen ba om dem for deg selv, som privatperson. Samtykket kan ikke gis. ' +
          'Be appen starte på nytt og spørre på vegne av bedriften, med organisasjonsnummeret (PSU-Corporate-ID).',
      },
    ]);
  });

  it('says "your company\'s agreement" when the bank gives the company no name', () => {
    const [text] = cannotBeShared(consentNaming([first]), ofCompany(undefined));
    expect(text?.en).toContain(
      `1234.56.78903: this account belongs to your company's agreement (organisation number ${ORGANISATION}), but`,
    );
    expect(text?.nb).toContain(`1234.56.78903: kontoen hører til avtalen til bedriften din (organisasjonsnummer ${ORGANISATION}), men`);
  });
});
