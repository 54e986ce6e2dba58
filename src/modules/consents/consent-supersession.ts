import type { AccessKind, RequestedAccess } from './consent-access.js';
import type { Grant, GrantedAccount } from './consent-grant.js';

/**
 * What the supersession rule needs of an approved consent: what was asked, under which agreement,
 * what was granted, until when and how often.
 */
export interface GrantedConsent {
  readonly access: RequestedAccess;
  /** The corporate agreement it was approved under; undefined for the PSU's own accounts. */
  readonly psuCorporateId: string | undefined;
  readonly grant: Grant;
  /** Its last valid day, YYYY-MM-DD, as stored (already capped to 180 days from its creation). */
  readonly validUntil: string;
  /** Reads a day without the PSU, as stored (already capped). */
  readonly frequencyPerDay: number;
}

/** What can be read of a granted account: its details whenever any access is granted (consent-grant.ts). */
function readableKinds(account: GrantedAccount): ReadonlySet<AccessKind> {
  const kinds = new Set<AccessKind>(account.kinds);
  if (kinds.size > 0) kinds.add('accounts');
  return kinds;
}

function grantsAtLeast(newer: GrantedAccount, older: GrantedAccount): boolean {
  if (older.ownerName && !newer.ownerName) return false;
  const readable = readableKinds(newer);
  return [...readableKinds(older)].every((kind) => readable.has(kind));
}

/**
 * Whether the newer consent lasts and allows reading at least as much as the older one: a newer
 * consent valid for a day, or once a day, would take from the TPP the access it still had. The
 * dates are ISO dates, which compare as strings; the 180 days after the SCA end later for the newer.
 */
function lastsAtLeast(newer: GrantedConsent, older: GrantedConsent): boolean {
  return newer.validUntil >= older.validUntil && newer.frequencyPerDay >= older.frequencyPerDay;
}

/**
 * Whether a newer consent of the same TPP and PSU ends an older one (docs/design.md §2b): only
 * when it grants at least everything the older one granted, so that the TPP loses nothing.
 * - In any case it is valid at least as long (`validUntil`) and allows at least as many reads a
 *   day without the PSU (`frequencyPerDay`).
 * - A global consent (`allPsd2`) covers every account the PSU may share under the same agreement
 *   (or its own accounts), with every kind: it ends an older one of that scope unless the older
 *   had the owner name and it has not.
 * - Any other consent covers what it names: every account and card account of the older grant must
 *   be in it, with every kind (details, balances, transactions) and the owner name the older had.
 *   It never ends a global consent, which stands for every account of the PSU.
 * - An account-list consent ends nothing and is ended by nothing (it is one-off).
 */
export function supersedes(newer: GrantedConsent, older: GrantedConsent): boolean {
  if (newer.grant.listOnly || older.grant.listOnly) return false;
  if (!lastsAtLeast(newer, older)) return false;
  if (newer.access.kind === 'global' && newer.psuCorporateId === older.psuCorporateId) {
    return newer.access.ownerName || older.grant.accounts.every((account) => !account.ownerName);
  }
  if (older.access.kind === 'global') return false;
  return older.grant.accounts.every((olderAccount) => {
    const newerAccount = newer.grant.accounts.find(
      (account) => account.type === olderAccount.type && account.bankAccountId === olderAccount.bankAccountId,
    );
    return newerAccount !== undefined && grantsAtLeast(newerAccount, olderAccount);
  });
}
