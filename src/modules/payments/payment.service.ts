import { newTimeOrderedId } from '../../db/time-ordered-id.js';
import type { RequestingTpp, CoreBanking } from '../../bank/core-banking.port.js';
import { findAccountAs, isEngaged } from '../../bank/account-and-permission.js';
import type { BankClock } from '../clock/bank-clock.js';
import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { referenceNamesCurrency } from '../../domain/currencies.js';
import { CreatedResource } from '../../domain/created-resource.js';
import { localized } from '../../domain/localized.js';
import { formatAmount, type Money } from '../../domain/money.js';
import { withinPsuMessage } from '../../domain/psu-message.js';
import { executionDates } from '../../domain/periodic-schedule.js';
import type { NokRates } from '../../domain/regulatory-reporting.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditService } from '../audit/audit.service.js';
import { exceedsLimit } from './payment-limits.js';
import { cancellationLinks, initiationLinks, paymentLinks, paymentPath, type AuthorisationKind } from './payment-links.js';
import { approvesAlone } from './payment-approval.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { AuthorisableResource } from '../authorisations/authorisation-start.js';
import type { PsuAccessService } from '../psu-access/psu-access.service.js';
import { notificationAnswerHeaders, notificationOutbox, type NotificationService } from '../notifications/notification.service.js';
import { isDomestic, isInstant, offers, PRODUCTS_OF_SERVICE, type PaymentProduct, type PaymentService } from './payment-products.js';
import {
  checkBulkPayment,
  checkInstantFeeQuery,
  checkPeriodicPayment,
  checkSinglePayment,
  scheduleOf,
  type PaymentOrder,
  type RuleContext,
} from './payment-rules.js';
import { allows, cancellationRule, FINAL_STATUSES, type TransactionStatus } from './payment-status.js';
import { transitionPayment } from './payment-transition.js';
import type { PaymentDocument } from './payment-document.js';
import { paymentRepository } from './payment.repository.js';
import type { Payment } from './payment.model.js';
import type { BulkNdctBody, InstantFeeInformationBody, PeriodicNdctBody, SinglePaymentBody } from './payment.schemas.js';

/** What payment initiation needs from the SCA modules. */
export interface PaymentSca {
  readonly authorisations: AuthorisationService;
  readonly psuAccess: Pick<PsuAccessService, 'psuRequired'>;
  /** Whether the TPP's TPP-Notification-URI is accepted (docs/notifications.md). */
  readonly notifications: Pick<NotificationService, 'decide'>;
}

export interface PaymentSettings {
  readonly publicUrl: string;
  /** How far ahead a requested execution or start date may lie. */
  readonly maxDaysAhead: number;
  readonly nokRates: NokRates;
  /** Sandbox mode: a standing order's status says the sandbox will not execute it. */
  readonly sandbox: boolean;
}

/** A payment initiation request after the front door: who, what, and the request's identity. */
export interface Initiation {
  readonly tpp: TppIdentity;
  readonly service: PaymentService;
  readonly product: PaymentProduct;
  readonly body: unknown;
  readonly headers: RequestHeaders;
  readonly allowLogicalDuplicate: boolean;
  /** The request's X-Request-ID, kept with the payment and its audit event. */
  readonly requestId: string;
}

/** A payment just created: its address, and the Berlin Group initiation view (RCVD, its id and links). */
export type CreatedPayment = CreatedResource<
  {
    readonly transactionStatus: 'RCVD';
    readonly paymentId: string;
    readonly _links: ReturnType<typeof initiationLinks>;
  } & Partial<TransactionFeeView>
>;

/** Berlin Group `transactionFees` and `transactionFeeIndicator`: what the bank charges for a payment. */
export interface TransactionFeeView {
  readonly transactionFees: { readonly currency: string; readonly amount: string };
  readonly transactionFeeIndicator: boolean;
}

/** The Straks fee information's request after the front door. */
export interface FeeInformationRequest {
  readonly tpp: TppIdentity;
  readonly body: InstantFeeInformationBody;
  readonly headers: RequestHeaders;
}

export function transactionFeeView(fee: Money): TransactionFeeView {
  return { transactionFees: { currency: fee.currency, amount: formatAmount(fee) }, transactionFeeIndicator: fee.minor > 0n };
}

export type Cancellation = { readonly kind: 'cancelled' } | { readonly kind: 'needs-authorisation'; readonly body: unknown };

export interface PaymentsService {
  /** Creates a payment: its audit event and, unless the TPP starts it itself, its authorisation in one transaction. */
  initiate(initiation: Initiation): Promise<CreatedPayment>;
  /**
   * The fee the bank charges for an instant (Straks) payment, checked as the payment itself would
   * be (its accounts, amount and the PSU's right to pay from the account), asked of the bank.
   */
  instantFeeInformation(request: FeeInformationRequest): Promise<TransactionFeeView>;
  find(tpp: TppIdentity, service: PaymentService, product: string, paymentId: string): Promise<Payment>;
  /** The payment as submitted, with its status (and for a periodic payment, its next execution dates). */
  view(payment: Payment): Promise<{ transactionStatus: TransactionStatus } & Record<string, unknown>>;
  statusView(payment: Payment): { transactionStatus: TransactionStatus; fundsAvailable?: boolean; psuMessage?: string };
  cancel(tpp: TppIdentity, service: PaymentService, product: string, paymentId: string, requestId: string): Promise<Cancellation>;
  /**
   * The payment as `POST …/authorisations` or `…/cancellation-authorisations` starts on it, in the
   * starting transaction: refused unless it may get such an authorisation now.
   */
  authorisationTarget(trx: DbOrTx, payment: Payment, kind: AuthorisationKind): Promise<AuthorisableResource>;
}

/** The requirement's rule for the sandbox, told wherever a standing order's status is read. */
const PERIODIC_NOT_EXECUTED = 'Registered. The sandbox does not execute periodic payments: batch runs leave them as they are.';

/** How many coming execution dates a periodic payment's GET lists. */
const SHOWN_EXECUTION_DATES = 12;

/**
 * Payment initiation: the rules, the bank's say on the debtor account and the PSU, the
 * logical-duplicate rule, and the write of payment, audit event and authorisation in one
 * transaction, whose value is the created payment (the HTTP layer stores the answer in it too).
 */
export function createPaymentsService(
  db: Db,
  coreBanking: CoreBanking,
  sca: PaymentSca,
  clock: BankClock,
  settings: PaymentSettings,
): PaymentsService {
  const now = () => clock.realNow();
  async function ruleContext(tppId: string): Promise<RuleContext> {
    return { today: await clock.today(tppId), maxDaysAhead: settings.maxDaysAhead, nokRates: settings.nokRates };
  }

  /** The checked order, and the typed body to store with its service. */
  async function check(initiation: Initiation): Promise<PaymentOrder & { readonly document: PaymentDocument }> {
    const context = await ruleContext(initiation.tpp.id);
    switch (initiation.service) {
      case 'payments': {
        const order = checkSinglePayment(initiation.product, initiation.body as SinglePaymentBody, context);
        return { ...order, document: { service: 'payments', body: order.body } };
      }
      case 'bulk-payments': {
        const order = checkBulkPayment(initiation.body as BulkNdctBody, context);
        return { ...order, document: { service: 'bulk-payments', body: order.body } };
      }
      case 'periodic-payments': {
        const order = checkPeriodicPayment(initiation.body as PeriodicNdctBody, context);
        return { ...order, document: { service: 'periodic-payments', body: order.body } };
      }
    }
  }

  /**
   * The bank's checks: the debtor account exists, fits the product, and the PSU may use it. Also
   * tells whether the PSU's approval alone will do, or another approver is needed (several approvers).
   */
  async function debtorAccountOf(
    scope: RequestingTpp,
    initiation: Pick<Initiation, 'tpp' | 'service' | 'product' | 'headers'>,
    order: Pick<PaymentOrder, 'debtorBban' | 'debtorCurrency' | 'amount'>,
  ): Promise<{ accountId: string; severalApprovers: boolean }> {
    const corporateId = initiation.headers.psuCorporateId;
    const psuId = initiation.headers.psuId?.number;
    // With a PSU, what it may do with the account comes with the account (one call to a bank that offers it).
    const found = await findAccountAs(coreBanking, scope, { bban: order.debtorBban }, { psuId, organisationNumber: corporateId });
    if (!found) {
      throw new AppError('DEBTOR_ACCOUNT_UNKNOWN', { path: 'debtorAccount' });
    }
    const { account, permission } = found;
    if (!referenceNamesCurrency(order.debtorCurrency, account.currency)) {
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
    const organisationNumber = account.organisationNumber;
    if (organisationNumber === undefined) {
      if (corporateId !== undefined) throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
    } else {
      // The requirement's 400: a corporate user's request without the agreement.
      if (corporateId === undefined) throw new AppError('CORPORATE_ID_REQUIRED', { path: 'PSU-Corporate-ID' });
      // A corporate agreement decides who may register payments from its accounts: that needs the PSU.
      if (psuId === undefined) throw await sca.psuAccess.psuRequired(initiation.tpp, initiation.headers);
      if (corporateId !== organisationNumber) {
        // Only a person of the agreement learns that the number is not its own (isEngaged).
        const engagement = await coreBanking.permission(scope, psuId, account.id, organisationNumber);
        if (!isEngaged(engagement)) throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', { path: 'debtorAccount' });
        throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
      }
    }
    let severalApprovers = false;
    if (permission !== undefined) {
      if (!permission.canRegister) {
        throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', { path: 'debtorAccount' });
      }
      if (permission.registerLimit !== undefined && exceedsLimit(order.amount, permission.registerLimit, settings.nokRates)) {
        throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', {
          path: initiation.service === 'bulk-payments' ? 'payments' : 'instructedAmount',
          detail: localized(
            `the amount is above the PSU's registration limit of ${formatAmount(permission.registerLimit)} ${permission.registerLimit.currency}`,
            `beløpet er over brukerens registreringsgrense på ${formatAmount(permission.registerLimit)} ${permission.registerLimit.currency}`,
          ),
        });
      }
      severalApprovers = !approvesAlone(
        { currency: order.amount.currency, amountMinor: order.amount.minor },
        permission.approvalLimit,
        settings.nokRates,
      );
    }
    return { accountId: account.id, severalApprovers };
  }

  return {
    async initiate(initiation) {
      const scope = { tppId: initiation.tpp.id };
      const order = await check(initiation);
      const { accountId: debtorAccountId, severalApprovers } = await debtorAccountOf(scope, initiation, order);
      // A Straks payment answers the fee the bank will charge for it, and keeps it for its GET.
      const transactionFee =
        isInstant(initiation.product) && order.creditorBban !== undefined
          ? await coreBanking.instantPaymentFee(scope, {
              debtorAccountId,
              amount: order.amount,
              creditorAccount: { bban: order.creditorBban },
            })
          : undefined;
      const id = newTimeOrderedId();
      const at = now().toISOString();
      // The authorisation starts with the payment, unless the TPP starts it itself (to collect
      // payments into a basket) or several approvers will each start their own (docs/design.md §2).
      const startsImplicitly = !initiation.headers.tppExplicitAuthorisationPreferred && !severalApprovers;
      // Periodic payments are standing orders: the duplicate rule is for single and bulk payments (docs/design.md §2).
      const logicalKey = initiation.service === 'periodic-payments' ? undefined : order.logicalKey;
      const checksDuplicates = logicalKey !== undefined && !initiation.allowLogicalDuplicate;
      const notification = await sca.notifications.decide(initiation.tpp, initiation.headers.notification);
      return withTransaction(db, async (trx): Promise<CreatedPayment> => {
        if (checksDuplicates) {
          // Equal payments queue here (PostgreSQL): of two sent at once, the later one sees the
          // earlier one and is refused as its duplicate.
          await paymentRepository.lockLogicalKey(trx, initiation.tpp.id, logicalKey);
          const duplicate = await paymentRepository.findLiveDuplicate(trx, initiation.tpp.id, [
            logicalKey,
            ...(initiation.service === 'payments' && order.formerLogicalKey !== undefined ? [order.formerLogicalKey] : []),
          ]);
          if (duplicate !== undefined) {
            throw new AppError('PAYMENT_DUPLICATE', {
              detail: localized(
                `payment ${duplicate} is equal and still live; send allowLogicalDuplicate=true to create this one anyway`,
                `betaling ${duplicate} er lik og fortsatt aktiv; send allowLogicalDuplicate=true for å opprette denne likevel`,
              ),
            });
          }
        }
        const { psuId, psuCorporateId, notification: _wish, ...context } = initiation.headers;
        await paymentRepository.insert(trx, {
          id,
          tppId: initiation.tpp.id,
          ...order.document,
          product: initiation.product,
          status: 'RCVD',
          requestId: initiation.requestId,
          psuId: psuId?.number,
          psuCorporateId,
          debtorAccountId,
          currency: order.amount.currency,
          amountMinor: order.amount.minor,
          requestedExecutionDate: order.requestedExecutionDate,
          transactionFee,
          logicalKey,
          requestContext: { ...context, acceptFixes: [...context.acceptFixes] },
          createdAt: at,
        });
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: initiation.tpp.id },
            requestId: initiation.requestId,
            action: 'payment.created',
            resource: { type: 'payment', id },
            details: {
              service: initiation.service,
              product: initiation.product,
              status: 'RCVD',
              ...(severalApprovers ? { severalApprovers } : {}),
            },
          },
          at,
        );
        const links = paymentLinks(settings.publicUrl, initiation.service, initiation.product, id);
        await notificationOutbox.subscribe(
          trx,
          notification,
          { type: 'payment', id, tppId: initiation.tpp.id, selfHref: links.self.href, statusHref: links.status.href },
          at,
        );
        const started = startsImplicitly
          ? await sca.authorisations.create(trx, {
              tpp: initiation.tpp,
              purpose: 'payment',
              resourceId: id,
              expectedPsuId: psuId?.number,
              psuCorporateId,
              redirectUri: context.tppRedirectUri,
              nokRedirectUri: context.tppNokRedirectUri,
              biometric: context.biometricAuthentication,
            })
          : undefined;
        return new CreatedResource(
          links.self.href,
          {
            transactionStatus: 'RCVD' as const,
            paymentId: id,
            ...(transactionFee && transactionFeeView(transactionFee)),
            _links: initiationLinks(
              settings.publicUrl,
              initiation.service,
              initiation.product,
              id,
              started && { authorisationId: started.id, scaRedirect: sca.authorisations.redirectLink(started) },
            ),
          },
          notificationAnswerHeaders(notification),
        );
      });
    },

    async instantFeeInformation({ tpp, body, headers }) {
      const query = checkInstantFeeQuery(body);
      const scope = { tppId: tpp.id };
      const product = 'instant-norwegian-domestic-credit-transfers-straks';
      const { accountId } = await debtorAccountOf(scope, { tpp, service: 'payments', product, headers }, query);
      const fee = await coreBanking.instantPaymentFee(scope, {
        debtorAccountId: accountId,
        amount: query.amount,
        creditorAccount: { bban: query.creditorBban },
      });
      return transactionFeeView(fee);
    },

    async find(tpp, service, product, paymentId) {
      if (!offers(service, product)) {
        throw productUnknown(service, product);
      }
      const payment = await paymentRepository.find(db, tpp.id, service, paymentId);
      if (!payment || payment.product !== product) {
        throw new AppError('RESOURCE_UNKNOWN', { path: 'paymentId' });
      }
      if (allows(payment.status, 'approve')) {
        // An authorisation whose link expired rejects its payment: the status read tells the truth.
        const expired =
          (await sca.authorisations.expireOverdueOf('payment', [payment.id])) +
          (payment.basketId === undefined ? 0 : await sca.authorisations.expireOverdueOf('signing-basket', [payment.basketId]));
        if (expired > 0) {
          return (await paymentRepository.find(db, tpp.id, service, paymentId)) ?? payment;
        }
      }
      return payment;
    },

    async view(payment) {
      const view: { transactionStatus: TransactionStatus } & Record<string, unknown> = {
        ...payment.body,
        transactionStatus: payment.status,
        ...(payment.transactionFee && transactionFeeView(payment.transactionFee)),
      };
      if (payment.service === 'periodic-payments') {
        // A cancelled or rejected standing order has no coming executions.
        if (FINAL_STATUSES.has(payment.status)) {
          view['nextExecutionDates'] = [];
          return view;
        }
        const today = await clock.today(payment.tppId);
        view['nextExecutionDates'] = executionDates(scheduleOf(payment.body), {
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
        // Within the Berlin Group's 500 characters also when the reason holds a bank's long words.
        ...(payment.statusReason === undefined ? {} : { psuMessage: withinPsuMessage(payment.statusReason) }),
        ...(settings.sandbox && payment.service === 'periodic-payments' && payment.status === 'ACTC'
          ? { psuMessage: PERIODIC_NOT_EXECUTED }
          : {}),
      };
    },

    async cancel(tpp, service, product, paymentId, requestId) {
      const payment = await this.find(tpp, service, product, paymentId);
      switch (cancellationRule(payment.status)) {
        case 'cancel-now':
          await withTransaction(db, async (trx) => {
            // The order the SCA flow takes: the payment's authorisations first, then the payment
            // (transitionPayment locks it): an approval under way finishes first, and this DELETE
            // then finds the payment no longer RCVD.
            await sca.authorisations.lockOf(trx, 'payment', [payment.id]);
            const actor = { type: 'tpp' as const, id: tpp.id };
            await transitionPayment(trx, payment, {
              to: 'CANC',
              reason: 'Cancelled by the TPP before the PSU approved it',
              actor,
              requestId,
              at: now().toISOString(),
            });
            // Its open authorisations end with it, as a deleted consent's or basket's do: their
            // scaStatus reads failed and their page says why at once, before the PSU logs in.
            await sca.authorisations.abandonOpen(
              trx,
              'payment',
              [payment.id],
              localized('The app cancelled the payment', 'Appen kansellerte betalingen'),
              actor,
            );
          });
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

    async authorisationTarget(trx, found, kind) {
      // Checked under the payment's lock, on its current row: a basket taking the payment, or an
      // approval, at the same moment cannot slip in between (a 201 then 409 later).
      await paymentRepository.lockRows(trx, [found.id]);
      const payment = (await paymentRepository.findById(trx, found.tppId, found.id)) ?? found;
      if (kind === 'authorisations' && !allows(payment.status, 'approve')) {
        throw new AppError('STATUS_INVALID', {
          detail: localized(
            `the payment is not waiting for approval (status ${payment.status})`,
            `betalingen venter ikke på godkjenning (status ${payment.status})`,
          ),
        });
      }
      if (kind === 'authorisations' && payment.basketId !== undefined) {
        throw new AppError('REFERENCE_STATUS_INVALID', {
          detail: localized(
            `the payment is in signing basket ${payment.basketId}: start the basket's authorisation instead`,
            `betalingen ligger i signeringskurv ${payment.basketId}: start kurvens autorisasjon i stedet`,
          ),
        });
      }
      if (kind === 'cancellation-authorisations' && !allows(payment.status, 'authorise-cancellation')) {
        throw new AppError('CANCELLATION_INVALID', {
          detail: localized(
            allows(payment.status, 'cancel')
              ? 'the payment is not approved yet: DELETE cancels it at once'
              : `a payment in status ${payment.status} cannot be cancelled`,
            allows(payment.status, 'cancel')
              ? 'betalingen er ikke godkjent ennå: DELETE kansellerer den med en gang'
              : `en betaling med status ${payment.status} kan ikke kanselleres`,
          ),
        });
      }
      const context = payment.requestContext;
      return {
        id: payment.id,
        href: `${settings.publicUrl}${paymentPath(payment.service, payment.product, payment.id)}`,
        psuCorporateId: payment.psuCorporateId,
        // Until someone approves, the PSU the TPP named at creation is the one expected.
        expectedPsuId: kind === 'authorisations' && payment.status === 'RCVD' ? payment.psuId : undefined,
        redirectUri: context.tppRedirectUri,
        nokRedirectUri: context.tppNokRedirectUri,
      };
    },
  };
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
