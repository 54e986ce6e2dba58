import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fingerprintOf } from '../../http/idempotency/idempotency.plugin.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import type { ConsentsService } from './consent.service.js';
import {
  ConsentBody,
  ConsentCreatedResponse,
  ConsentCreationHeaders,
  ConsentIdParams,
  ConsentInformationResponse,
  ConsentStatusResponse,
} from './consent.schemas.js';

const tags = ['Account information consents'];

/** `POST /v1/consents`, its reads and its DELETE (docs/design.md §2b); PSP_AI only. */
export const consentRoutes: FastifyPluginAsyncTypebox<{ consents: ConsentsService }> = async (app, { consents }) => {
  const config = { requiredRole: 'PSP_AI' as const };

  app.post(
    '/consents',
    {
      config: { ...config, idempotentInService: true },
      schema: {
        operationId: 'createConsent',
        tags,
        summary: 'Create an account information consent; the PSU approves it by SCA redirect',
        headers: ConsentCreationHeaders,
        body: ConsentBody,
        response: { 201: ConsentCreatedResponse, ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      const requestId = request.ctx.requestId;
      if (!requestId) throw new Error('consent routes must sit behind the API front door');
      const answer = await consents.create({
        tpp: tppOf(request),
        body: request.body,
        headers: requestHeadersOf(request),
        request: { id: requestId, ...fingerprintOf(request) },
      });
      // The stored answer is already serialised (a replay sends the very same bytes).
      return reply
        .code(answer.status as 201)
        .headers(answer.headers)
        .send(answer.body as never);
    },
  );

  app.get(
    '/consents/:consentId',
    {
      config,
      schema: {
        operationId: 'getConsentInformation',
        tags,
        summary: 'The consent: its access, validity and status',
        headers: SignedRequestHeaders,
        params: ConsentIdParams,
        response: { 200: ConsentInformationResponse, ...signedErrorResponses() },
      },
    },
    async (request) => consents.view(await consents.find(tppOf(request), request.params.consentId)),
  );

  app.get(
    '/consents/:consentId/status',
    {
      config,
      schema: {
        operationId: 'getConsentStatus',
        tags,
        summary: 'The consentStatus',
        headers: SignedRequestHeaders,
        params: ConsentIdParams,
        response: { 200: ConsentStatusResponse, ...signedErrorResponses() },
      },
    },
    async (request) => ({ consentStatus: (await consents.find(tppOf(request), request.params.consentId)).status }),
  );

  app.delete(
    '/consents/:consentId',
    {
      config,
      schema: {
        operationId: 'deleteConsent',
        tags,
        summary: 'Terminate the consent (terminatedByTpp): 204',
        headers: SignedRequestHeaders,
        params: ConsentIdParams,
        response: { 204: Type.Null({ description: 'Terminated' }), ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      await consents.terminate(tppOf(request), request.params.consentId, request.ctx.requestId ?? '');
      return reply.code(204).send(null);
    },
  );
};
