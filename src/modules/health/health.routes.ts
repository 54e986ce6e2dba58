import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/create-db.js';
import type { ServerClosing } from '../../http/server-closing.js';

const HealthBody = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]) });

/**
 * Liveness (the process answers) and readiness (it can reach its database, and is not shutting
 * down) for orchestrators. Neither needs a signature nor an X-Request-ID, and both answer while
 * the server closes: it is alive, and not ready.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; closing: ServerClosing }> = async (app, { db, closing }) => {
  const config = { answersWhileClosing: true };
  app.get('/health/live', { config, schema: { tags: ['Operations'], response: { 200: HealthBody } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/health/ready',
    { config, schema: { tags: ['Operations'], response: { 200: HealthBody, 503: HealthBody } } },
    async (request, reply) => {
      if (closing.begun) return reply.code(503).send({ status: 'unavailable' as const });
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );
};
