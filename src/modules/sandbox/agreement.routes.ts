import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createAgreementSchema,
  createEngagementSchema,
  deleteEngagementSchema,
  getAgreementSchema,
  getEngagementSchema,
  listAgreementsSchema,
} from './agreement.schemas.js';
import { callerOf } from './sandbox-request.js';
import type { SandboxRouteOptions } from './sandbox-routes.options.js';

/** `/v1/sandbox/agreements`: corporate agreements and the engagements that give PSUs access. */
export const agreementRoutes: FastifyPluginAsyncTypebox<SandboxRouteOptions> = async (app, { bank, mapper }) => {
  app.post('/agreements', { schema: createAgreementSchema }, async (request, reply) => {
    const view = mapper.agreement(await bank.agreements.create(callerOf(request), request.body));
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/agreements', { schema: listAgreementsSchema }, async (request) => ({
    agreements: (await bank.agreements.list(callerOf(request))).map(mapper.agreement),
  }));

  app.get('/agreements/:mockAgreementId', { schema: getAgreementSchema }, async (request) =>
    mapper.agreement(await bank.agreements.get(callerOf(request), request.params.mockAgreementId)),
  );

  app.post('/agreements/:mockAgreementId/engagements', { schema: createEngagementSchema }, async (request, reply) => {
    const view = mapper.engagement(await bank.agreements.addEngagement(callerOf(request), request.params.mockAgreementId, request.body));
    return reply.code(201).header('location', view._links.self.href).send(view);
  });

  app.get('/agreements/:mockAgreementId/engagements/:engagementId', { schema: getEngagementSchema }, async (request) =>
    mapper.engagement(await bank.agreements.getEngagement(callerOf(request), request.params.mockAgreementId, request.params.engagementId)),
  );

  app.delete('/agreements/:mockAgreementId/engagements/:engagementId', { schema: deleteEngagementSchema }, async (request, reply) => {
    await bank.agreements.removeEngagement(callerOf(request), request.params.mockAgreementId, request.params.engagementId);
    return reply.code(204).send(null);
  });
};
