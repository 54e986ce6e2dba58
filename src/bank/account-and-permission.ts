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
