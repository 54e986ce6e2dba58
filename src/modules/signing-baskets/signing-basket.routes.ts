import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createdForRedirect } from '../../http/idempotency/created-answer.js';
import { replyCreated } from '../../http/idempotency/idempotency.plugin.js';
import { issuedUuid } from '../../http/issued-uuids.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { NoBody, signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import { registerAuthorisationSubresource } from '../authorisations/authorisation-subresource.routes.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import { InitiationHeaders } from '../payments/payment.schemas.js';
import {
  BasketIdParams,
  SigningBasketBody,
  SigningBasketCreatedResponse,
  SigningBasketResponse,
  SigningBasketStatusResponse,
} from './signing-basket.schemas.js';
import type { SigningBasketsService } from './signing-basket.service.js';

/**
 * Signing baskets: create one from payments created earlier, read it and its status,
 * delete it before it is approved, and its authorisations (the shared sub-resource; Berlin Group operationIds).
 */
export const signingBasketRoutes: FastifyPluginAsyncTypebox<{
  signingBaskets: SigningBasketsService;
  authorisations: AuthorisationService;
}> = async (app, { signingBaskets, authorisations }) => {
  const config = { requiredRole: 'PSP_PI' as const };
  const tag = 'Signing baskets';
  const tags = [tag];

  app.post(
    '/signing-baskets',
    {
      // The created basket's 201, stored with the basket for retries.
      config: { ...config, answer: createdForRedirect },
      schema: {
        operationId: 'createSigningBasket',
        tags,
        summary: 'Group 1..10 payments created earlier (with TPP-Explicit-Authorisation-Preferred) for one approval',
        headers: InitiationHeaders,
        body: SigningBasketBody,
        response: { 201: SigningBasketCreatedResponse, ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      const requestId = request.ctx.requestId;
      if (!requestId) throw new Error('signing basket routes must sit behind the API front door');
      const created = await signingBaskets.create({
        tpp: tppOf(request),
        // The ids as the server issued them, however the TPP cased them (http/issued-uuids.ts).
        paymentIds: request.body.paymentIds.map(issuedUuid),
        consentIds: request.body.consentIds?.map(issuedUuid),
        headers: requestHeadersOf(request),
        requestId,
      });
      return replyCreated(request, reply, created);
    },
  );

  app.get(
    '/signing-baskets/:basketId',
    {
      config,
      schema: {
        operationId: 'getSigningBasket',
        tags,
        summary: 'The payment ids, the basket status (worst case of its payments) and links',
        headers: SignedRequestHeaders,
        params: BasketIdParams,
        response: { 200: SigningBasketResponse, ...signedErrorResponses() },
      },
    },
    async (request) => signingBaskets.view(await signingBaskets.find(tppOf(request), request.params.basketId)),
  );

  app.get(
    '/signing-baskets/:basketId/status',
    {
      config,
      schema: {
        operationId: 'getSigningBasketStatus',
        tags,
        summary: 'The worst case of its payments: RJCT < RCVD < PATC < ACTC (each payment has its own status too)',
        headers: SignedRequestHeaders,
        params: BasketIdParams,
        response: { 200: SigningBasketStatusResponse, ...signedErrorResponses() },
      },
    },
    async (request) => ({ transactionStatus: signingBaskets.statusOf(await signingBaskets.find(tppOf(request), request.params.basketId)) }),
  );

  app.delete(
    '/signing-baskets/:basketId',
    {
      config,
      schema: {
        operationId: 'deleteSigningBasket',
        tags,
        summary: 'Delete before any approval (204); the payments stay as they are and are free again',
        headers: SignedRequestHeaders,
        params: BasketIdParams,
        body: NoBody,
        response: { 204: Type.Null({ description: 'Deleted (the basket reads CANC)' }), ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      await signingBaskets.remove(tppOf(request), request.params.basketId, request.ctx.requestId ?? '');
      return reply.code(204).send(null);
    },
  );

  registerAuthorisationSubresource(app, {
    authorisations,
    parentPath: '/signing-baskets/:basketId',
    params: BasketIdParams,
    requiredRole: config.requiredRole,
    find: (tpp, params) => signingBaskets.find(tpp, params.basketId),
    idOf: (content) => content.basket.id,
    subresources: [
      {
        segment: 'authorisations',
        purpose: 'signing-basket',
        operationIds: {
          start: 'startSigningBasketAuthorisation',
          list: 'getSigningBasketAuthorisation',
          status: 'getSigningBasketScaStatus',
        },
        tag,
        summaries: {
          start: 'Start an authorisation (explicit start, or the next approver of corporate payments): 201 with scaRedirect',
          list: "The ids of the basket's authorisations",
        },
        resource: (trx, content) => signingBaskets.authorisationTarget(trx, content),
      },
    ],
  });
};
