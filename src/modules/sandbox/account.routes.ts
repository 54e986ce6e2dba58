import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAccountSchema, getAccountSchema, listAccountsSchema, putBalanceSchema, updateAccountSchema } from './account.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

/** `/v1/sandbox/accounts`: mock accounts with ledger balances, their credit line, and the balance update. */
export const accountRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post('/accounts', { schema: createAccountSchema }, async (request, reply) => {
    const view = mapper.account(await bank.accounts.create(callerOf(request), request.body));
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/accounts', { schema: listAccountsSchema }, async (request) => ({
    accounts: (await bank.accounts.list(callerOf(request))).map(mapper.account),
  }));

  app.get('/accounts/:mockAccountId', { schema: getAccountSchema }, async (request) =>
    mapper.account(await bank.accounts.get(callerOf(request), request.params.mockAccountId)),
  );

  app.patch('/accounts/:mockAccountId', { schema: updateAccountSchema }, async (request) =>
    mapper.account(await bank.accounts.update(callerOf(request), request.params.mockAccountId, request.body)),
  );

  app.put('/accounts/:mockAccountId/balance', { schema: putBalanceSchema }, async (request) =>
    mapper.account(await bank.accounts.setBalance(callerOf(request), request.params.mockAccountId, request.body)),
  );
};
