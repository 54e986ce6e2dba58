import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Db } from '../../db/create-db.js';
import { runInTransactionScope } from '../../db/transaction-scope.js';
import { refusalOf } from './answer-once.js';
import { idempotencyRepository, type IdempotencyKey, type RequestFingerprint, type StoredResponse } from './idempotency.repository.js';
import { AppError } from '../../errors/app-error.js';
import { recordLifetimes, type RecordLifetimes } from './record-lifetimes.js';

/** Response headers a replay repeats; the rest (Date, X-Request-ID) belong to the new exchange. */
const REPLAYED_HEADERS = ['location', 'aspsp-sca-approach', 'content-type'];

/** Headers besides the body that change what a request does: the same id with other values is another request. */
const OUTCOME_HEADERS = [
  'psu-corporate-id',
  'tpp-redirect-uri',
  'tpp-nok-redirect-uri',
  'tpp-explicit-authorisation-preferred',
  'tpp-redirect-preferred',
];

/** How often expired rows are purged. */
const PURGE_INTERVAL_MS = 60_000;

interface Claimed {
  readonly key: IdempotencyKey;
  readonly fingerprint: RequestFingerprint;
  /** A POST whose answer is stored for replays. */
  readonly answered: boolean;
  /** When the claim was made: fences the POST's effect against a retry that took it over. */
  readonly claimedAt: string;
}

const claims = new WeakMap<FastifyRequest, Claimed>();

export interface RequestRecordOptions {
  readonly now: () => Date;
  readonly maxClockSkewSeconds: number;
  readonly requestLeaseSeconds: number;
}

/**
 * Every signed request's X-Request-ID is recorded per TPP with its method, path and fingerprint
 * (docs/design.md §5): the signature covers neither method nor path, so the same id again as another
 * operation is a replay of a captured request, refused with 400 before anything runs. The same
 * operation with another body is 409 REQUEST_ID_REUSED. An identical GET, PUT, PATCH or DELETE
 * simply runs again; an identical POST gets its stored answer (docs/design.md §2: safe retries).
 *
 * A POST's answer is stored in the transaction that carries it out where the service does so
 * (payments, baskets: `idempotentInService`, see answer-once.ts). For other POSTs the claim is
 * marked `applied` in the first transaction the handler commits (transaction-scope.ts) and the
 * answer stored after it: a crash in between leaves a claim a retry recognises (carried out, or
 * not and free to run once its lease ran out), never a key stuck for good.
 *
 * Only successful answers are kept: a refused request's id stays bound to its operation for the
 * replay window, and a corrected request to the same operation may use it.
 */
export function installIdempotency(scope: FastifyInstance, db: Db, options: RequestRecordOptions): void {
  const lifetimes = recordLifetimes(options.maxClockSkewSeconds, options.requestLeaseSeconds);

  scope.addHook('onRoute', (route) => {
    if (route.method !== 'POST' || route.config?.idempotentInService) return;
    route.handler = markingApplied(route.handler, db, lifetimes, options.now);
  });

  scope.addHook('preHandler', async (request, reply) => {
    if (!request.ctx.tpp || !request.ctx.requestId || request.routeOptions.config.idempotentInService) {
      return;
    }
    const key = { tppId: request.ctx.tpp.id, requestId: request.ctx.requestId };
    const fingerprint = fingerprintOf(request);
    const answered = request.method === 'POST';
    const now = options.now();
    const claimedAt = now.toISOString();
    const claim = await idempotencyRepository.claim(db, key, fingerprint, answered ? 'in_progress' : 'seen', {
      at: claimedAt,
      expiresAt: lifetimes.replayWindowEnd(now),
      abandonedBefore: lifetimes.abandonedBefore(now),
    });
    switch (claim.kind) {
      case 'new':
        claims.set(request, { key, fingerprint, answered, claimedAt });
        return;
      case 'repeat':
        // An idempotent method: the same request runs again. Its outcome is recorded as before.
        claims.set(request, { key, fingerprint, answered: false, claimedAt });
        return;
      case 'replay':
        return replay(reply, claim.response);
      case 'other-operation':
      case 'conflict':
      case 'in-progress':
      case 'applied':
        throw refusalOf(claim);
    }
  });
}

/**
 * Runs a POST's handler with its claim in the transaction scope: the first transaction it commits
 * marks the claim `applied`, atomically with its effect.
 */
function markingApplied(handler: RouteHandlerMethod, db: Db, lifetimes: RecordLifetimes, now: () => Date): RouteHandlerMethod {
  return function (this: FastifyInstance, request, reply) {
    const claimed = claims.get(request);
    if (!claimed?.answered) return handler.call(this, request, reply);
    return runInTransactionScope(
      async (trx) => {
        if (!(await idempotencyRepository.markApplied(trx, claimed.key, claimed.claimedAt, lifetimes.answerRetentionEnd(now())))) {
          // This run outlived its lease and a retry took the request over: roll back, never twice.
          throw new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
        }
      },
      () => handler.call(this, request, reply),
    );
  };
}

/** What identifies a request under its X-Request-ID: method, path, and a hash of what else decides its outcome. */
export function fingerprintOf(request: FastifyRequest): RequestFingerprint {
  const [rawPath = '', query] = request.url.split('?', 2);
  const path = normalisedPath(rawPath);
  const hash = createHash('sha256').update(`${request.method} ${path}?${query ?? ''}\n`);
  // The PSU as the front door resolved it, from PSU-ID or a PSU access token: another PSU makes
  // another request, a renewed token of the same PSU does not.
  hash.update(`psu: ${request.ctx.headers?.psuId?.number ?? String(request.headers['psu-id'] ?? '')}\n`);
  for (const name of OUTCOME_HEADERS) {
    hash.update(`${name}: ${String(request.headers[name] ?? '')}\n`);
  }
  hash.update(request.ctx.rawBody ?? Buffer.alloc(0));
  return { method: request.method, path, hash: hash.digest('hex') };
}

/** One trailing slash names the same resource (docs/design.md §5). */
function normalisedPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Stores a claimed POST's answer, or marks a refused request's id; runs at the root before
 * compression so it sees the serialised body. Purges expired rows while the app runs.
 */
export function installIdempotencyCapture(app: FastifyInstance, db: Db, options: RequestRecordOptions): void {
  const lifetimes = recordLifetimes(options.maxClockSkewSeconds, options.requestLeaseSeconds);

  app.addHook('onSend', async (request, reply, payload) => {
    const tpp = request.ctx.tpp;
    const requestId = request.ctx.requestId;
    if (!tpp || !requestId) return payload;
    const claimed = claims.get(request);
    claims.delete(request);
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300;
    const now = options.now();
    if (!succeeded) {
      if (claimed) {
        // A POST that committed its effect, then failed, keeps that answer; anything else is refused.
        if (claimed.answered && typeof payload === 'string') {
          await idempotencyRepository.completeApplied(db, claimed.key, storedAnswer(reply, payload), {
            at: now.toISOString(),
            expiresAt: lifetimes.answerRetentionEnd(now),
          });
        }
        await idempotencyRepository.markRefused(db, claimed.key, claimed.fingerprint);
      } else {
        // Refused before its claim (a header, the schema, a role) or by the service: the id stays
        // bound to this operation, or a captured request could be replayed as another one.
        await idempotencyRepository.recordRefused(db, { tppId: tpp.id, requestId }, fingerprintOf(request), {
          at: now.toISOString(),
          expiresAt: lifetimes.replayWindowEnd(now),
        });
      }
      return payload;
    }
    if (claimed?.answered && (typeof payload === 'string' || payload === undefined || payload === null)) {
      await idempotencyRepository.complete(db, claimed.key, storedAnswer(reply, payload ?? ''), {
        at: now.toISOString(),
        expiresAt: lifetimes.answerRetentionEnd(now),
      });
    }
    return payload;
  });

  let timer: NodeJS.Timeout | undefined;
  const purge = async (): Promise<void> => {
    try {
      await idempotencyRepository.purgeExpired(db, options.now().toISOString());
    } catch (error) {
      app.log.warn({ err: error }, 'purging expired X-Request-ID records failed; will try again');
    }
  };
  app.addHook('onReady', async () => {
    await purge();
    timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

/** The answer as a replay repeats it: status, the headers that belong to it, the serialised body. */
function storedAnswer(reply: FastifyReply, body: string): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body };
}

function replay(reply: FastifyReply, response: { status: number; headers: Readonly<Record<string, string>>; body: string }): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
