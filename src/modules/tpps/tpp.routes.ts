import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tppOf } from '../../http/request-context.js';
import type { TppService } from './tpp.service.js';
import type { TppContact } from './tpp.repository.js';
import { getContactInformationSchema, putContactInformationSchema } from './tpp.schemas.js';

/** TPP dialogue: `/v1/tpps/{tppId}/contact-information`. */
export const tppRoutes: FastifyPluginAsyncTypebox<{ tpps: TppService; publicUrl: string }> = async (app, { tpps, publicUrl }) => {
  const view = (tppId: string, contact: TppContact) => ({
    email: contact.email,
    _links: {
      self: { href: `${publicUrl}/v1/tpps/${encodeURIComponent(tppId)}/contact-information`, verbs: ['GET' as const, 'PUT' as const] },
    },
  });

  app.put('/tpps/:tppId/contact-information', { schema: putContactInformationSchema }, async (request) => {
    const tpp = tppOf(request);
    const contact = await tpps.saveContactInformation(tpp, request.params.tppId, request.body.email, request.ctx.requestId ?? '');
    return view(request.params.tppId, contact);
  });

  app.get('/tpps/:tppId/contact-information', { schema: getContactInformationSchema }, async (request) => {
    const contact = await tpps.contactInformation(tppOf(request), request.params.tppId);
    return view(request.params.tppId, contact);
  });
};
