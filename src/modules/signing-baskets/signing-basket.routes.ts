import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createdForRedirect } from '../../http/idempotency/created-answer.js';
import { replyCreated } from '../../http/idempotency/idempotency.plugin.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import { AuthorisationsResponse, ScaStatusResponse, StartScaProcessResponse } from '../authorisations/authorisation.schemas.js';
import { InitiationHeaders } from '../payments/payment.schemas.js';
import {
  BasketAuthorisationIdParams,
  BasketIdParams,
  SigningBasketBody,
  SigningBasketCreatedResponse,
  SigningBasketResponse,
  SigningBasketStatusResponse,
} from './signing-basket.schemas.js';
import type { SigningBasketsService } from './signing-basket.service.js';

/**
 * Signing baskets: create one from payments created earlier, read it and its status,
 * delete it before it is approved, and its authorisations (Berlin Group operationIds).
 */
export const signingBasketRoutes: FastifyPluginAsyncTypebox<{ signingBaskets: SigningBasketsService }> = async (
  app,
  { signingBaskets },
) => {
  const config = { requiredRole: 'PSP_PI' as const };
  const tags = ['Signing baskets'];

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
        paymentIds: request.body.paymentIds,
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
        response: { 204: Type.Null({ description: 'Deleted (the basket reads CANC)' }), ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      await signingBaskets.remove(tppOf(request), request.params.basketId, request.ctx.requestId ?? '');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/signing-baskets/:basketId/authorisations',
    {
      config,
      schema: {
        operationId: 'startSigningBasketAuthorisation',
        tags,
        summary: 'Start an authorisation (explicit start, or the next approver of corporate payments): 201 with scaRedirect',
        headers: SignedRequestHeaders,
        params: BasketIdParams,
        response: { 201: StartScaProcessResponse, ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      const tpp = tppOf(request);
      const content = await signingBaskets.find(tpp, request.params.basketId);
      const started = await signingBaskets.startAuthorisation(content, tpp, requestHeadersOf(request));
      return reply.code(201).header('location', started.location).header('aspsp-sca-approach', 'REDIRECT').send(started.body);
    },
  );

  app.get(
    '/signing-baskets/:basketId/authorisations',
    {
      config,
      schema: {
        operationId: 'getSigningBasketAuthorisation',
        tags,
        summary: "The ids of the basket's authorisations",
        headers: SignedRequestHeaders,
        params: BasketIdParams,
        response: { 200: AuthorisationsResponse, ...signedErrorResponses() },
      },
    },
    async (request) => ({
      authorisationIds: await signingBaskets.authorisationIds(await signingBaskets.find(tppOf(request), request.params.basketId)),
    }),
  );

  app.get(
    '/signing-baskets/:basketId/authorisations/:authorisationId',
    {
      config,
      schema: {
        operationId: 'getSigningBasketScaStatus',
        tags,
        summary: 'The scaStatus of one authorisation, with psuMessage when it failed',
        headers: SignedRequestHeaders,
        params: BasketAuthorisationIdParams,
        response: { 200: ScaStatusResponse, ...signedErrorResponses() },
      },
    },
    async (request) => {
      const content = await signingBaskets.find(tppOf(request), request.params.basketId);
      return signingBaskets.scaStatus(content, request.params.authorisationId, request.ctx.language);
    },
  );
};
