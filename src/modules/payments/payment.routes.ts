import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import { createdForRedirect } from '../../http/idempotency/created-answer.js';
import { replyCreated } from '../../http/idempotency/idempotency.plugin.js';
import { tppOf } from '../../http/request-context.js';
import { NoBody, signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import {
  PAYMENT_SERVICES,
  PRODUCT_SHORT_NAMES,
  PRODUCTS_OF_SERVICE,
  type PaymentProduct,
  type PaymentService,
} from './payment-products.js';
import type { PaymentsService } from './payment.service.js';
import { productUnknown } from './payment.service.js';
import {
  BulkNdctBody,
  FeeInformationHeaders,
  CbctBody,
  IndctsBody,
  initiationResponses,
  InitiationHeaders,
  InstantFeeInformationBody,
  InstantFeeInformationResponse,
  LogicalDuplicateQuery,
  NcbctBody,
  NdctBody,
  NoQuery,
  PaymentCancelResponse,
  PaymentIdParams,
  PaymentStatusResponse,
  PaymentWithStatusResponse,
  PeriodicNdctBody,
  SctBody,
} from './payment.schemas.js';

const SINGLE_BODIES: Readonly<Record<PaymentProduct, TSchema>> = {
  'norwegian-domestic-credit-transfers': NdctBody,
  'instant-norwegian-domestic-credit-transfers-straks': IndctsBody,
  'norwegian-cross-border-credit-transfers': NcbctBody,
  'cross-border-credit-transfers': CbctBody,
  'sepa-credit-transfers': SctBody,
};

const SERVICE_TAGS: Readonly<Record<PaymentService, string>> = {
  payments: 'Payment initiation',
  'bulk-payments': 'Bulk payment initiation',
  'periodic-payments': 'Periodic payment initiation',
};

/** Berlin Group operationIds, suffixed per service and product so each is unique in the OpenAPI document. */
function operationId(name: string, service: PaymentService, product?: PaymentProduct): string {
  const serviceSuffix = service === 'payments' ? '' : `_${service.split('-')[0]}`;
  return `${name}${serviceSuffix}${product ? `_${PRODUCT_SHORT_NAMES[product]}` : ''}`;
}

/**
 * Payment initiation, reads and cancellation for the three payment services. Each
 * offered product has its own route and body schema; any other product is 404 PRODUCT_UNKNOWN,
 * naming the ones offered.
 */
export const paymentRoutes: FastifyPluginAsyncTypebox<{ payments: PaymentsService }> = async (app, { payments }) => {
  const config = { requiredRole: 'PSP_PI' as const };

  // Before the routes with a path parameter in its place: a fixed segment wins in the router anyway,
  // but read in this order the document shows the fee information beside the Straks initiation.
  app.post(
    '/payments/instant-norwegian-domestic-credit-transfers-straks/fee-information',
    {
      config,
      schema: {
        operationId: 'getInstantPaymentFeeInformation_INDCTS',
        tags: [SERVICE_TAGS.payments],
        summary: 'The fee the bank charges for a Straks payment, checked as the payment itself would be',
        description:
          'Body: debtorAccount, creditorAccount and the amount as instructedAmount (or amount, one of the two). ' +
          'Answers Berlin Group transactionFees and transactionFeeIndicator, as a Straks payment’s 201 and GET do. ' +
          'Refused with the errors the Straks payment would get for the same accounts and amount.',
        headers: FeeInformationHeaders,
        body: InstantFeeInformationBody,
        response: { 200: InstantFeeInformationResponse, ...signedErrorResponses() },
      },
    },
    async (request) => {
      const headers = request.ctx.headers;
      if (!headers) throw new Error('payment routes must sit behind the API front door');
      return payments.instantFeeInformation({ tpp: tppOf(request), body: request.body, headers });
    },
  );

  for (const service of PAYMENT_SERVICES) {
    const tags = [SERVICE_TAGS[service]];
    for (const product of PRODUCTS_OF_SERVICE[service]) {
      const body = service === 'payments' ? SINGLE_BODIES[product] : service === 'bulk-payments' ? BulkNdctBody : PeriodicNdctBody;
      app.post(
        `/${service}/${product}`,
        {
          // The created payment's 201, stored with the payment for retries.
          config: { ...config, answer: createdForRedirect },
          schema: {
            operationId: operationId('initiatePayment', service, product),
            tags,
            summary: `Initiate a ${PRODUCT_SHORT_NAMES[product]} ${service === 'payments' ? 'payment' : service.replace('-payments', ' payment')}`,
            headers: InitiationHeaders,
            // allowLogicalDuplicate is a parameter of single and bulk payments, not of periodic ones (docs/design.md §2).
            querystring: service === 'periodic-payments' ? NoQuery : LogicalDuplicateQuery,
            body,
            response: initiationResponses,
          },
        },
        async (request, reply) => initiate(request, reply, service, product),
      );
    }

    app.post(
      `/${service}/:paymentProduct`,
      {
        config,
        schema: {
          operationId: operationId('initiatePayment', service) + '_unknownProduct',
          tags,
          summary: 'Any product this service does not offer: 404 PRODUCT_UNKNOWN',
          hide: true,
          params: Type.Object({ paymentProduct: Type.String({ maxLength: 100 }) }),
          // The query an initiation of the service takes, so that it is told the product is unknown, not its query.
          querystring: service === 'periodic-payments' ? NoQuery : LogicalDuplicateQuery,
          response: signedErrorResponses(),
        },
      },
      async (request) => {
        throw productUnknown(service, request.params.paymentProduct);
      },
    );

    app.get(
      `/${service}/:paymentProduct/:paymentId`,
      {
        config,
        schema: {
          operationId: operationId('getPaymentInformation', service),
          tags,
          summary: 'The payment as submitted, with its transactionStatus',
          headers: SignedRequestHeaders,
          params: PaymentIdParams,
          response: { 200: PaymentWithStatusResponse, ...signedErrorResponses() },
        },
      },
      async (request) => {
        const payment = await payments.find(tppOf(request), service, request.params.paymentProduct, request.params.paymentId);
        return payments.view(payment);
      },
    );

    app.get(
      `/${service}/:paymentProduct/:paymentId/status`,
      {
        config,
        schema: {
          operationId: operationId('getPaymentInitiationStatus', service),
          tags,
          summary: 'The transactionStatus, and fundsAvailable once funds have been checked',
          headers: SignedRequestHeaders,
          params: PaymentIdParams,
          response: { 200: PaymentStatusResponse, ...signedErrorResponses() },
        },
      },
      async (request) => {
        const payment = await payments.find(tppOf(request), service, request.params.paymentProduct, request.params.paymentId);
        return payments.statusView(payment);
      },
    );

    app.delete(
      `/${service}/:paymentProduct/:paymentId`,
      {
        config,
        schema: {
          operationId: operationId('cancelPayment', service),
          tags,
          summary: 'Cancel: 204 before the PSU approved it, 202 with startAuthorisation after, 405 when queued (PDNG) or final',
          headers: SignedRequestHeaders,
          params: PaymentIdParams,
          body: NoBody,
          response: { 202: PaymentCancelResponse, 204: Type.Null({ description: 'Cancelled (CANC)' }), ...signedErrorResponses() },
        },
      },
      async (request, reply) => {
        const outcome = await payments.cancel(
          tppOf(request),
          service,
          request.params.paymentProduct,
          request.params.paymentId,
          request.ctx.requestId ?? '',
        );
        if (outcome.kind === 'cancelled') {
          return reply.code(204).send(null);
        }
        return reply.code(202).send(outcome.body as never);
      },
    );
  }

  async function initiate(request: FastifyRequest, reply: FastifyReply, service: PaymentService, product: PaymentProduct) {
    const headers = request.ctx.headers;
    const requestId = request.ctx.requestId;
    if (!headers || !requestId) {
      throw new Error('payment routes must sit behind the API front door');
    }
    const query = request.query as { allowLogicalDuplicate?: boolean };
    const created = await payments.initiate({
      tpp: tppOf(request),
      service,
      product,
      body: request.body,
      headers,
      allowLogicalDuplicate: query.allowLogicalDuplicate ?? false,
      requestId,
    });
    return replyCreated(request, reply, created);
  }
};
