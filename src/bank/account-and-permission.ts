import type { AccountPermission, AccountReference, BankAccount, CoreBanking, RequestingTpp } from './core-banking.port.js';

/**
 * An account found by its number and, when a PSU is named, what that PSU may do with it: one call
 * to the bank when it offers {@link CoreBanking.findAccountWithPermission}, else the account first
 * and then the permission on it. Undefined when there is no such account.
 */
export async function findAccountAs(
  bank: CoreBanking,
  tpp: RequestingTpp,
  reference: AccountReference,
  psu: { readonly psuId?: string | undefined; readonly organisationNumber?: string | undefined },
): Promise<{ readonly account: BankAccount; readonly permission?: AccountPermission | undefined } | undefined> {
  const { psuId, organisationNumber } = psu;
  if (psuId === undefined) {
    const account = await bank.findAccount(tpp, reference);
    return account && { account };
  }
  if (bank.findAccountWithPermission) return bank.findAccountWithPermission(tpp, reference, psuId, organisationNumber);
  const account = await bank.findAccount(tpp, reference);
  return account && { account, permission: await bank.permission(tpp, psuId, account.id, organisationNumber) };
}

/**
 * Whether a PSU is engaged on an account at all (any role on it). Only such a PSU learns that a
 * corporate account's agreement is not the one it named: to anyone else the account is one it may
 * not use, so trying organisation numbers against an account number tells nothing about its owner
 * (docs/design.md §2b).
 */
export function isEngaged(permission: AccountPermission): boolean {
  return permission.canView || permission.canRegister;
}
