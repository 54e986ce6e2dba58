import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../db/create-db.js';
import { idempotencyRepository, type IdempotencyKey } from './idempotency.repository.js';

/** Response headers a replay repeats; the rest (Date, X-Request-ID) belong to the new exchange. */
const REPLAYED_HEADERS = ['location', 'aspsp-sca-approach', 'content-type'];

const claims = new WeakMap<FastifyRequest, IdempotencyKey>();

/**
 * Safe retries of POSTs (DESIGN §2): the first POST with an X-Request-ID claims it; a retry with
 * the same body gets the stored answer, one with another body 409. Only successful answers are
 * kept: a refused request releases its claim so a corrected request may use the id again.
 *
 * `claim` runs in the API scope after the TPP is known; `capture` must run at the root before
 * compression so it sees the serialised body.
 */
export function installIdempotency(scope: FastifyInstance, db: Db, now: () => Date): void {
  scope.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.ctx.tpp || !request.ctx.requestId) {
      return;
    }
    const key = { tppId: request.ctx.tpp.id, requestId: request.ctx.requestId };
    const hash = createHash('sha256')
      .update(`${request.method} ${request.url}\n`)
      .update(request.ctx.rawBody ?? Buffer.alloc(0))
      .digest('hex');
    const reservation = await idempotencyRepository.reserve(
      db,
      key,
      { method: request.method, path: request.url, hash },
      now().toISOString(),
    );
    switch (reservation.kind) {
      case 'reserved':
        claims.set(request, key);
        return;
      case 'replay':
        return replay(reply, reservation.response);
      case 'conflict':
        throw new AppError('REQUEST_ID_REUSED', { path: 'X-Request-ID' });
      case 'in-progress':
        throw new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
    }
  });
}

export function installIdempotencyCapture(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const key = claims.get(request);
    if (!key) {
      return payload;
    }
    claims.delete(request);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) {
          headers[name] = String(value);
        }
      }
      await idempotencyRepository.complete(db, key, { status: reply.statusCode, headers, body: payload }, now().toISOString());
    } else {
      await idempotencyRepository.release(db, key);
    }
    return payload;
  });
}

function replay(reply: FastifyReply, response: { status: number; headers: Readonly<Record<string, string>>; body: string }): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
