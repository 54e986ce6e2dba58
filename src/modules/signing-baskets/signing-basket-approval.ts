import type { Db, DbOrTx } from '../../db/create-db.js';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { Approval, AuthorisationSubject } from '../authorisations/authorisation-subject.js';
import type { Authorisation } from '../authorisations/authorisation.model.js';
import { afterAll, type AfterCommit, type PaymentApprover } from '../payments/payment-approval.js';
import { allows } from '../payments/payment-status.js';
import { transitionPayment } from '../payments/payment-transition.js';
import { paymentStore } from '../payments/payment-store.js';
import type { Payment } from '../payments/payment.model.js';
import { basketAllows, countedAs } from './basket-status.js';
import { basketConfirmation } from './signing-basket-confirmation.js';
import { signingBasketRepository, type SigningBasket } from './signing-basket.repository.js';

const refused = (reason: Localized, rejectsResource: boolean): Approval => ({ ok: false, reason, rejectsResource });

/**
 * What a PSU's approval of a signing basket does. It is not atomic, as the requirement
 * says: each payment still held by the basket moves by its own approval rules (the
 * {@link PaymentApprover} a payment's own authorisation uses), in the one approving transaction —
 * approved ones to ACTC, PDNG or PATC, ones the PSU may not approve to RJCT — and the basket's
 * status shows the worst case. Only when the approval would move none of them does the
 * authorisation fail, as a payment's own would. A failed authorisation rejects every payment still
 * waiting in the basket.
 */
export function signingBasketApprovalSubject(db: Db, approver: PaymentApprover): AuthorisationSubject {
  return {
    async confirmation(authorisation) {
      const { payments } = await contentOf(db, authorisation);
      return basketConfirmation(payments);
    },

    async prepareApproval(authorisation, psuId) {
      const { basket, payments } = await contentOf(db, authorisation);
      if (basket.deletedAt !== undefined) {
        return refused(localized('The TPP deleted the signing basket', 'Tredjepartstjenesten slettet signeringskurven'), false);
      }
      const planned = await approver.plan(payments, psuId);
      const plans = payments.map((payment, index) => ({ payment, plan: planned[index]! }));
      if (!plans.some(({ plan }) => plan.kind === 'approve')) {
        const refusals = plans.flatMap(({ plan }) => (plan.kind === 'refuse' ? [plan] : []));
        const waiting = basketAllows(
          payments.map((payment) => payment.status),
          false,
          'authorise',
        );
        const reason = waiting
          ? (refusals.find((refusal) => refusal.rejectsPayment) ?? refusals[0])?.reason
          : localized('No payment in the basket waits for approval any more', 'Ingen betaling i kurven venter lenger på godkjenning');
        return refused(
          reason ?? localized('Nothing to approve', 'Ingenting å godkjenne'),
          refusals.every((refusal) => refusal.rejectsPayment),
        );
      }
      return {
        ok: true,
        apply: async (trx, at) => {
          // A DELETE of the basket waits for this transaction, or this one finds the basket deleted.
          if (!(await signingBasketRepository.lockUndeleted(trx, basket.id))) throw new AppError('STATUS_INVALID');
          // Each payment moves by its own plan only if nothing changed it since (the TPP may have
          // cancelled one meanwhile): that one stays as it is, the others are approved all the same.
          const ids = plans.map(({ payment }) => payment.id);
          await paymentStore.lockRows(trx, ids);
          const current = new Map((await paymentStore.findManyById(trx, basket.tppId, ids)).map((payment) => [payment.id, payment]));
          const unchanged = plans.filter(({ payment }) => {
            const now = current.get(payment.id);
            return now !== undefined && now.status === payment.status && now.basketId === basket.id;
          });
          if (!unchanged.some(({ plan }) => plan.kind === 'approve')) throw new AppError('STATUS_INVALID');
          const actor = { type: 'psu' as const, id: psuId };
          const afterCommit: (AfterCommit | undefined)[] = [];
          for (const { payment, plan } of unchanged) {
            if (plan.kind === 'approve') {
              afterCommit.push(await approver.approve(trx, payment, plan.to, actor, at));
            } else if (plan.rejectsPayment) {
              await transitionPayment(trx, payment, {
                to: 'RJCT',
                reason: `Not approved in its signing basket: ${plan.reason.en}`,
                actor,
                at,
              });
            }
          }
          return afterAll(afterCommit);
        },
      };
    },

    async approvedMessage(authorisation) {
      const { payments } = await contentOf(db, authorisation);
      const counted = payments.map((payment) => countedAs(payment.status));
      const approved = counted.filter((status) => status === 'ACTC' || status === 'PATC').length;
      const waiting = counted.filter((status) => status === 'PATC').length;
      const rejected = counted.filter((status) => status === 'RJCT').length;
      const total = payments.length;
      const parts = [
        approved === total
          ? localized(
              `You have approved ${plural(total, 'payment', 'payments')}.`,
              `Du har godkjent ${total} ${total === 1 ? 'betaling' : 'betalinger'}.`,
            )
          : localized(`You have approved ${approved} of ${total} payments.`, `Du har godkjent ${approved} av ${total} betalinger.`),
      ];
      if (rejected > 0) {
        parts.push(
          localized(
            `${plural(rejected, 'payment was', 'payments were')} not approved; the TPP can tell you why.`,
            `${rejected} ${rejected === 1 ? 'betaling ble' : 'betalinger ble'} ikke godkjent; tredjepartstjenesten kan fortelle hvorfor.`,
          ),
        );
      }
      if (waiting > 0) {
        parts.push(
          localized(
            `Another approver must approve ${waiting === 1 ? '1 of them' : `${waiting} of them`} too before ${waiting === 1 ? 'it is' : 'they are'} paid.`,
            `En annen må også godkjenne ${waiting} av dem før de blir betalt.`,
          ),
        );
      }
      return localized(parts.map((part) => part.en).join(' '), parts.map((part) => part.nb).join(' '));
    },

    async onFailure(trx, authorisation, reason, at, actor) {
      const { payments } = await contentOf(trx, authorisation);
      for (const payment of payments) {
        if (!allows(payment.status, 'approve')) continue;
        await transitionPayment(trx, payment, { to: 'RJCT', reason: `SCA failed: ${reason.en}`, actor, at });
      }
    },
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The basket an authorisation names and the payments it still holds, in the TPP's order. A payment
 * released by a DELETE no longer belongs to it.
 */
async function contentOf(db: DbOrTx, authorisation: Authorisation): Promise<{ basket: SigningBasket; payments: Payment[] }> {
  const basket = await signingBasketRepository.find(db, authorisation.tppId, authorisation.resourceId ?? '');
  if (!basket) throw new Error(`authorisation ${authorisation.id} names no signing basket`);
  const found = await paymentStore.findManyById(db, basket.tppId, basket.paymentIds);
  const byId = new Map(found.filter((payment) => payment.basketId === basket.id).map((payment) => [payment.id, payment]));
  return { basket, payments: basket.paymentIds.flatMap((id) => byId.get(id) ?? []) };
}
