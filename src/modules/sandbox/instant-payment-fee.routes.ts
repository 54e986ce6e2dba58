import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { MAX_FEE_TIERS } from './instant-payment-fee.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

const NokAmount = (description: string) => Type.String({ maxLength: 20, description });

const FeeList = Type.Object(
  {
    tiers: Type.Array(
      Type.Object(
        {
          fromAmount: NokAmount('NOK: the smallest payment amount this tier prices; the first tier is "0.00", each next one higher'),
          fee: NokAmount('NOK: the fee for an amount from fromAmount up to the next tier ("0.00": free)'),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_FEE_TIERS },
    ),
  },
  {
    additionalProperties: false,
    description:
      'The price list of instant (Straks) payments in your sandbox. A new or initialized sandbox has NOK 5.00 below NOK 100 000 and NOK 10.00 from there.',
  },
);

const common = { tags: ['Sandbox mock data'], headers: SignedRequestHeaders };

/** `GET` and `PUT /v1/sandbox/instant-payment-fees`: the fee the Straks fee information and Straks payments answer. */
export const instantPaymentFeeRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank }) => {
  app.get(
    '/instant-payment-fees',
    {
      schema: {
        ...common,
        operationId: 'getSandboxInstantPaymentFees',
        summary: 'The price list of instant (Straks) payments',
        response: { 200: FeeList, ...signedErrorResponses() },
      },
    },
    async (request) => bank.instantPaymentFees.get(callerOf(request)),
  );
  app.put(
    '/instant-payment-fees',
    {
      schema: {
        ...common,
        operationId: 'setSandboxInstantPaymentFees',
        summary: 'Replace the price list of instant (Straks) payments',
        body: FeeList,
        response: { 200: FeeList, ...signedErrorResponses() },
      },
    },
    async (request) => bank.instantPaymentFees.set(callerOf(request), request.body),
  );
};
