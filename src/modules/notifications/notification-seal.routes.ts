import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BankSeal } from './bank-seal.js';

/**
 * `GET /notification-seal-certificate`: the certificate of the seal that signs status
 * notifications, as PEM, unsigned and for anyone: a TPP pins it (or checks it against the QTSP that
 * issued it) to verify the notifications it receives (docs/notifications.md). Public by nature.
 */
export const notificationSealRoutes: FastifyPluginAsyncTypebox<{ seal: () => Promise<BankSeal> }> = async (app, { seal }) => {
  app.get(
    '/notification-seal-certificate',
    {
      schema: {
        tags: ['Operations'],
        summary: "The bank's certificate that signs status notifications (PEM)",
        response: { 200: Type.String({ description: 'PEM certificate' }) },
      },
    },
    async (_request, reply) => reply.type('application/x-pem-file').send((await seal()).certificatePem),
  );
};
