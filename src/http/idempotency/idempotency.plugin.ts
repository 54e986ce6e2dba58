import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../db/create-db.js';
import { idempotencyRepository, type IdempotencyKey } from './idempotency.repository.js';

/** Response headers a replay repeats; the rest (Date, X-Request-ID) belong to the new exchange. */
const REPLAYED_HEADERS = ['location', 'aspsp-sca-approach', 'content-type'];

const claims = new WeakMap<FastifyRequest, IdempotencyKey>();

/**
 * Every request that changes something claims its X-Request-ID, so the id cannot be reused for
 * another request. A POST's answer is stored and replayed (a retried POST must not create twice);
 * PUT, PATCH and DELETE are idempotent by HTTP, so the same request simply runs again and only
 * the id is recorded, in one write.
 */
const REPLAYED_METHODS = new Set(['POST']);
const RECORDED_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** Headers besides the body that change what a request does: the same id with other values is another request. */
const OUTCOME_HEADERS = [
  'psu-corporate-id',
  'tpp-redirect-uri',
  'tpp-nok-redirect-uri',
  'tpp-explicit-authorisation-preferred',
  'tpp-redirect-preferred',
];

/**
 * Safe retries (DESIGN §2): the first POST, PUT, PATCH or DELETE with an X-Request-ID claims it; a retry with
 * the same body gets the stored answer, one with another body 409. Only successful answers are
 * kept: a refused request releases its claim so a corrected request may use the id again.
 *
 * `claim` runs in the API scope after the TPP is known; `capture` must run at the root before
 * compression so it sees the serialised body.
 */
export function installIdempotency(scope: FastifyInstance, db: Db, now: () => Date): void {
  scope.addHook('preHandler', async (request, reply) => {
    const replayed = REPLAYED_METHODS.has(request.method);
    if ((!replayed && !RECORDED_METHODS.has(request.method)) || !request.ctx.tpp || !request.ctx.requestId) {
      return;
    }
    if (request.routeOptions.config.idempotentInService) {
      return;
    }
    const key = { tppId: request.ctx.tpp.id, requestId: request.ctx.requestId };
    const digest = requestHash(request);
    if (!replayed) {
      const seen = await idempotencyRepository.markSeen(
        db,
        key,
        { method: request.method, path: request.url, hash: digest },
        now().toISOString(),
      );
      if (seen === 'conflict') {
        throw new AppError('REQUEST_ID_REUSED', { path: 'X-Request-ID' });
      }
      if (seen === 'new') {
        // Kept only if the request succeeds; a refused one frees the id for its correction.
        releaseOnFailure.add(request);
      }
      return;
    }
    const reservation = await idempotencyRepository.reserve(
      db,
      key,
      { method: request.method, path: request.url, hash: digest },
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

/** What makes two requests with one X-Request-ID the same request: method, URL, outcome headers and body. */
export function requestHash(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  // The PSU as the front door resolved it, from PSU-ID or a PSU access token: another PSU makes
  // another request, a renewed token of the same PSU does not.
  hash.update(`psu: ${request.ctx.headers?.psuId?.number ?? String(request.headers['psu-id'] ?? '')}\n`);
  for (const name of OUTCOME_HEADERS) {
    hash.update(`${name}: ${String(request.headers[name] ?? '')}\n`);
  }
  hash.update(request.ctx.rawBody ?? Buffer.alloc(0));
  return hash.digest('hex');
}

const releaseOnFailure = new WeakSet<FastifyRequest>();

export function installIdempotencyCapture(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      releaseOnFailure.delete(request) &&
      (reply.statusCode < 200 || reply.statusCode >= 300) &&
      request.ctx.tpp &&
      request.ctx.requestId
    ) {
      await idempotencyRepository.release(db, { tppId: request.ctx.tpp.id, requestId: request.ctx.requestId });
    }
    const key = claims.get(request);
    if (!key) {
      return payload;
    }
    claims.delete(request);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null)) {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) {
          headers[name] = String(value);
        }
      }
      await idempotencyRepository.complete(db, key, { status: reply.statusCode, headers, body: payload ?? '' }, now().toISOString());
    } else {
      await idempotencyRepository.release(db, key);
    }
    return payload;
  });
}

function replay(reply: FastifyReply, response: { status: number; headers: Readonly<Record<string, string>>; body: string }): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
