import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';
import { createTransactionSchema, fillTransactionsSchema, getTransactionSchema, listTransactionsSchema } from './transaction.schemas.js';

/** `/v1/sandbox/accounts/{mockAccountId}/transactions`: booked mock transactions and the data fill. */
export const transactionRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post('/accounts/:mockAccountId/transactions', { schema: createTransactionSchema }, async (request, reply) => {
    const { account, transaction } = await bank.transactions.create(callerOf(request), request.params.mockAccountId, request.body);
    const view = mapper.transaction(account, transaction);
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.post('/accounts/:mockAccountId/transactions/fill', { schema: fillTransactionsSchema }, async (request, reply) => {
    const { account, ...filled } = await bank.transactions.fill(callerOf(request), request.params.mockAccountId, request.body);
    const self = mapper.transactionsLink(account);
    return reply
      .code(201)
      .header('location', self.href)
      .send({
        count: filled.transactions.length,
        seed: filled.seed,
        profile: filled.profile,
        transactions: filled.transactions.map((item) => mapper.transaction(account, item)),
        _links: { self, account: mapper.accountLink(account) },
      });
  });

  app.get('/accounts/:mockAccountId/transactions', { schema: listTransactionsSchema }, async (request) => {
    const { account, transactions } = await bank.transactions.list(callerOf(request), request.params.mockAccountId);
    return mapper.transactionReport(account, transactions);
  });

  app.get('/accounts/:mockAccountId/transactions/:transactionId', { schema: getTransactionSchema }, async (request) => {
    const { account, transaction } = await bank.transactions.get(
      callerOf(request),
      request.params.mockAccountId,
      request.params.transactionId,
    );
    return mapper.transaction(account, transaction);
  });
};
