import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { CORE_SYSTEM_FAULTS } from './core-system-fault.js';
import { Id } from './sandbox-common.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

const Fault = Type.Object(
  {
    fault: Type.Union([Type.Enum(CORE_SYSTEM_FAULTS), Type.Null()], {
      description:
        "missing-data: the account's transaction and balance reads answer 500 SYSTEM_ERROR, as when the core system answers without data; " +
        'unavailable: 503 SERVICE_UNAVAILABLE; null: no fault',
    }),
  },
  { additionalProperties: false },
);

const common = {
  tags: ['Sandbox mock data'],
  summary: 'Make the core system fail reads of this mock account, or stop it',
  headers: SignedRequestHeaders,
  body: Fault,
  response: { 200: Fault, ...signedErrorResponses() },
};

/** `PUT /v1/sandbox/accounts/{id}/core-system-fault` and the same for card accounts. */
export const coreSystemFaultRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank }) => {
  app.put(
    '/accounts/:mockAccountId/core-system-fault',
    { schema: { ...common, operationId: 'setSandboxAccountCoreSystemFault', params: Type.Object({ mockAccountId: Id }) } },
    async (request) =>
      bank.coreSystemFaults.set(callerOf(request), 'account', request.params.mockAccountId, request.body.fault ?? undefined),
  );
  app.put(
    '/card-accounts/:mockCardAccountId/core-system-fault',
    { schema: { ...common, operationId: 'setSandboxCardAccountCoreSystemFault', params: Type.Object({ mockCardAccountId: Id }) } },
    async (request) =>
      bank.coreSystemFaults.set(callerOf(request), 'card', request.params.mockCardAccountId, request.body.fault ?? undefined),
  );
};
