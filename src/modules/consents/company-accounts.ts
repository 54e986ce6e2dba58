import type { CoreBanking, RequestingTpp } from '../../bank/core-banking.port.js';
import { referenceNamesCurrency } from '../../domain/currencies.js';
import { referenceKey, type ConsentReference } from './consent-access.js';
import { maySharePermission } from './psu-account-access.js';

/** The corporate agreement an account belongs to, as the SCA page may name it to a PSU engaged on it. */
export interface CompanyAgreement {
  readonly organisationNumber: string;
  /** The company as the bank names it; undefined when the bank gives it no name. */
  readonly companyName: string | undefined;
}

/**
 * Of the accounts a consent asked for without PSU-Corporate-ID that the PSU cannot share (a private
 * PSU shares its own accounts only), those of a corporate agreement the PSU has a role on, keyed by
 * {@link referenceKey}: the SCA page may tell that PSU why the consent cannot be given, and that
 * the app must ask on behalf of the company. Any other PSU gets nothing here and reads the same
 * neutral text as for another customer's account: it must not learn which accounts are corporate.
 * Asked only after the PSU has logged in, of the bank, never shown to the TPP.
 */
export async function companyAccountsAskedPrivately(
  coreBanking: CoreBanking,
  tpp: RequestingTpp,
  psuId: string,
  organisationNumber: string | undefined,
  unshareable: readonly ConsentReference[],
): Promise<ReadonlyMap<string, CompanyAgreement>> {
  const found = new Map<string, CompanyAgreement>();
  // Asked on behalf of a company: the PSU's role there is what decided, nothing to explain.
  if (organisationNumber !== undefined) return found;
  // Asked all at once: a bank's port answers each over its own round trip.
  const answers = await Promise.all(unshareable.map((reference) => companyAgreementOf(coreBanking, tpp, psuId, reference)));
  for (const [index, agreement] of answers.entries()) {
    if (agreement) found.set(referenceKey(unshareable[index]!), agreement);
  }
  return found;
}

async function companyAgreementOf(
  coreBanking: CoreBanking,
  tpp: RequestingTpp,
  psuId: string,
  reference: ConsentReference,
): Promise<CompanyAgreement | undefined> {
  // A corporate PSU shares no card account: a card reference never needs the company's behalf.
  if ('maskedPan' in reference) return undefined;
  const account = await coreBanking.findAccount(tpp, 'bban' in reference ? { bban: reference.bban } : { iban: reference.iban });
  const organisationNumber = account?.organisationNumber;
  if (!account || organisationNumber === undefined || !referenceNamesCurrency(reference.currency, account.currency)) return undefined;
  const permission = await coreBanking.permission(tpp, psuId, account.id, organisationNumber);
  // Told only when asking on the company's behalf would let this PSU share it (register and view on
  // this very account): a PSU who could not share it either way learns nothing from this page.
  if (!maySharePermission(permission, organisationNumber)) return undefined;
  const companyName = account.ownerType === 'CORPORATE' && account.ownerName.trim() !== '' ? account.ownerName.trim() : undefined;
  return { organisationNumber, companyName };
}
