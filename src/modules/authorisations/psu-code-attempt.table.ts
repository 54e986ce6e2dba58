import type { Generated } from 'kysely';

/** A one-time code a PSU typed on any of its authorisations' code pages (migration 0011). */
export interface PsuCodeAttemptTable {
  id: Generated<number>;
  /** The bank the PSU is a customer of: '' in production; in the sandbox the TPP whose mock bank it is. */
  bank_scope: string;
  psu_id: string;
  authorisation_id: string;
  /** checking (counted before the code is checked, as if wrong), wrong, right or unchecked. */
  outcome: string;
  attempted_at: string;
  /** Set on the attempt that locked the PSU's code step: until when. */
  locks_until: string | null;
}
