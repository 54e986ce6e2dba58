import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tppOf } from '../../http/request-context.js';
import { signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import type { FundsConfirmationService } from './funds-confirmation.service.js';
import { FundsConfirmationBody, FundsConfirmationResponse } from './funds-confirmation.schemas.js';

/** `POST /v1/funds-confirmations`; PSP_IC only. */
export const fundsConfirmationRoutes: FastifyPluginAsyncTypebox<{ funds: FundsConfirmationService }> = async (app, { funds }) => {
  app.post(
    '/funds-confirmations',
    {
      config: { requiredRole: 'PSP_IC' },
      schema: {
        operationId: 'checkAvailabilityOfFunds',
        tags: ['Confirmation of funds'],
        summary: 'Whether the amount can be debited from the account now',
        headers: SignedRequestHeaders,
        body: FundsConfirmationBody,
        response: { 200: FundsConfirmationResponse, ...signedErrorResponses() },
      },
    },
    async (request) => funds.confirm(tppOf(request).id, request.body),
  );
};
