import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createdForRedirect } from '../../http/idempotency/created-answer.js';
import { replyCreated } from '../../http/idempotency/idempotency.plugin.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { NoBody, signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import { registerAuthorisationSubresource } from '../authorisations/authorisation-subresource.routes.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { ConsentsService } from './consent.service.js';
import {
  ConsentBody,
  ConsentCreatedResponse,
  ConsentCreationHeaders,
  ConsentIdParams,
  ConsentInformationResponse,
  ConsentStatusResponse,
} from './consent.schemas.js';

const tag = 'Account information consents';
const tags = [tag];

/**
 * `POST /v1/consents`, its reads, its DELETE and its authorisations (the shared sub-resource;
 * docs/design.md §2b); PSP_AI only.
 */
export const consentRoutes: FastifyPluginAsyncTypebox<{ consents: ConsentsService; authorisations: AuthorisationService }> = async (
  app,
  { consents, authorisations },
) => {
  const config = { requiredRole: 'PSP_AI' as const };

  app.post(
    '/consents',
    {
      // The created consent's 201, stored with the consent for retries.
      config: { ...config, answer: createdForRedirect },
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
      const created = await consents.create({
        tpp: tppOf(request),
        body: request.body,
        headers: requestHeadersOf(request),
        requestId,
      });
      return replyCreated(request, reply, created);
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
        body: NoBody,
        response: { 204: Type.Null({ description: 'Terminated' }), ...signedErrorResponses() },
      },
    },
    async (request, reply) => {
      await consents.terminate(tppOf(request), request.params.consentId, request.ctx.requestId ?? '');
      return reply.code(204).send(null);
    },
  );

  registerAuthorisationSubresource(app, {
    authorisations,
    parentPath: '/consents/:consentId',
    params: ConsentIdParams,
    requiredRole: config.requiredRole,
    find: (tpp, params) => consents.find(tpp, params.consentId),
    idOf: (consent) => consent.id,
    subresources: [
      {
        segment: 'authorisations',
        purpose: 'consent',
        operationIds: { start: 'startConsentAuthorisation', list: 'getConsentAuthorisation', status: 'getConsentScaStatus' },
        tag,
        summaries: {
          start: "Start the consent's authorisation (explicit start): 201 with scaRedirect",
          list: "The ids of the consent's authorisations",
        },
        resource: (trx, consent) => consents.authorisationTarget(trx, consent),
      },
    ],
  });
};
