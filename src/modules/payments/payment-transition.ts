import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { ActorType, AuditEvent } from '../audit/audit-event.js';
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
  const steps = stepsOf(payment, change);
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
  await auditService.appendAll(trx, eventsOf(payment, change, steps), change.at);
  await notifyStatusChanges(trx, [{ payment, steps }], change.at);
  return {
    ...payment,
    status: change.to,
    statusReason: change.reason,
    fundsAvailable: change.fundsAvailable ?? payment.fundsAvailable,
    statusChangedAt: change.at,
  };
}

/**
 * The executor's changes of many payments at once (a batch run's chunk, docs/design.md §3): each
 * checked as {@link transitionPayment} checks it, the status updates and audit events written in
 * a few statements. The caller holds the payments' locks and has read them in its transaction.
 * All or nothing: if any payment's status was no longer what the caller read, nothing is to be
 * kept (STATUS_INVALID; the caller rolls its transaction or savepoint back).
 */
export async function transitionPayments(
  trx: DbOrTx,
  changes: readonly { readonly payment: Pick<Payment, 'id' | 'status' | 'basketId'>; readonly change: StatusChange }[],
): Promise<void> {
  const byTime = new Map<string, { events: AuditEvent[]; moves: PaymentMove[] }>();
  for (const { payment, change } of changes) {
    if (!change.byExecutor) throw new Error('only the executor changes payments together; any other change is made one by one');
    const steps = stepsOf(payment, change);
    const atTime = byTime.get(change.at) ?? { events: [], moves: [] };
    atTime.events.push(...eventsOf(payment, change, steps));
    atTime.moves.push({ payment, steps });
    byTime.set(change.at, atTime);
  }
  const moved = await paymentRepository.updateStatuses(
    trx,
    changes.map(({ payment, change }) => ({
      id: payment.id,
      from: payment.status,
      to: change.to,
      reason: change.reason,
      fundsAvailable: change.fundsAvailable,
      at: change.at,
    })),
  );
  if (moved !== changes.length) throw new AppError('STATUS_INVALID');
  for (const [at, { events, moves }] of byTime) {
    await auditService.appendAll(trx, events, at);
    await notifyStatusChanges(trx, moves, at);
  }
}

/** A payment's move through `steps`, its status before first. */
interface PaymentMove {
  readonly payment: Pick<Payment, 'id' | 'basketId'>;
  readonly steps: readonly TransactionStatus[];
}

/**
 * The notification outbox's part of status changes: each payment's steps, and the status of each
 * signing basket a moved payment is in (a basket's status is its payments' worst, basket-status.ts).
 */
async function notifyStatusChanges(trx: DbOrTx, moves: readonly PaymentMove[], at: string): Promise<void> {
  await notificationOutbox.statusesChanged(
    trx,
    'payment',
    moves.map(({ payment, steps }) => ({
      id: payment.id,
      steps: steps.slice(1).map((status) => ({ status, final: FINAL_STATUSES.has(status) })),
    })),
    at,
  );
  const basketIds = moves.flatMap(({ payment }) => (payment.basketId === undefined ? [] : [payment.basketId]));
  if (basketIds.length === 0) return;
  await notificationOutbox.derivedStatusesMayHaveChanged(
    trx,
    'signing-basket',
    basketIds,
    async (basketId) => {
      const statuses = await paymentRepository.statusesInBasket(trx, basketId);
      return { status: basketStatusOf(statuses, false), final: statuses.every((status) => FINAL_STATUSES.has(status)) };
    },
    at,
  );
}

/** The statuses a change goes through, from the payment's; STATUS_INVALID for an illegal step. */
function stepsOf(payment: Pick<Payment, 'status'>, change: StatusChange): TransactionStatus[] {
  const steps = [payment.status, ...(change.through ?? []), change.to];
  for (let index = 1; index < steps.length; index++) {
    const [from, to] = [steps[index - 1]!, steps[index]!];
    if (!canTransition(from, to)) {
      throw new AppError('STATUS_INVALID', {
        detail: localized(`a payment in status ${from} cannot move to ${to}`, `en betaling med status ${from} kan ikke gå til ${to}`),
      });
    }
  }
  return steps;
}

/** One audit event per step, the reason on the last. */
function eventsOf(payment: Pick<Payment, 'id'>, change: StatusChange, steps: readonly TransactionStatus[]): AuditEvent[] {
  return steps.slice(1).map((to, index) => ({
    actor: change.actor,
    requestId: change.requestId,
    action: 'payment.status-changed',
    resource: { type: 'payment', id: payment.id },
    details: { from: steps[index], to, ...(change.reason && to === change.to ? { reason: change.reason } : {}) },
  }));
}
