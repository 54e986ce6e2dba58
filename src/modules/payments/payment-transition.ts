import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { ActorType } from '../audit/audit-event.js';
import { auditService } from '../audit/audit.service.js';
import { isSubmissionInFlight } from '../execution/submission-in-flight.js';
import { paymentRepository } from './payment.repository.js';
import type { Payment } from './payment.model.js';
import { notificationOutbox } from '../notifications/notification.service.js';
import { basketStatusOf } from '../signing-baskets/basket-status.js';
import { canTransition, FINAL_STATUSES, type TransactionStatus } from './payment-status.js';

export interface StatusChange {
  readonly to: TransactionStatus;
  /**
   * Statuses passed on the way within the same transaction (ACSP on the way to ACSC in a batch
   * run): each step is checked and audited; only `to` is stored.
   */
  readonly through?: readonly TransactionStatus[] | undefined;
  /** Why, in words a TPP may read (shown as psuMessage for RJCT and CANC). */
  readonly reason?: string | undefined;
  readonly fundsAvailable?: boolean | undefined;
  readonly actor: { readonly type: ActorType; readonly id: string };
  readonly requestId?: string | undefined;
  readonly at: string;
  /**
   * The executor's own change, made as it records the bank's answer. Any other change is refused
   * while a submission of the payment to the bank is in flight (its outcome not recorded yet).
   */
  readonly byExecutor?: boolean | undefined;
}

/**
 * The one way a payment's status changes (docs/design.md §3): an illegal transition is refused, the
 * update only applies if nobody changed the status meanwhile, and the change is written to the
 * audit log in the caller's transaction, with its time and cause, and to the notification outbox
 * when the payment's (or its signing basket's) TPP asked for notifications.
 */
export async function transitionPayment(trx: DbOrTx, payment: Payment, change: StatusChange): Promise<Payment> {
  const steps = [payment.status, ...(change.through ?? []), change.to];
  for (let index = 1; index < steps.length; index++) {
    const [from, to] = [steps[index - 1]!, steps[index]!];
    if (!canTransition(from, to)) {
      throw new AppError('STATUS_INVALID', {
        detail: localized(`a payment in status ${from} cannot move to ${to}`, `en betaling med status ${from} kan ikke gå til ${to}`),
      });
    }
  }
  if (!change.byExecutor) {
    // The payment's lock first (PostgreSQL), so a submission marked meanwhile is seen below.
    await paymentRepository.lockRows(trx, [payment.id]);
    if (await isSubmissionInFlight(trx, payment.id)) {
      throw new AppError('STATUS_INVALID', {
        detail: localized('the payment is being executed by the bank', 'betalingen blir utført av banken'),
      });
    }
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
  await auditService.appendAll(
    trx,
    steps.slice(1).map((to, index) => ({
      actor: change.actor,
      requestId: change.requestId,
      action: 'payment.status-changed',
      resource: { type: 'payment', id: payment.id },
      details: { from: steps[index], to, ...(change.reason && to === change.to ? { reason: change.reason } : {}) },
    })),
    change.at,
  );
  await notificationOutbox.statusChanged(
    trx,
    'payment',
    payment.id,
    steps.slice(1).map((status) => ({ status, final: FINAL_STATUSES.has(status) })),
    change.at,
  );
  if (payment.basketId !== undefined) {
    // A basket's status is its payments' worst (basket-status.ts): it may have moved with this one.
    const basketId = payment.basketId;
    await notificationOutbox.derivedStatusMayHaveChanged(
      trx,
      'signing-basket',
      basketId,
      async () => {
        const statuses = await paymentRepository.statusesInBasket(trx, basketId);
        return { status: basketStatusOf(statuses, false), final: statuses.every((status) => FINAL_STATUSES.has(status)) };
      },
      change.at,
    );
  }
  return {
    ...payment,
    status: change.to,
    statusReason: change.reason,
    fundsAvailable: change.fundsAvailable ?? payment.fundsAvailable,
    statusChangedAt: change.at,
  };
}
