import { randomUUID } from 'node:crypto';
import type { BankScope, CoreBanking } from '../../bank/core-banking.port.js';
import { withTransaction, type Db } from '../../db/create-db.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { todayIn } from '../../domain/iso-date.js';
import { localized } from '../../domain/localized.js';
import { compareMoney, formatAmount, type Money } from '../../domain/money.js';
import { executionDates } from '../../domain/periodic-schedule.js';
import type { NokRates } from '../../domain/regulatory-reporting.js';
import { nokEquivalentMinor } from '../../domain/regulatory-reporting.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import { idempotencyRepository, type Reservation, type StoredResponse } from '../../http/idempotency/idempotency.repository.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditRepository } from '../audit/audit.repository.js';
import { cancellationLinks, paymentLinks, paymentPath } from './payment-links.js';
import { isDomestic, offers, PRODUCTS_OF_SERVICE, type PaymentProduct, type PaymentService } from './payment-products.js';
import {
  checkBulkPayment,
  checkPeriodicPayment,
  checkSinglePayment,
  scheduleOf,
  type PaymentOrder,
  type RuleContext,
} from './payment-rules.js';
import { cancellationRule, FINAL_STATUSES, type TransactionStatus } from './payment-status.js';
import { transitionPayment } from './payment-transition.js';
import { paymentRepository, type Payment } from './payment.repository.js';
import type { BulkNdctBody, PeriodicNdctBody, SinglePaymentBody } from './payment.schemas.js';

export interface PaymentSettings {
  readonly publicUrl: string;
  /** How far ahead a requested execution or start date may lie. */
  readonly maxDaysAhead: number;
  readonly nokRates: NokRates;
}

/** A payment initiation request after the front door: who, what, and the request's identity. */
export interface Initiation {
  readonly tpp: TppIdentity;
  readonly service: PaymentService;
  readonly product: PaymentProduct;
  readonly body: unknown;
  readonly headers: RequestHeaders;
  readonly allowLogicalDuplicate: boolean;
  /** X-Request-ID and the fingerprint of the request it names (idempotency, DESIGN §2). */
  readonly request: { readonly id: string; readonly hash: string; readonly method: string; readonly path: string };
}

export type Cancellation = { readonly kind: 'cancelled' } | { readonly kind: 'needs-authorisation'; readonly body: unknown };

export interface PaymentsService {
  /** Creates a payment, or answers a retry with the stored answer; the answer is ready to send. */
  initiate(initiation: Initiation): Promise<StoredResponse>;
  find(tpp: TppIdentity, service: PaymentService, product: string, paymentId: string): Promise<Payment>;
  /** The payment as submitted, with its status (and for a periodic payment, its next execution dates). */
  view(payment: Payment): { transactionStatus: TransactionStatus } & Record<string, unknown>;
  statusView(payment: Payment): { transactionStatus: TransactionStatus; fundsAvailable?: boolean; psuMessage?: string };
  cancel(tpp: TppIdentity, service: PaymentService, product: string, paymentId: string, requestId: string): Promise<Cancellation>;
}

/** How many coming execution dates a periodic payment's GET lists. */
const SHOWN_EXECUTION_DATES = 12;

/**
 * Payment initiation (issue 4): the rules, the bank's say on the debtor account and the PSU, the
 * logical-duplicate rule, and the idempotent write of payment, audit event and stored answer in
 * one transaction (a crash leaves all or nothing, and a retry finds the answer).
 */
export function createPaymentsService(db: Db, coreBanking: CoreBanking, now: () => Date, settings: PaymentSettings): PaymentsService {
  function ruleContext(): RuleContext {
    return { today: todayIn(BANK_TIME_ZONE, now()), maxDaysAhead: settings.maxDaysAhead, nokRates: settings.nokRates };
  }

  function check(initiation: Initiation): PaymentOrder {
    const context = ruleContext();
    switch (initiation.service) {
      case 'payments':
        return checkSinglePayment(initiation.product, initiation.body as SinglePaymentBody, context);
      case 'bulk-payments':
        return checkBulkPayment(initiation.body as BulkNdctBody, context);
      case 'periodic-payments':
        return checkPeriodicPayment(initiation.body as PeriodicNdctBody, context);
    }
  }

  /** The bank's checks: the debtor account exists, fits the product, and the PSU may use it. */
  async function debtorAccountOf(scope: BankScope, initiation: Initiation, order: PaymentOrder): Promise<string> {
    const account = await coreBanking.findAccount(scope, { bban: order.debtorBban });
    if (!account) {
      throw new AppError('DEBTOR_ACCOUNT_UNKNOWN', { path: 'debtorAccount' });
    }
    if (order.debtorCurrency !== undefined && order.debtorCurrency !== account.currency) {
      throw new AppError('FORMAT_ERROR', {
        path: 'debtorAccount.currency',
        detail: localized(`the account is held in ${account.currency}`, `kontoen er i ${account.currency}`),
      });
    }
    if (isDomestic(initiation.service, initiation.product) && account.currency !== 'NOK') {
      throw new AppError('FORMAT_ERROR', {
        path: 'debtorAccount',
        detail: localized(
          `a Norwegian domestic payment is made from a NOK account; this one is held in ${account.currency}`,
          `en innenlandsk betaling belastes en NOK-konto; denne er i ${account.currency}`,
        ),
      });
    }
    const corporateId = initiation.headers.psuCorporateId;
    if (account.organisationNumber !== undefined && corporateId === undefined) {
      throw new AppError('CORPORATE_ID_REQUIRED', { path: 'PSU-Corporate-ID' });
    }
    if (corporateId !== undefined && corporateId !== account.organisationNumber) {
      throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
    }
    const psuId = initiation.headers.psuId?.number;
    if (psuId !== undefined) {
      const permission = await coreBanking.permission(scope, psuId, account.id, corporateId);
      if (!permission.canRegister) {
        throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', { path: 'debtorAccount' });
      }
      if (permission.registerLimit !== undefined && exceeds(order.amount, permission.registerLimit)) {
        throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', {
          path: initiation.service === 'bulk-payments' ? 'payments' : 'instructedAmount',
          detail: localized(
            `the amount is above the PSU's registration limit of ${formatAmount(permission.registerLimit)} ${permission.registerLimit.currency}`,
            `beløpet er over brukerens registreringsgrense på ${formatAmount(permission.registerLimit)} ${permission.registerLimit.currency}`,
          ),
        });
      }
    }
    return account.id;
  }

  /** Whether an amount is above a limit, comparing in NOK when the currencies differ (no rate: above). */
  function exceeds(amount: Money, limit: Money): boolean {
    if (amount.currency === limit.currency) return compareMoney(amount, limit) > 0;
    const amountNok = nokEquivalentMinor(amount, settings.nokRates);
    const limitNok = nokEquivalentMinor(limit, settings.nokRates);
    return amountNok === undefined || limitNok === undefined || amountNok > limitNok;
  }

  return {
    async initiate(initiation) {
      const key = { tppId: initiation.tpp.id, requestId: initiation.request.id };
      const earlier = await idempotencyRepository.peek(db, key, initiation.request.hash);
      if (earlier) return answer(earlier);

      const scope = { tppId: initiation.tpp.id };
      const order = check(initiation);
      const debtorAccountId = await debtorAccountOf(scope, initiation, order);
      const id = randomUUID();
      const at = now().toISOString();
      const links = paymentLinks(settings.publicUrl, initiation.service, initiation.product, id);
      const response: StoredResponse = {
        status: 201,
        headers: {
          location: `${settings.publicUrl}${paymentPath(initiation.service, initiation.product, id)}`,
          'aspsp-sca-approach': 'REDIRECT',
          'content-type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify({ transactionStatus: 'RCVD', paymentId: id, _links: links }),
      };
      // Periodic payments are standing orders: the duplicate rule is for single and bulk payments (DESIGN §2).
      const logicalKey = initiation.service === 'periodic-payments' ? undefined : order.logicalKey;
      try {
        return await withTransaction(db, async (trx) => {
          if (logicalKey !== undefined && !initiation.allowLogicalDuplicate) {
            // Equal payments queue here (PostgreSQL), so a parallel retry of this very request sees
            // the first one's stored answer below instead of taking it for a logical duplicate.
            await paymentRepository.lockLogicalKey(trx, initiation.tpp.id, logicalKey);
          }
          const concurrent = await idempotencyRepository.peek(trx, key, initiation.request.hash);
          if (concurrent) return answer(concurrent);
          if (logicalKey !== undefined && !initiation.allowLogicalDuplicate) {
            const duplicate = await paymentRepository.findLiveDuplicate(trx, initiation.tpp.id, logicalKey);
            if (duplicate !== undefined) {
              throw new AppError('PAYMENT_DUPLICATE', {
                detail: localized(
                  `payment ${duplicate} is equal and still live; send allowLogicalDuplicate=true to create this one anyway`,
                  `betaling ${duplicate} er lik og fortsatt aktiv; send allowLogicalDuplicate=true for å opprette denne likevel`,
                ),
              });
            }
          }
          const { psuId, psuCorporateId, ...context } = initiation.headers;
          await paymentRepository.insert(trx, {
            id,
            tppId: initiation.tpp.id,
            service: initiation.service,
            product: initiation.product,
            status: 'RCVD',
            requestId: initiation.request.id,
            psuId: psuId?.number,
            psuCorporateId,
            debtorAccountId,
            currency: order.amount.currency,
            amountMinor: order.amount.minor,
            requestedExecutionDate: order.requestedExecutionDate,
            logicalKey,
            body: order.body,
            requestContext: { ...context, acceptFixes: [...context.acceptFixes] },
            createdAt: at,
          });
          await auditRepository.append(
            trx,
            {
              actor: { type: 'tpp', id: initiation.tpp.id },
              requestId: initiation.request.id,
              action: 'payment.created',
              resource: { type: 'payment', id },
              details: { service: initiation.service, product: initiation.product, status: 'RCVD' },
            },
            at,
          );
          const recorded = await idempotencyRepository.recordCompleted(
            trx,
            key,
            { method: initiation.request.method, path: initiation.request.path, hash: initiation.request.hash },
            response,
            at,
          );
          if (!recorded) throw new LostRace();
          return response;
        });
      } catch (error) {
        if (error instanceof LostRace) {
          const winner = await idempotencyRepository.peek(db, key, initiation.request.hash);
          return answer(winner ?? { kind: 'in-progress' });
        }
        throw error;
      }
    },

    async find(tpp, service, product, paymentId) {
      if (!offers(service, product)) {
        throw productUnknown(service, product);
      }
      const payment = await paymentRepository.find(db, tpp.id, service, paymentId);
      if (!payment || payment.product !== product) {
        throw new AppError('RESOURCE_UNKNOWN', { path: 'paymentId' });
      }
      return payment;
    },

    view(payment) {
      const view: { transactionStatus: TransactionStatus } & Record<string, unknown> = {
        ...payment.body,
        transactionStatus: payment.status,
      };
      if (payment.service === 'periodic-payments') {
        // A cancelled or rejected standing order has no coming executions.
        if (FINAL_STATUSES.has(payment.status)) {
          view['nextExecutionDates'] = [];
          return view;
        }
        const today = todayIn(BANK_TIME_ZONE, now());
        view['nextExecutionDates'] = executionDates(scheduleOf(payment.body as PeriodicNdctBody), {
          from: today,
          count: SHOWN_EXECUTION_DATES,
        });
      }
      return view;
    },

    statusView(payment) {
      return {
        transactionStatus: payment.status,
        ...(payment.fundsAvailable === undefined ? {} : { fundsAvailable: payment.fundsAvailable }),
        ...(payment.statusReason === undefined ? {} : { psuMessage: payment.statusReason }),
      };
    },

    async cancel(tpp, service, product, paymentId, requestId) {
      const payment = await this.find(tpp, service, product, paymentId);
      switch (cancellationRule(payment.status)) {
        case 'cancel-now':
          await withTransaction(db, (trx) =>
            transitionPayment(trx, payment, {
              to: 'CANC',
              reason: 'Cancelled by the TPP before the PSU approved it',
              actor: { type: 'tpp', id: tpp.id },
              requestId,
              at: now().toISOString(),
            }),
          );
          return { kind: 'cancelled' };
        case 'needs-authorisation':
          return {
            kind: 'needs-authorisation',
            body: {
              transactionStatus: payment.status,
              _links: cancellationLinks(settings.publicUrl, service, payment.product, payment.id),
            },
          };
        case 'refused':
          throw new AppError('CANCELLATION_INVALID', {
            detail: localized(
              payment.status === 'PDNG'
                ? 'the payment is approved and queued for its execution date (PDNG)'
                : `the payment is in the final status ${payment.status}`,
              payment.status === 'PDNG'
                ? 'betalingen er godkjent og står i kø til utførelsesdatoen (PDNG)'
                : `betalingen har den endelige statusen ${payment.status}`,
            ),
          });
      }
    },
  };
}

/** Thrown inside the transaction to roll it back when a concurrent request recorded the id first. */
class LostRace extends Error {}

/** The stored answer to replay, or the 409 an X-Request-ID already taken calls for. */
function answer(earlier: Reservation): StoredResponse {
  switch (earlier.kind) {
    case 'replay':
      return earlier.response;
    case 'conflict':
      throw new AppError('REQUEST_ID_REUSED', { path: 'X-Request-ID' });
    case 'in-progress':
    case 'reserved':
      // peek never reserves; an unfinished claim is another request still running.
      throw new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
  }
}

/** 404 PRODUCT_UNKNOWN, saying which products the service offers. */
export function productUnknown(service: PaymentService, product: string): AppError {
  const offered = PRODUCTS_OF_SERVICE[service].join(', ');
  return new AppError('PRODUCT_UNKNOWN', {
    path: 'paymentProduct',
    detail: localized(
      `${service} does not offer ${product}; it offers ${offered}`,
      `${service} tilbyr ikke ${product}; tilbys: ${offered}`,
    ),
  });
}
