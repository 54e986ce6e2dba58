import { withTransaction, type Db, type Tx } from '../../db/create-db.js';
import { AppError } from '../../errors/app-error.js';
import { idempotencyRepository, type IdempotencyKey, type Reservation, type StoredResponse } from './idempotency.repository.js';

/** A request as its X-Request-ID names it: the same id with another fingerprint is another request. */
export interface RequestFingerprint {
  readonly method: string;
  readonly path: string;
  readonly hash: string;
}

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

/** The stored answer to replay, or the 409 an X-Request-ID already taken calls for. */
export function replayOf(earlier: Reservation): StoredResponse {
  switch (earlier.kind) {
    case 'replay':
      return earlier.response;
    case 'conflict':
      throw new AppError('REQUEST_ID_REUSED', { path: 'X-Request-ID' });
    case 'in-progress':
    case 'reserved':
      // peek never reserves; an unfinished claim is another request still running.
      throw new AppError('REQUEST_IN_PROGRESS', { path: 'X-Request-ID' });
  }
}

/** The answer stored for this request earlier, if any (to replay before doing the work again). */
export async function earlierAnswer(db: Db, key: IdempotencyKey, request: RequestFingerprint): Promise<StoredResponse | undefined> {
  const earlier = await idempotencyRepository.peek(db, key, request.hash);
  return earlier && replayOf(earlier);
}

/**
 * Runs a creation and records its answer under the X-Request-ID in one transaction (DESIGN §2): a
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
      const concurrent = await idempotencyRepository.peek(trx, key, request.hash);
      if (concurrent) return replayOf(concurrent);
      const response = await work(trx);
      if (!(await idempotencyRepository.recordCompleted(trx, key, request, response, at))) throw new LostRace();
      return response;
    });
  } catch (error) {
    if (error instanceof LostRace) {
      const winner = await idempotencyRepository.peek(db, key, request.hash);
      return replayOf(winner ?? { kind: 'in-progress' });
    }
    throw error;
  }
}

/** Thrown inside the transaction to roll it back when a concurrent request recorded the id first. */
class LostRace extends Error {}
