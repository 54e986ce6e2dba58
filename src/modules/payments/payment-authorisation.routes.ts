import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import {
  AuthorisationIdParams,
  AuthorisationsResponse,
  ScaStatusResponse,
  StartScaProcessResponse,
} from '../authorisations/authorisation.schemas.js';
import type { AuthorisationKind } from './payment-links.js';
import { PAYMENT_SERVICES, type PaymentService } from './payment-products.js';
import type { PaymentsService } from './payment.service.js';
import { PaymentIdParams } from './payment.schemas.js';

const KINDS: readonly AuthorisationKind[] = ['authorisations', 'cancellation-authorisations'];

/** Berlin Group operationIds, suffixed per service so each is unique in the OpenAPI document. */
function operationId(name: string, service: PaymentService): string {
  return service === 'payments' ? name : `${name}_${service.split('-')[0]}`;
}

const NAMES: Readonly<Record<AuthorisationKind, { start: string; list: string; status: string; tag: string }>> = {
  authorisations: {
    start: 'startPaymentAuthorisation',
    list: 'getPaymentInitiationAuthorisation',
    status: 'getPaymentInitiationScaStatus',
    tag: 'Payment authorisation',
  },
  'cancellation-authorisations': {
    start: 'startPaymentInitiationCancellationAuthorisation',
    list: 'getPaymentInitiationCancellationAuthorisationInformation',
    status: 'getPaymentCancellationScaStatus',
    tag: 'Payment cancellation authorisation',
  },
};

/**
 * The authorisation sub-resources of payments, bulk and periodic payments: start one
 * (201 with `scaRedirect`), list them, read one's scaStatus; the same for cancellations.
 */
export const paymentAuthorisationRoutes: FastifyPluginAsyncTypebox<{ payments: PaymentsService }> = async (app, { payments }) => {
  const config = { requiredRole: 'PSP_PI' as const };
  for (const service of PAYMENT_SERVICES) {
    for (const kind of KINDS) {
      const names = NAMES[kind];
      const base = `/${service}/:paymentProduct/:paymentId/${kind}`;
      const tags = [names.tag];

      app.post(
        base,
        {
          config,
          schema: {
            operationId: operationId(names.start, service),
            tags,
            summary:
              kind === 'authorisations'
                ? 'Start an authorisation (explicit start, or the next approver of a corporate payment): 201 with scaRedirect'
                : 'Start the cancellation authorisation of an approved payment: 201 with scaRedirect',
            headers: SignedRequestHeaders,
            params: PaymentIdParams,
            response: { 201: StartScaProcessResponse, ...signedErrorResponses() },
          },
        },
        async (request, reply) => {
          const tpp = tppOf(request);
          const payment = await payments.find(tpp, service, request.params.paymentProduct, request.params.paymentId);
          const started = await payments.startAuthorisation(payment, kind, tpp, requestHeadersOf(request));
          return reply.code(201).header('location', started.location).header('aspsp-sca-approach', 'REDIRECT').send(started.body);
        },
      );

      app.get(
        base,
        {
          config,
          schema: {
            operationId: operationId(names.list, service),
            tags,
            summary: `The ids of the payment's ${kind}`,
            headers: SignedRequestHeaders,
            params: PaymentIdParams,
            response: { 200: AuthorisationsResponse, ...signedErrorResponses() },
          },
        },
        async (request) => {
          const payment = await payments.find(tppOf(request), service, request.params.paymentProduct, request.params.paymentId);
          return { authorisationIds: await payments.authorisationIds(payment, kind) };
        },
      );

      app.get(
        `${base}/:authorisationId`,
        {
          config,
          schema: {
            operationId: operationId(names.status, service),
            tags,
            summary: 'The scaStatus of one authorisation, with psuMessage when it failed',
            headers: SignedRequestHeaders,
            params: AuthorisationIdParams,
            response: { 200: ScaStatusResponse, ...signedErrorResponses() },
          },
        },
        async (request) => {
          const payment = await payments.find(tppOf(request), service, request.params.paymentProduct, request.params.paymentId);
          return payments.scaStatus(payment, kind, request.params.authorisationId, request.ctx.language);
        },
      );
    }
  }
};
