import type { AccountPermission, BankCardAccount, CoreBanking, RequestingTpp } from '../../bank/core-banking.port.js';
import type { GrantedAccount } from './consent-grant.js';

/**
 * Whether a PSU may share an account with a TPP (docs/design.md §2b): its own account when the
 * bank lets it view it; under a corporate agreement (`organisationNumber`) only with both VIEW and
 * REGISTER on it.
 */
export function maySharePermission(permission: AccountPermission, organisationNumber: string | undefined): boolean {
  return organisationNumber === undefined ? permission.canView : permission.canView && permission.canRegister;
}

/** The PSU who approved a consent, as the bank knows it, and the corporate agreement it acted under. */
type ConsentPsu = { readonly psuId: string | undefined; readonly psuCorporateId: string | undefined };

/**
 * Whether the PSU who approved a consent may share a card account, as the bank holds it now
 * (undefined: it has none): a private PSU its own; a corporate PSU none (shareable-accounts.ts).
 */
export function mayShareCard(
  { psuId, psuCorporateId }: ConsentPsu,
  card: Pick<BankCardAccount, 'ownerCustomerNumber'> | undefined,
): boolean {
  return psuId !== undefined && psuCorporateId === undefined && card?.ownerCustomerNumber === psuId;
}

/**
 * Whether the PSU who approved a consent may still share one of its granted accounts: a consent
 * gives a TPP no more than its PSU has now, so an account the PSU lost (an engagement removed, a
 * role taken away, a card account no longer its) is no longer read under it. One question to the
 * bank per account, asked on every read.
 */
export async function stillShareable(
  coreBanking: CoreBanking,
  tpp: RequestingTpp,
  consent: ConsentPsu,
  granted: Pick<GrantedAccount, 'type' | 'bankAccountId'>,
): Promise<boolean> {
  const { psuId, psuCorporateId } = consent;
  if (psuId === undefined) return false;
  if (granted.type === 'card') {
    if (psuCorporateId !== undefined) return false;
    return mayShareCard(consent, await coreBanking.cardAccount(tpp, granted.bankAccountId));
  }
  return maySharePermission(await coreBanking.permission(tpp, psuId, granted.bankAccountId, psuCorporateId), psuCorporateId);
}
