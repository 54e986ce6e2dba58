import type { CoreBanking } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { GrantedAccount } from '../consents/consent-grant.js';
import type { Consent } from '../consents/consent.model.js';
import { stillShareable } from '../consents/psu-account-access.js';
import { accountResourceRepository, type AccountType } from './account-resource.repository.js';

/** 401 CONSENT_INVALID saying what the consent does not cover. */
export const notCovered = (en: string, nb: string) => new AppError('CONSENT_INVALID', { detail: localized(en, nb) });

/**
 * The granted account behind a TPP's resourceId: unknown to this TPP 404; outside the consent, or
 * one the consent's PSU may no longer share (psu-account-access.ts), 401 CONSENT_INVALID.
 */
export async function grantedAccount(
  db: Db,
  coreBanking: CoreBanking,
  consent: Consent,
  type: AccountType,
  resourceId: string,
): Promise<GrantedAccount> {
  const bankAccountId = await accountResourceRepository.bankAccountOf(db, consent.tppId, type, resourceId);
  if (bankAccountId === undefined) throw new AppError('RESOURCE_UNKNOWN', { path: 'account-id' });
  if (consent.grant?.listOnly) {
    throw notCovered('the consent covers the list of accounts only', 'samtykket gjelder bare kontolisten');
  }
  const granted = consent.grant?.accounts.find((account) => account.type === type && account.bankAccountId === bankAccountId);
  if (!granted) throw notCovered('the consent does not cover this account', 'samtykket omfatter ikke denne kontoen');
  if (!(await stillShareable(coreBanking, { tppId: consent.tppId }, consent, granted))) {
    throw notCovered(
      'the PSU who gave the consent no longer has access to this account',
      'brukeren som ga samtykket, har ikke lenger tilgang til denne kontoen',
    );
  }
  return granted;
}

/** How a report names the account it is about: `account` by IBAN, `cardAccount` by masked PAN, with the currency. */
export function reportedAccount(type: AccountType, granted: GrantedAccount): Record<string, unknown> {
  if (type === 'account') {
    return { account: { iban: 'iban' in granted.reference ? granted.reference.iban : undefined, currency: granted.reference.currency } };
  }
  return {
    cardAccount: {
      maskedPan: 'maskedPan' in granted.reference ? granted.reference.maskedPan : undefined,
      currency: granted.reference.currency,
    },
  };
}
