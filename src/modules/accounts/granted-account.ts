import type { BankAccount, BankCardAccount, CoreBanking } from '../../bank/core-banking.port.js';
import { isBankError } from '../../bank/bank-error.js';
import type { Db } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { GrantedAccount } from '../consents/consent-grant.js';
import type { Consent } from '../consents/consent.model.js';
import { mayShareCard, stillShareable } from '../consents/psu-account-access.js';
import { accountResourceRepository, type AccountType } from './account-resource.repository.js';

/** 404 at the path parameter: the account is not this TPP's, or the bank no longer has it. */
export const unknownAccount = () => new AppError('RESOURCE_UNKNOWN', { path: 'account-id' });

/** Whether the bank answered that it no longer has the account: closed or removed since the consent. */
export function goneFromBank(error: unknown): boolean {
  return isBankError(error) && error.kind === 'unknown-account';
}

/**
 * A read of the bank about a granted account, with the bank's `unknown-account` (the account was
 * closed or removed since the consent) answered as reading the account itself answers it: 404 at
 * `account-id`. The port's own words name the bank's internal account id, which never leaves the
 * server (docs/design.md §4).
 */
export async function fromBankOnAccount<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (goneFromBank(error)) throw unknownAccount();
    throw error;
  }
}

/** 401 CONSENT_INVALID saying what the consent does not cover. */
export const notCovered = (en: string, nb: string) => new AppError('CONSENT_INVALID', { detail: localized(en, nb) });

/** An account or card account as the bank holds it now. */
export type HeldAccount =
  { readonly type: 'account'; readonly account: BankAccount } | { readonly type: 'card'; readonly card: BankCardAccount };

/**
 * A granted account as the bank answers about it now: whether the consent's PSU may still share it
 * (psu-account-access.ts), and what the bank holds of it (undefined: it no longer has it), asked
 * when wanted. A card account's access is its owner, so one read of the card account answers both.
 */
export interface AccountNow {
  readonly shareable: boolean;
  readonly held: () => Promise<HeldAccount | undefined>;
}

export async function accountNow(coreBanking: CoreBanking, consent: Consent, granted: GrantedAccount): Promise<AccountNow> {
  const tpp = { tppId: consent.tppId };
  if (granted.type === 'card') {
    const card = await coreBanking.cardAccount(tpp, granted.bankAccountId);
    const held: HeldAccount | undefined = card && { type: 'card', card };
    return { shareable: mayShareCard(consent, card), held: async () => held };
  }
  return {
    shareable: await stillShareable(coreBanking, tpp, consent, granted),
    held: async () => {
      const account = await coreBanking.account(tpp, granted.bankAccountId);
      return account && { type: 'account', account };
    },
  };
}

/** What a read of `kind` refuses when the consent grants the account without it. */
const KIND_NOT_COVERED = {
  balances: () => notCovered('the consent does not cover the balances of this account', 'samtykket omfatter ikke saldoen på denne kontoen'),
  transactions: () =>
    notCovered('the consent does not cover the transactions of this account', 'samtykket omfatter ikke transaksjonene på denne kontoen'),
} as const;

/**
 * The granted account behind a TPP's resourceId: unknown to this TPP 404; outside the consent,
 * without the `kind` read (balances, transactions) when one is named, or one the consent's PSU may
 * no longer share (psu-account-access.ts), 401 CONSENT_INVALID. What the consent says is checked
 * before the bank is asked about the PSU's access. With `held`, what the bank holds of it (a card
 * account's was read already, to learn the access).
 */
export async function grantedAccount(
  db: Db,
  coreBanking: CoreBanking,
  consent: Consent,
  type: AccountType,
  resourceId: string,
  kind?: keyof typeof KIND_NOT_COVERED,
): Promise<{ readonly granted: GrantedAccount; readonly held: AccountNow['held'] }> {
  const bankAccountId = await accountResourceRepository.bankAccountOf(db, consent.tppId, type, resourceId);
  if (bankAccountId === undefined) throw unknownAccount();
  if (consent.grant?.listOnly) {
    throw notCovered('the consent covers the list of accounts only', 'samtykket gjelder bare kontolisten');
  }
  const granted = consent.grant?.accounts.find((account) => account.type === type && account.bankAccountId === bankAccountId);
  if (!granted) {
    // The account named in the path is what the consent lacks: the path parameter's name, as its 404 gives.
    throw new AppError('CONSENT_INVALID', {
      path: 'account-id',
      detail: localized('the consent does not cover this account', 'samtykket omfatter ikke denne kontoen'),
    });
  }
  if (kind !== undefined && !granted.kinds.includes(kind)) throw KIND_NOT_COVERED[kind]();
  const now = await accountNow(coreBanking, consent, granted);
  if (!now.shareable) {
    // An account the bank no longer has is unknown, as reading it answers, not a permission lost.
    if ((await now.held()) === undefined) throw unknownAccount();
    throw new AppError('CONSENT_INVALID', {
      path: 'account-id',
      detail: localized(
        'the PSU who gave the consent no longer has access to this account',
        'brukeren som ga samtykket, har ikke lenger tilgang til denne kontoen',
      ),
    });
  }
  return { granted, held: now.held };
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
