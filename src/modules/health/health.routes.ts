import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/create-db.js';

const HealthBody = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]) });

/**
 * Liveness (the process answers) and readiness (it can reach its database) for orchestrators.
 * Neither needs a signature nor an X-Request-ID.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/health/live', { schema: { tags: ['Operations'], response: { 200: HealthBody } } }, async () => ({ status: 'ok' as const }));

  app.get('/health/ready', { schema: { tags: ['Operations'], response: { 200: HealthBody, 503: HealthBody } } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok' as const };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ status: 'unavailable' as const });
    }
  });
};
