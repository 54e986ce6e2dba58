import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Db, Tx } from '../../db/create-db.js';
import { runInTransactionScope } from '../../db/transaction-scope.js';
import { CreatedResource } from '../../domain/created-resource.js';
import { localized } from '../../domain/localized.js';
import type { CreatedAnswer } from './created-answer.js';
import {
  idempotencyRepository,
  type Earlier,
  type IdempotencyKey,
  type RequestFingerprint,
  type StoredResponse,
} from './idempotency.repository.js';
import { AppError } from '../../errors/app-error.js';
import { issuedUuid } from '../issued-uuids.js';
import { recordLifetimes, type RecordLifetimes } from './record-lifetimes.js';
import { installRepeatingJob } from '../../repeating-job.js';

/** Response headers a replay repeats; the rest (Date, X-Request-ID) belong to the new exchange. */
const REPLAYED_HEADERS = ['location', 'aspsp-sca-approach', 'aspsp-notification-support', 'aspsp-notification-content', 'content-type'];

/** Headers besides the body that change what a request does: the same id with other values is another request. */
const OUTCOME_HEADERS = [
  'psu-corporate-id',
  'tpp-redirect-uri',
  'tpp-nok-redirect-uri',
  'tpp-explicit-authorisation-preferred',
  'tpp-redirect-preferred',
];

/**
 * Outcome headers hashed only when sent, so the fingerprint of a request without them is what it
 * was before they were counted (a retry across an upgrade still finds its answer).
 */
const OUTCOME_HEADERS_WHEN_SENT = ['tpp-notification-uri', 'tpp-notification-content-preferred'];

/** How often expired rows are purged. */
const PURGE_INTERVAL_MS = 60_000;

/**
 * How long a POST whose X-Request-ID is still running elsewhere waits for that run's answer
 * before it is told 409 REQUEST_IN_PROGRESS: a TPP that sends its request twice at once (a
 * double click, a retry right after a timeout) gets the one answer twice.
 */
const IN_PROGRESS_WAIT_MS = 2_000;
const IN_PROGRESS_POLL_MS = 25;

interface Claimed {
  readonly key: IdempotencyKey;
  readonly fingerprint: RequestFingerprint;
  /** A POST whose answer is stored for replays. */
  readonly answered: boolean;
  /** When the claim was made: fences the POST's effect against a retry that took it over. */
  readonly claimedAt: string;
  /** The answer stored in the transaction that created the request's resource (routes with `answer`). */
  stored?: { readonly of: CreatedResource; readonly answer: StoredResponse };
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
 * simply runs again; an identical POST gets its stored answer (docs/design.md §2: safe retries),
 * after waiting briefly for it when the first run is still going.
 *
 * This is the only idempotency mechanism; services know nothing of it
 * (docs/adr/0009-one-idempotency-mechanism-in-the-http-layer.md). A POST's handler runs in a
 * transaction scope (transaction-scope.ts), so the transaction that carries the request out also
 * records it, fenced by the claim:
 * - a route with an `answer` (payments, baskets) has its service return the {@link CreatedResource}
 *   from the transaction that creates it; the answer is serialised and stored in that transaction,
 *   and the route sends it as stored ({@link replyCreated}). A crash leaves both or neither.
 * - any other POST has its claim marked `applied` in the first transaction the handler commits, and
 *   its answer stored after it is sent: a crash in between leaves a claim a retry recognises
 *   (carried out: 409 REQUEST_ANSWER_LOST, or not and free to run once its lease ran out), never a
 *   key stuck for good.
 * The answer is stored in the service's own transaction, not in one the layer opens around the
 * handler: a handler also reads through the database handle and calls the bank, which must not
 * wait inside a transaction (on SQLite's one connection they could not run at all).
 *
 * Only successful answers are kept: a refused request's id stays bound to its operation for the
 * replay window, and a corrected request to the same operation may use it.
 */
export function installIdempotency(scope: FastifyInstance, db: Db, options: RequestRecordOptions): void {
  const lifetimes = recordLifetimes(options.maxClockSkewSeconds, options.requestLeaseSeconds);

  scope.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    route.handler = carriedOutOnce(route.handler, route.config?.answer, lifetimes, options.now);
  });

  scope.addHook('preHandler', async (request, reply) => {
    if (!request.ctx.tpp || !request.ctx.requestId) return;
    const key = { tppId: request.ctx.tpp.id, requestId: request.ctx.requestId };
    const fingerprint = fingerprintOf(request);
    const answered = request.method === 'POST';
    const waitUntil = Date.now() + IN_PROGRESS_WAIT_MS;
    for (;;) {
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
          return send(reply, claim.response);
        case 'in-progress':
          if (Date.now() < waitUntil) {
            await sleep(IN_PROGRESS_POLL_MS);
            continue;
          }
          throw refusalOf(claim);
        case 'other-operation':
        case 'conflict':
        case 'applied':
          throw refusalOf(claim);
      }
    }
  });
}

/**
 * Runs a POST's handler with its claim in the transaction scope. With an `answer`, the transaction
 * that creates the request's resource stores the answer ({@link replyCreated} sends it); without
 * one, the first transaction the handler commits marks the claim `applied`.
 */
function carriedOutOnce(
  handler: RouteHandlerMethod,
  answerOf: CreatedAnswer | undefined,
  lifetimes: RecordLifetimes,
  now: () => Date,
): RouteHandlerMethod {
  return function (this: FastifyInstance, request, reply) {
    const claimed = claims.get(request);
    if (!claimed?.answered) return handler.call(this, request, reply);
    return runInTransactionScope(
      (trx, value) => (answerOf ? storeAnswer(trx, value, claimed, answerOf, lifetimes, now) : markApplied(trx, claimed, lifetimes, now)),
      () => handler.call(this, request, reply),
    );
  };
}

/**
 * Answers a POST with an `answer` with the resource it created: the answer stored in the
 * transaction that created it, byte for byte. A resource created without a transaction is
 * answered as other POSTs are, and its answer stored after it is sent.
 */
export function replyCreated(request: FastifyRequest, reply: FastifyReply, created: CreatedResource): FastifyReply {
  const answerOf = request.routeOptions.config.answer;
  if (!answerOf) throw new Error(`${request.method} ${request.routeOptions.url ?? ''} names no \`answer\` in its config`);
  const stored = claims.get(request)?.stored;
  if (stored && stored.of !== created) throw new Error('the resource answered is not the one the request created');
  return send(reply, stored?.answer ?? answerOf(created));
}

/** Marks the claim `applied` in the first transaction the handler commits, atomically with its effect. */
async function markApplied(trx: Tx, claimed: Claimed, lifetimes: RecordLifetimes, now: () => Date): Promise<boolean> {
  if (!(await idempotencyRepository.markApplied(trx, claimed.key, claimed.claimedAt, lifetimes.answerRetentionEnd(now())))) {
    throw takenOver();
  }
  return true;
}

/**
 * Stores the answer in the transaction that creates the request's resource. Other transactions on
 * the way (an expired authorisation failed while the payments were read) are not the request's
 * effect: they leave the claim as it is.
 */
async function storeAnswer(
  trx: Tx,
  value: unknown,
  claimed: Claimed,
  answerOf: CreatedAnswer,
  lifetimes: RecordLifetimes,
  now: () => Date,
): Promise<boolean> {
  if (!isCreatedResource(value)) return false;
  const answer = answerOf(value);
  const at = now();
  const times = { at: at.toISOString(), expiresAt: lifetimes.answerRetentionEnd(at) };
  if (!(await idempotencyRepository.answerClaim(trx, claimed.key, claimed.claimedAt, answer, times))) throw takenOver();
  claimed.stored = { of: value, answer };
  return true;
}

function isCreatedResource(value: unknown): value is CreatedResource {
  return value instanceof CreatedResource;
}

/** This run outlived its lease and a retry took the request over: roll back, never twice. */
function takenOver(): AppError {
  return new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
}

/**
 * What a request whose X-Request-ID was used before gets when there is no answer to replay: the
 * refusal the earlier use calls for.
 */
function refusalOf(earlier: Exclude<Earlier, { kind: 'repeat' | 'replay' }>): AppError {
  switch (earlier.kind) {
    case 'other-operation':
      return new AppError('FORMAT_ERROR', {
        path: 'X-Request-ID',
        detail: localized(
          `this X-Request-ID was already used for ${earlier.method} ${earlier.path}; a signed request cannot be sent again as another operation`,
          `denne X-Request-ID er allerede brukt til ${earlier.method} ${earlier.path}; en signert forespørsel kan ikke sendes på nytt som en annen operasjon`,
        ),
      });
    case 'conflict':
      return new AppError('REQUEST_ID_REUSED', { path: 'X-Request-ID' });
    case 'in-progress':
      return new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
    case 'applied':
      return new AppError('REQUEST_ANSWER_LOST', { path: 'X-Request-ID' });
  }
}

/** What identifies a request under its X-Request-ID: method, path, and a hash of what else decides its outcome. */
export function fingerprintOf(request: FastifyRequest): RequestFingerprint {
  const [rawPath = '', query] = request.url.split('?', 2);
  const path = normalisedPath(rawPath);
  // One text, hashed in one call (each call into the hash costs more than its few bytes): the same
  // digest as hashing the parts in turn, so fingerprints stored before stay valid.
  let text = `${request.method} ${path}?${query ?? ''}\n`;
  // The PSU as the front door resolved it, from PSU-ID or a PSU access token: another PSU makes
  // another request, a renewed token of the same PSU does not.
  text += `psu: ${request.ctx.headers?.psuId?.number ?? String(request.headers['psu-id'] ?? '')}\n`;
  for (const name of OUTCOME_HEADERS) {
    text += `${name}: ${String(request.headers[name] ?? '')}\n`;
  }
  for (const name of OUTCOME_HEADERS_WHEN_SENT) {
    const value = request.headers[name];
    if (value !== undefined) text += `${name}: ${String(value)}\n`;
  }
  const hash = createHash('sha256').update(text);
  if (request.ctx.rawBody !== undefined) hash.update(request.ctx.rawBody);
  return { method: request.method, path, hash: hash.digest('hex') };
}

/**
 * The path as naming its resource: one trailing slash names the same resource (docs/design.md §5),
 * and so does an id the server issued in any letter case (issued-uuids.ts). Every UUID-shaped
 * segment is read so, a bank's transaction id too: the same X-Request-ID on it in other letters is
 * then an identical GET, run again, never another operation.
 */
function normalisedPath(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  // Only a capital letter can make a UUID another text (the common case reads no segment).
  return /[A-F]/.test(trimmed) ? trimmed.split('/').map(issuedUuid).join('/') : trimmed;
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
    // An answer stored in the transaction that created the resource is there already.
    if (claimed?.answered && !claimed.stored && (typeof payload === 'string' || payload === undefined || payload === null)) {
      await idempotencyRepository.complete(db, claimed.key, storedAnswer(reply, payload ?? ''), {
        at: now.toISOString(),
        expiresAt: lifetimes.answerRetentionEnd(now),
      });
    }
    return payload;
  });

  // A failed purge is a warning, not a failed start: the next one catches up.
  const purge = async (): Promise<void> => {
    try {
      await idempotencyRepository.purgeExpired(db, options.now().toISOString());
    } catch (error) {
      app.log.warn({ err: error }, 'purging expired X-Request-ID records failed; will try again');
    }
  };
  installRepeatingJob(app, { name: 'X-Request-ID purge', intervalMs: PURGE_INTERVAL_MS, start: purge, run: purge });
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

/** Sends a stored answer: its status, the headers that belong to it and the serialised body. */
function send(reply: FastifyReply, response: StoredResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
