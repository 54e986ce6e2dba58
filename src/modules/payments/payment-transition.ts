import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { auditRepository, type ActorType } from '../audit/audit.repository.js';
import { paymentRepository, type Payment } from './payment.repository.js';
import { canTransition, type TransactionStatus } from './payment-status.js';

export interface StatusChange {
  readonly to: TransactionStatus;
  /** Why, in words a TPP may read (shown as psuMessage for RJCT and CANC). */
  readonly reason?: string | undefined;
  readonly fundsAvailable?: boolean | undefined;
  readonly actor: { readonly type: ActorType; readonly id: string };
  readonly requestId?: string | undefined;
  readonly at: string;
}

/**
 * The one way a payment's status changes (DESIGN §3): an illegal transition is refused, the
 * update only applies if nobody changed the status meanwhile, and the change is written to the
 * audit log in the caller's transaction, with its time and cause.
 */
export async function transitionPayment(trx: DbOrTx, payment: Payment, change: StatusChange): Promise<Payment> {
  if (!canTransition(payment.status, change.to)) {
    throw new AppError('STATUS_INVALID', {
      detail: localized(
        `a payment in status ${payment.status} cannot move to ${change.to}`,
        `en betaling med status ${payment.status} kan ikke gå til ${change.to}`,
      ),
    });
  }
  const applied = await paymentRepository.updateStatus(trx, payment.id, {
    from: payment.status,
    to: change.to,
    reason: change.reason,
    fundsAvailable: change.fundsAvailable,
    at: change.at,
  });
  if (!applied) {
    throw new AppError('STATUS_INVALID');
  }
  await auditRepository.append(
    trx,
    {
      actor: change.actor,
      requestId: change.requestId,
      action: 'payment.status-changed',
      resource: { type: 'payment', id: payment.id },
      details: { from: payment.status, to: change.to, ...(change.reason ? { reason: change.reason } : {}) },
    },
    change.at,
  );
  return {
    ...payment,
    status: change.to,
    statusReason: change.reason,
    fundsAvailable: change.fundsAvailable ?? payment.fundsAvailable,
    statusChangedAt: change.at,
  };
}
