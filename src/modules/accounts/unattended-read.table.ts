/** Reads of an account without the PSU present (migration 0015): the latest ones per consent, account and kind. */
export interface UnattendedReadTable {
  consent_id: string;
  /** The bank's own id of the account or card account. */
  account_id: string;
  kind: 'details' | 'balances' | 'transactions';
  /** ISO times of the latest reads by the bank clock, oldest first, comma-separated. */
  read_times: string;
}
