import type { RecordedOutcome } from './recorded-outcome.js';

/**
 * A payment (item 0) or one payment of a bulk (item n) as submitted to the bank (migration 0012).
 * `outcome` null: submitted, or about to be, with no answer recorded (in flight).
 */
export interface PaymentSubmissionTable {
  payment_id: string;
  item: number;
  tpp_id: string;
  submitted_at: string;
  outcome: RecordedOutcome['kind'] | null;
  reason: string | null;
  /** The outcome feed's, received while the submission was in flight. */
  reported: RecordedOutcome['kind'] | null;
  reported_reason: string | null;
}

/** How far the server has read a bank's outcome feed. */
export interface OutcomeFeedCursorTable {
  name: string;
  cursor: string;
  updated_at: string;
}
