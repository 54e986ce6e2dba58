import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createCustomerSchema, deleteCustomerSchema, getCustomerSchema, listCustomersSchema } from './customer.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

/** `/v1/sandbox/customers`: the test customers whose customer numbers are PSU-IDs at SCA. */
export const customerRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post('/customers', { schema: createCustomerSchema }, async (request, reply) => {
    const view = mapper.customer(await bank.customers.create(callerOf(request), request.body));
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/customers', { schema: listCustomersSchema }, async (request) => ({
    customers: (await bank.customers.list(callerOf(request))).map(mapper.customer),
  }));

  app.get('/customers/:customerId', { schema: getCustomerSchema }, async (request) =>
    mapper.customer(await bank.customers.get(callerOf(request), request.params.customerId)),
  );

  app.delete('/customers/:customerId', { schema: deleteCustomerSchema }, async (request, reply) => {
    await bank.customers.delete(callerOf(request), request.params.customerId);
    return reply.code(204).send(null);
  });
};
