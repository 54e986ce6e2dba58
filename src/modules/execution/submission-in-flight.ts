import type { DbOrTx } from '../../db/create-db.js';
import { paymentSubmissionRepository } from './payment-submission.repository.js';

/**
 * Whether a submission of the payment to the bank is in flight (handed over, its outcome not
 * recorded yet): then only the executor may move the payment. The payments module asks it in its
 * own transaction before any other status change (payment-transition.ts), and before a failed SCA
 * rejects a payment (payment-approval.ts).
 *
 * A function of its own rather than a method of the executor: transitionPayment is a plain
 * function every module calls, and the executor is itself built on it, so it cannot be handed the
 * executor.
 */
export function isSubmissionInFlight(db: DbOrTx, paymentId: string): Promise<boolean> {
  return paymentSubmissionRepository.isInFlight(db, paymentId);
}
