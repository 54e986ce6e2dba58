import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { tppOf } from '../../http/request-context.js';
import { signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import type { PsuAccessService } from './psu-access.service.js';

const TokenRequest = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time code the PSU login sent to TPP-Redirect-URI' }) },
  { additionalProperties: false },
);

const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'Send as "Authorization: Bearer …" to identify the PSU' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the token expires' }),
});

/**
 * `POST /v1/token` (docs/design.md §2): after the PSU pre-step, the TPP exchanges the one-time code for a
 * bearer token that identifies the PSU on its later calls (the code works once, within XS2A_PSU_LOGIN_CODE_SECONDS, for
 * the TPP it was issued to).
 */
export const psuAccessRoutes: FastifyPluginAsyncTypebox<{ psuAccess: PsuAccessService }> = async (app, { psuAccess }) => {
  app.post(
    '/token',
    {
      schema: {
        operationId: 'exchangePsuLoginCode',
        tags: ['PSU access'],
        summary: 'Exchange the one-time code of a PSU login for a PSU access token',
        headers: SignedRequestHeaders,
        body: TokenRequest,
        response: { 200: TokenResponse, ...signedErrorResponses() },
      },
    },
    async (request) => psuAccess.exchange(tppOf(request), request.body.code, request.ctx.requestId),
  );
};
