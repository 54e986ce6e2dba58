import { withTransaction, type Db, type Tx } from '../../db/create-db.js';
import { AppError } from '../../errors/app-error.js';
import { localized } from '../../domain/localized.js';
import {
  idempotencyRepository,
  type Earlier,
  type IdempotencyKey,
  type RequestFingerprint,
  type StoredResponse,
} from './idempotency.repository.js';
import { ANSWER_RETENTION_MS } from './record-lifetimes.js';

export type { RequestFingerprint } from './idempotency.repository.js';

/**
 * The 201 of a resource the PSU must authorise by redirect (a payment, a signing basket), as it is
 * stored for replays: `Location`, `ASPSP-SCA-Approach: REDIRECT` and the JSON body.
 */
export function createdForRedirect(location: string, body: unknown): StoredResponse {
  return {
    status: 201,
    headers: { location, 'aspsp-sca-approach': 'REDIRECT', 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}

/**
 * What a request whose X-Request-ID was used before gets: the stored answer to replay, or the
 * refusal the earlier use calls for. `repeat` (an idempotent method) is the caller's to run again.
 */
export function refusalOf(earlier: Exclude<Earlier, { kind: 'repeat' | 'replay' }>): AppError {
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

/** The stored answer to replay, or the refusal an X-Request-ID already used calls for. */
export function replayOf(earlier: Earlier): StoredResponse {
  if (earlier.kind === 'replay') return earlier.response;
  // A POST's fingerprint is never a `repeat`: its earlier use still runs.
  throw refusalOf(earlier.kind === 'repeat' ? { kind: 'in-progress' } : earlier);
}

/** The answer stored for this request earlier, if any (to replay before doing the work again). */
export async function earlierAnswer(
  db: Db,
  key: IdempotencyKey,
  request: RequestFingerprint,
  at: string,
): Promise<StoredResponse | undefined> {
  const earlier = await idempotencyRepository.peek(db, key, request, at);
  return earlier && replayOf(earlier);
}

/**
 * Runs a creation and records its answer under the X-Request-ID in one transaction (docs/design.md §2): a
 * crash leaves neither, a retry finds the answer, and of two concurrent requests with the same id
 * one creates and the other replays the winner's answer. `lockFirst` runs before the replay check
 * (a lock equal creations queue on).
 */
export async function answerOnce(
  db: Db,
  key: IdempotencyKey,
  request: RequestFingerprint,
  at: string,
  work: (trx: Tx) => Promise<StoredResponse>,
  lockFirst?: (trx: Tx) => Promise<void>,
): Promise<StoredResponse> {
  try {
    return await withTransaction(db, async (trx) => {
      if (lockFirst) await lockFirst(trx);
      const concurrent = await idempotencyRepository.peek(trx, key, request, at);
      if (concurrent) return replayOf(concurrent);
      const response = await work(trx);
      const expiresAt = new Date(Date.parse(at) + ANSWER_RETENTION_MS).toISOString();
      if (!(await idempotencyRepository.recordCompleted(trx, key, request, response, { at, expiresAt }))) throw new LostRace();
      return response;
    });
  } catch (error) {
    if (error instanceof LostRace) {
      const winner = await idempotencyRepository.peek(db, key, request, at);
      return replayOf(winner ?? { kind: 'in-progress' });
    }
    throw error;
  }
}

/** Thrown inside the transaction to roll it back when a concurrent request recorded the id first. */
class LostRace extends Error {}
