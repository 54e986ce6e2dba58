import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createCardAccountSchema,
  createCardTransactionSchema,
  getCardAccountSchema,
  getCardTransactionSchema,
  listCardAccountsSchema,
  listCardTransactionsSchema,
  updateCardAccountSchema,
} from './card-account.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

/** `/v1/sandbox/card-accounts`: mock card accounts and their transactions. */
export const cardAccountRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post('/card-accounts', { schema: createCardAccountSchema }, async (request, reply) => {
    const view = mapper.cardAccount(await bank.cardAccounts.create(callerOf(request), request.body));
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/card-accounts', { schema: listCardAccountsSchema }, async (request) => ({
    cardAccounts: (await bank.cardAccounts.list(callerOf(request))).map(mapper.cardAccount),
  }));

  app.get('/card-accounts/:mockCardAccountId', { schema: getCardAccountSchema }, async (request) =>
    mapper.cardAccount(await bank.cardAccounts.get(callerOf(request), request.params.mockCardAccountId)),
  );

  app.patch('/card-accounts/:mockCardAccountId', { schema: updateCardAccountSchema }, async (request) =>
    mapper.cardAccount(await bank.cardAccounts.update(callerOf(request), request.params.mockCardAccountId, request.body)),
  );

  app.post('/card-accounts/:mockCardAccountId/transactions', { schema: createCardTransactionSchema }, async (request, reply) => {
    const transaction = await bank.cardAccounts.addTransaction(callerOf(request), request.params.mockCardAccountId, request.body);
    const view = mapper.cardTransaction(transaction);
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/card-accounts/:mockCardAccountId/transactions', { schema: listCardTransactionsSchema }, async (request) => {
    const { cardAccount, transactions } = await bank.cardAccounts.listTransactions(
      callerOf(request),
      request.params.mockCardAccountId,
      request.query,
    );
    return mapper.cardTransactionReport(cardAccount, transactions);
  });

  app.get('/card-accounts/:mockCardAccountId/transactions/:cardTransactionId', { schema: getCardTransactionSchema }, async (request) =>
    mapper.cardTransaction(
      await bank.cardAccounts.getTransaction(callerOf(request), request.params.mockCardAccountId, request.params.cardTransactionId),
    ),
  );
};
