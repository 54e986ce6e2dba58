import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { initializeSchema } from './sandbox-initialize.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

/**
 * `POST /v1/sandbox/initialize`. Answers 200, not 201: it resets the TPP's sandbox rather than
 * creating one resource at a new address; the links lead to what it seeded.
 */
export const initializeRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post(
    '/initialize',
    {
      schema: initializeSchema,
    },
    async (request) => ({
      ...(await bank.initializer.initialize(callerOf(request), request.body?.seed)),
      _links: {
        customers: mapper.link('/customers', 'GET', 'POST'),
        accounts: mapper.link('/accounts', 'GET', 'POST'),
        cardAccounts: mapper.link('/card-accounts', 'GET', 'POST'),
        agreements: mapper.link('/agreements', 'GET', 'POST'),
      },
    }),
  );
};
