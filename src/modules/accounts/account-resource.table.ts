/**
 * The opaque id a TPP sees for an account or card account (migration 0014): one per TPP and
 * account, so it is stable across consents, differs between TPPs and never is the account number.
 */
export interface AccountResourceTable {
  resource_id: string;
  tpp_id: string;
  account_type: 'account' | 'card';
  /** The bank's own id of the account (core-banking port). */
  bank_account_id: string;
  created_at: string;
}
