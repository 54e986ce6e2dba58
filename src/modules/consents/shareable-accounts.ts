import type { CoreBanking, RequestingTpp } from '../../bank/core-banking.port.js';
import { referenceNamesCurrency } from '../../domain/currencies.js';
import { localized, type Localized } from '../../domain/localized.js';
import type { ConsentReference } from './consent-access.js';
import type { GrantedAccount } from './consent-grant.js';
import { maySharePermission } from './psu-account-access.js';

/** An account or card account the PSU may share with a TPP, as the SCA page names it. */
export interface ShareableAccount {
  readonly bankAccountId: string;
  readonly type: GrantedAccount['type'];
  readonly bban?: string | undefined;
  readonly iban?: string | undefined;
  readonly maskedPan?: string | undefined;
  readonly currency: string;
  readonly reference: GrantedAccount['reference'];
  /** "Brukskonto 1234.56.78903 (NOK)": how the PSU recognises it. */
  readonly label: Localized;
  /** The bank says the PSU may not share it alone: another approver of the agreement must approve too. */
  readonly needsSecondApprover: boolean;
}

/** A Norwegian BBAN as people write it: 1234.56.78903. */
function spacedBban(bban: string): string {
  return bban.length === 11 ? `${bban.slice(0, 4)}.${bban.slice(4, 6)}.${bban.slice(6)}` : bban;
}

/**
 * The accounts a PSU may share (docs/design.md §2b): the PSU's own accounts and card accounts the
 * bank lets the PSU view, or with a corporate agreement (`organisationNumber`), the agreement's
 * accounts the PSU is engaged on with both REGISTER and VIEW (a corporate PSU shares no card account),
 * each marked when the bank wants a second approver of the agreement for sharing it.
 */
export async function shareableAccounts(
  coreBanking: CoreBanking,
  tpp: RequestingTpp,
  psuId: string,
  organisationNumber: string | undefined,
): Promise<ShareableAccount[]> {
  const shareable: ShareableAccount[] = [];
  const accounts = await coreBanking.accountsOf(tpp, psuId, organisationNumber);
  // Asked all at once: a bank's port answers each over its own round trip.
  const permissions = await Promise.all(accounts.map((account) => coreBanking.permission(tpp, psuId, account.id, organisationNumber)));
  for (const [index, account] of accounts.entries()) {
    const permission = permissions[index]!;
    if (!maySharePermission(permission, organisationNumber)) continue;
    const number = spacedBban(account.bban);
    shareable.push({
      bankAccountId: account.id,
      type: 'account',
      bban: account.bban,
      iban: account.iban,
      currency: account.currency,
      reference: { iban: account.iban, currency: account.currency },
      label: localized(`${account.name} ${number} (${account.currency})`),
      needsSecondApprover: organisationNumber !== undefined && permission.consentNeedsSecondApprover === true,
    });
  }
  if (organisationNumber === undefined) {
    for (const card of await coreBanking.cardAccountsOf(tpp, psuId)) {
      shareable.push({
        bankAccountId: card.id,
        type: 'card',
        maskedPan: card.maskedPan,
        currency: card.currency,
        reference: { maskedPan: card.maskedPan, currency: card.currency },
        label: localized(`${card.name} ${card.maskedPan} (${card.currency})`),
        needsSecondApprover: false,
      });
    }
  }
  return shareable;
}

/** The shareable account a consent's reference names (same number, and same currency when it gives one). */
export function accountNamed(shareable: readonly ShareableAccount[], reference: ConsentReference): ShareableAccount | undefined {
  return shareable.find((account) => {
    const same =
      'bban' in reference
        ? account.bban === reference.bban
        : 'iban' in reference
          ? account.iban === reference.iban
          : account.maskedPan === reference.maskedPan;
    return same && referenceNamesCurrency(reference.currency, account.currency);
  });
}

/** A reference as the PSU reads it on the SCA page. */
export function referenceText(reference: ConsentReference): string {
  if ('bban' in reference) return spacedBban(reference.bban);
  if ('iban' in reference) return reference.iban;
  return reference.maskedPan;
}
