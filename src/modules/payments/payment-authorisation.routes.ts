import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import { registerAuthorisationSubresource, type AuthorisationSubresource } from '../authorisations/authorisation-subresource.routes.js';
import type { AuthorisationKind } from './payment-links.js';
import { PAYMENT_SERVICES, type PaymentService } from './payment-products.js';
import type { Payment } from './payment.model.js';
import type { PaymentsService } from './payment.service.js';
import { PaymentIdParams } from './payment.schemas.js';

/** Berlin Group operationIds, suffixed per service so each is unique in the OpenAPI document. */
function operationId(name: string, service: PaymentService): string {
  return service === 'payments' ? name : `${name}_${service.split('-')[0]}`;
}

/** What each sub-resource approves, and its Berlin Group names. */
const KINDS: readonly {
  readonly kind: AuthorisationKind;
  readonly purpose: 'payment' | 'payment-cancellation';
  readonly names: { readonly start: string; readonly list: string; readonly status: string };
  readonly tag: string;
  readonly startSummary: string;
}[] = [
  {
    kind: 'authorisations',
    purpose: 'payment',
    names: { start: 'startPaymentAuthorisation', list: 'getPaymentInitiationAuthorisation', status: 'getPaymentInitiationScaStatus' },
    tag: 'Payment authorisation',
    startSummary: 'Start an authorisation (explicit start, or the next approver of a corporate payment): 201 with scaRedirect',
  },
  {
    kind: 'cancellation-authorisations',
    purpose: 'payment-cancellation',
    names: {
      start: 'startPaymentInitiationCancellationAuthorisation',
      list: 'getPaymentInitiationCancellationAuthorisationInformation',
      status: 'getPaymentCancellationScaStatus',
    },
    tag: 'Payment cancellation authorisation',
    startSummary: 'Start the cancellation authorisation of an approved payment: 201 with scaRedirect',
  },
];

/**
 * The authorisation sub-resources of payments, bulk and periodic payments (the shared
 * sub-resource of the authorisations module): authorisations, and cancellation authorisations.
 */
export const paymentAuthorisationRoutes: FastifyPluginAsyncTypebox<{
  payments: PaymentsService;
  authorisations: AuthorisationService;
}> = async (app, { payments, authorisations }) => {
  for (const service of PAYMENT_SERVICES) {
    const subresources = KINDS.map(({ kind, purpose, names, tag, startSummary }): AuthorisationSubresource<Payment> => ({
      segment: kind,
      purpose,
      operationIds: {
        start: operationId(names.start, service),
        list: operationId(names.list, service),
        status: operationId(names.status, service),
      },
      tag,
      summaries: { start: startSummary, list: `The ids of the payment's ${kind}` },
      resource: (trx, payment) => payments.authorisationTarget(trx, payment, kind),
    }));
    registerAuthorisationSubresource(app, {
      authorisations,
      parentPath: `/${service}/:paymentProduct/:paymentId`,
      params: PaymentIdParams,
      requiredRole: 'PSP_PI',
      find: (tpp, params) => payments.find(tpp, service, params.paymentProduct, params.paymentId),
      idOf: (payment) => payment.id,
      subresources,
    });
  }
};
