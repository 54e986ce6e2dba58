import type { CoreBanking } from '../../bank/core-banking.port.js';
import { localized, type Localized } from '../../domain/localized.js';
import type { Grant } from './consent-grant.js';
import type { Consent } from './consent.model.js';
import { referenceText, type ShareableAccount } from './shareable-accounts.js';

/*
 * Corporate multi-level SCA of a consent (docs/design.md §2b): under a corporate agreement the bank
 * may say, per engagement, that a PSU does not share an account's information alone. A consent
 * granting such an account is partiallyAuthorised after its first approval and valid only once
 * another PSU of the same agreement, one who may view and register on every account granted,
 * approves it too. The second approver approves the accounts already chosen, as they stand.
 */

/** Whether the first approver's grant waits for a second approver: the bank says so for an account in it. */
export function needsSecondApprover(grant: Grant, shareable: readonly ShareableAccount[]): boolean {
  return grant.accounts.some((account) =>
    shareable.some(
      (candidate) => candidate.needsSecondApprover && candidate.type === account.type && candidate.bankAccountId === account.bankAccountId,
    ),
  );
}

/** Why a PSU cannot be the second approver of a partially authorised consent; whether that rejects the consent. */
export interface SecondApproverRefusal {
  readonly reason: Localized;
  readonly rejectsConsent: boolean;
}

/** Text of the consent's own PSU-facing refusals, shared with the tests' expectations. */
export const ALREADY_APPROVED = localized(
  'You have already approved this consent; another approver must approve it too',
  'Du har allerede godkjent dette samtykket; en annen må også godkjenne det',
);

/**
 * The checks on the second approver of a partially authorised consent: not the first approver
 * again (refused, the consent keeps waiting, as a payment in PATC does), and allowed to view and
 * register on every account granted under the consent's agreement (else refused and, as for a
 * payment in PATC, the consent is rejected). Undefined: the PSU may complete it.
 */
export async function secondApproverRefusal(
  coreBanking: CoreBanking,
  consent: Pick<Consent, 'tppId' | 'psuId' | 'psuCorporateId' | 'grant'>,
  psuId: string,
): Promise<SecondApproverRefusal | undefined> {
  if (psuId === consent.psuId) return { reason: ALREADY_APPROVED, rejectsConsent: false };
  const granted = consent.grant?.accounts ?? [];
  // Asked all at once: a bank's port answers each over its own round trip.
  const permissions = await Promise.all(
    granted.map((account) => coreBanking.permission({ tppId: consent.tppId }, psuId, account.bankAccountId, consent.psuCorporateId)),
  );
  const outside = granted.filter((_, index) => {
    const permission = permissions[index]!;
    return !(consent.psuCorporateId !== undefined && permission.canView && permission.canRegister);
  });
  if (outside.length === 0) return undefined;
  const text = outside.map((account) => referenceText(account.reference)).join(', ');
  return {
    reason: localized(
      `You may not share the information of ${text}, which this consent shares`,
      `Du har ikke rett til å dele informasjonen om ${text}, som dette samtykket deler`,
    ),
    rejectsConsent: true,
  };
}
