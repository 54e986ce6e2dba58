import type { CoreBanking } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import type { DbOrTx } from '../../db/create-db.js';
import type { IsoDate } from '../../domain/iso-date.js';
import type { ActorType } from '../audit/audit-event.js';
import type { BankClock } from '../clock/bank-clock.js';
import type { PaymentExecutor } from '../execution/payment-executor.js';
import { isSubmissionInFlight } from '../execution/submission-in-flight.js';
import { displayDate } from '../../domain/display-format.js';
import { localized, type Localized } from '../../domain/localized.js';
import type { NokRates } from '../../domain/regulatory-reporting.js';
import type { Approval, AuthorisationSubject } from '../authorisations/authorisation-subject.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { Authorisation } from '../authorisations/authorisation.model.js';
import { paymentConfirmation } from './payment-confirmation.js';
import { exceedsLimit } from './payment-limits.js';
import { isInstant } from './payment-products.js';
import { allows, type TransactionStatus } from './payment-status.js';
import { transitionPayment } from './payment-transition.js';
import { paymentRepository } from './payment.repository.js';
import type { Payment } from './payment.model.js';

/**
 * Whether an approver's approval is enough alone: no approval limit, or an amount within it. An
 * approval limit of 0 is the sandbox's way to say "always with a second approver".
 */
export function approvesAlone(
  payment: Pick<Payment, 'currency' | 'amountMinor'>,
  approvalLimit: Parameters<typeof exceedsLimit>[1] | undefined,
  rates: NokRates,
): boolean {
  return approvalLimit === undefined || !exceedsLimit({ currency: payment.currency, minor: payment.amountMinor }, approvalLimit, rates);
}

const refused = (reason: Localized, rejectsResource: boolean): Approval => ({ ok: false, reason, rejectsResource });

/** What one PSU's approval does to one payment: move it on; or not, and then whether it is rejected. */
export type PaymentApprovalPlan =
  | { readonly kind: 'approve'; readonly to: TransactionStatus }
  | { readonly kind: 'refuse'; readonly reason: Localized; readonly rejectsPayment: boolean };

/** The approval rules of payments, shared by a payment's own authorisations and a signing basket's. */
export interface PaymentApprover {
  /**
   * What `psuId`'s approval would do to each payment, in order (reads only; a basket's payments
   * are read together, not one query each).
   */
  plan(payments: readonly Payment[], psuId: string): Promise<PaymentApprovalPlan[]>;
  /**
   * Carries out an approval plan in the caller's transaction. A payment the bank is to be handed
   * at once (an instant (Straks) payment fully approved, docs/design.md §3; in production mode any
   * payment approved on its execution date) is marked submitted there; the answer is what submits
   * it once that transaction has committed (ACSC, or RJCT when the bank cannot pay an instant one).
   */
  approve(
    trx: DbOrTx,
    payment: Payment,
    to: TransactionStatus,
    actor: { type: ActorType; id: string },
    at: string,
  ): Promise<AfterCommit | undefined>;
}

/** Work to do once the approving transaction has committed: never throws. */
export type AfterCommit = () => Promise<void>;

/** Runs every one of `steps`, in order; undefined when there is none. */
export function afterAll(steps: readonly (AfterCommit | undefined)[]): AfterCommit | undefined {
  const present = steps.filter((step): step is AfterCommit => step !== undefined);
  if (present.length === 0) return undefined;
  return async () => {
    for (const step of present) await step();
  };
}

export interface PaymentApproverOptions {
  /** Production mode: a payment approved when due is handed to the bank at once, not at a batch run. */
  readonly submitWhenApproved: boolean;
}

/**
 * The approver must hold the right to use the debtor account (a private account's owner, or an
 * engagement with REGISTER on the corporate agreement the payment names). Within the approver's
 * approval limit the payment is approved: ACTC, or PDNG when it is due on a later date. Above it
 * the approval counts as one of two: PATC until another approver approves too, through the
 * payment's own authorisations or its signing basket's.
 */
export function createPaymentApprover(
  coreBanking: CoreBanking,
  authorisations: Pick<AuthorisationService, 'approversOf'>,
  clock: BankClock,
  executor: PaymentExecutor,
  rates: NokRates,
  options: PaymentApproverOptions = { submitWhenApproved: false },
): PaymentApprover {
  /** Marks the payment submitted in `trx`; what hands it to the bank after the commit. */
  async function submitAfterCommit(trx: DbOrTx, payment: Payment, actor: { type: ActorType; id: string }, at: string) {
    const today = await clock.today(payment.tppId, trx);
    const submission = await executor.prepare(trx, payment, today, at);
    return () => executor.complete(submission, { today, lastChance: false, actor, at: new Date().toISOString() });
  }

  return {
    async approve(trx, payment, to, actor, at) {
      if (to === 'ACTC' && isInstant(payment.product)) {
        // Settled at the approval, through the bank: it stays as it is (RCVD or PATC) until the
        // bank answers, then moves to ACSC or RJCT; marked submitted, no one else may move it.
        await paymentRepository.lockRows(trx, [payment.id]);
        return submitAfterCommit(trx, payment, actor, at);
      }
      const approved = await transitionPayment(trx, payment, { to, actor, at });
      if (to === 'ACTC' && options.submitWhenApproved && payment.service !== 'periodic-payments') {
        return submitAfterCommit(trx, approved, actor, at);
      }
      return undefined;
    },

    async plan(payments, psuId) {
      const tppId = payments[0]?.tppId ?? '';
      const today = await clock.today(tppId);
      const basketIds = [...new Set(payments.flatMap((payment) => (payment.basketId === undefined ? [] : [payment.basketId])))];
      // The approval under way is not finalised yet, so it is not among them.
      const [own, inBasket] = await Promise.all([
        authorisations.approversOf(
          tppId,
          'payment',
          payments.map((payment) => payment.id),
        ),
        authorisations.approversOf(tppId, 'signing-basket', basketIds),
      ]);
      const permissions = new Map<string, ReturnType<CoreBanking['permission']>>();
      const plans: PaymentApprovalPlan[] = [];
      for (const payment of payments) {
        if (!allows(payment.status, 'approve')) {
          plans.push({ kind: 'refuse', reason: noLongerWaiting(payment.status), rejectsPayment: false });
          continue;
        }
        // A basket's payments mostly share one account: the bank is asked once per account.
        const key = `${payment.debtorAccountId}\n${payment.psuCorporateId ?? ''}`;
        const asked =
          permissions.get(key) ?? coreBanking.permission({ tppId: payment.tppId }, psuId, payment.debtorAccountId, payment.psuCorporateId);
        permissions.set(key, asked);
        const permission = await asked;
        if (!permission.canRegister) {
          plans.push({
            kind: 'refuse',
            reason: localized(
              'You may not approve payments from this account',
              'Du har ikke rett til å godkjenne betalinger fra denne kontoen',
            ),
            rejectsPayment: true,
          });
          continue;
        }
        const earlier = [...(own.get(payment.id) ?? []), ...(payment.basketId === undefined ? [] : (inBasket.get(payment.basketId) ?? []))];
        if (earlier.includes(psuId)) {
          plans.push({
            kind: 'refuse',
            reason: localized(
              'You have already approved this payment; another approver must approve it too',
              'Du har allerede godkjent denne betalingen; en annen må også godkjenne den',
            ),
            rejectsPayment: false,
          });
          continue;
        }
        // Dual control: two approvers always suffice; one suffices within the approval limit.
        const complete = earlier.length > 0 || approvesAlone(payment, permission.approvalLimit, rates);
        plans.push({ kind: 'approve', to: !complete ? 'PATC' : isFutureDated(payment, today) ? 'PDNG' : 'ACTC' });
      }
      return plans;
    },
  };
}

/**
 * What a PSU's approval does to a payment (docs/design.md §3), by the {@link PaymentApprover}'s
 * rules. A payment in an open signing basket is approved with the basket only. A failed
 * authorisation rejects the payment (RJCT).
 */
export function paymentApprovalSubject(db: Db, approver: PaymentApprover): AuthorisationSubject {
  return {
    async confirmation(authorisation) {
      return paymentConfirmation(await paymentOf(db, authorisation), false);
    },

    async prepareApproval(authorisation, psuId) {
      const payment = await paymentOf(db, authorisation);
      if (payment.basketId !== undefined && allows(payment.status, 'approve')) return refused(inBasket(), false);
      const [plan] = await approver.plan([payment], psuId);
      if (!plan) throw new Error('a plan for each payment');
      if (plan.kind === 'refuse') return refused(plan.reason, plan.rejectsPayment);
      return {
        ok: true,
        apply: async (trx, at) => approver.approve(trx, payment, plan.to, { type: 'psu', id: psuId }, at),
      };
    },

    async approvedMessage(authorisation) {
      const payment = await paymentOf(db, authorisation);
      if (payment.status === 'PATC') {
        return localized(
          'You have approved it. Another approver must approve it too before it is paid.',
          'Du har godkjent. En annen må også godkjenne før den blir betalt.',
        );
      }
      if (payment.status === 'PDNG' && payment.requestedExecutionDate !== undefined) {
        const date = displayDate(payment.requestedExecutionDate);
        return localized(`You have approved it. It will be paid on ${date.en}.`, `Du har godkjent. Den blir betalt ${date.nb}.`);
      }
      // An instant payment settles at the approval: the PSU learns at once whether it was paid.
      if (payment.status === 'ACSC') return localized('You have approved it, and it has been paid.', 'Du har godkjent, og den er betalt.');
      if (payment.status === 'RJCT' && payment.fundsAvailable === false) {
        return localized(
          'You have approved it, but it could not be paid: there is not enough money on the account.',
          'Du har godkjent, men den kunne ikke betales: det er ikke nok penger på kontoen.',
        );
      }
      return localized('You have approved it.', 'Du har godkjent.');
    },

    async onFailure(trx, authorisation, reason, at, actor) {
      const payment = await paymentRepository.findById(trx, authorisation.tppId, authorisation.resourceId ?? '');
      if (!payment || !allows(payment.status, 'approve')) return;
      // Approved through another authorisation and being settled (an instant payment): it stays.
      if (await isSubmissionInFlight(trx, payment.id)) return;
      await transitionPayment(trx, payment, {
        to: 'RJCT',
        reason: `SCA failed: ${reason.en}`,
        actor,
        at,
      });
    },
  };
}

/**
 * What a PSU's approval of a cancellation does: the payment is cancelled (CANC) if it still may
 * be. A failed cancellation authorisation leaves the payment as it was.
 */
export function paymentCancellationSubject(db: Db, coreBanking: CoreBanking): AuthorisationSubject {
  return {
    async confirmation(authorisation) {
      return paymentConfirmation(await paymentOf(db, authorisation), true);
    },

    async prepareApproval(authorisation, psuId) {
      const payment = await paymentOf(db, authorisation);
      if (!allows(payment.status, 'authorise-cancellation')) {
        return refused(
          localized(
            `The payment can no longer be cancelled (status ${payment.status})`,
            `Betalingen kan ikke lenger kanselleres (status ${payment.status})`,
          ),
          false,
        );
      }
      const permission = await coreBanking.permission({ tppId: payment.tppId }, psuId, payment.debtorAccountId, payment.psuCorporateId);
      if (!permission.canRegister) {
        return refused(
          localized('You may not cancel payments from this account', 'Du har ikke rett til å kansellere betalinger fra denne kontoen'),
          false,
        );
      }
      return {
        ok: true,
        apply: async (trx, at) => {
          await transitionPayment(trx, payment, { to: 'CANC', reason: 'Cancelled by the PSU', actor: { type: 'psu', id: psuId }, at });
        },
      };
    },

    async approvedMessage() {
      return localized('The payment is cancelled.', 'Betalingen er kansellert.');
    },

    async onFailure() {
      // A cancellation that fails leaves the payment as it was.
    },
  };
}

async function paymentOf(db: Db, authorisation: Authorisation): Promise<Payment> {
  const payment = await paymentRepository.findById(db, authorisation.tppId, authorisation.resourceId ?? '');
  if (!payment) throw new Error(`authorisation ${authorisation.id} names no payment`);
  return payment;
}

/** Why a payment in an open signing basket is not approved alone. */
export function inBasket(): Localized {
  return localized(
    'The payment is in a signing basket: it is approved with the basket',
    'Betalingen ligger i en signeringskurv: den godkjennes sammen med kurven',
  );
}

function noLongerWaiting(status: TransactionStatus): Localized {
  return localized(
    `The payment is no longer waiting for approval (status ${status})`,
    `Betalingen venter ikke lenger på godkjenning (status ${status})`,
  );
}

/** Due on a later bank date than today: approved, it waits (PDNG). Standing orders are approved as a whole (ACTC). */
export function isFutureDated(payment: Pick<Payment, 'service' | 'requestedExecutionDate'>, today: IsoDate): boolean {
  if (payment.service === 'periodic-payments' || payment.requestedExecutionDate === undefined) return false;
  return payment.requestedExecutionDate > today;
}
