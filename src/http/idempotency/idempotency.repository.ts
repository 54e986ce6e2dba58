import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { IdempotencyRecordTable, RecordState } from './idempotency.table.js';

export interface IdempotencyKey {
  readonly tppId: string;
  readonly requestId: string;
}

/** A request as its X-Request-ID names it: the same id with another fingerprint is another request. */
export interface RequestFingerprint {
  readonly method: string;
  /** The path without query and without a trailing slash. */
  readonly path: string;
  /** Hash of everything that makes two requests to one operation differ (see requestHash). */
  readonly hash: string;
}

export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What an X-Request-ID already stands for, seen from a request that brings it again. */
export type Earlier =
  /** The same GET, PUT, PATCH or DELETE: it may simply run again. */
  | { readonly kind: 'repeat' }
  /** The same POST, answered: replay the answer. */
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  /** Another method or path: a signed request replayed as another operation (400). */
  | { readonly kind: 'other-operation'; readonly method: string; readonly path: string }
  /** The same operation with another body or outcome headers (409 REQUEST_ID_REUSED). */
  | { readonly kind: 'conflict' }
  /** The same POST, still running (409 REQUEST_IN_PROGRESS). */
  | { readonly kind: 'in-progress' }
  /** The same POST, carried out, but its answer was lost when the server stopped (409). */
  | { readonly kind: 'applied' };

export type Claim = { readonly kind: 'new' } | Earlier;

/** How long rows live and when a POST's claim may be taken over; computed by the caller from `now`. */
export interface Lifetimes {
  readonly at: string;
  /** When the new row may be purged. */
  readonly expiresAt: string;
  /** An in-progress claim created before this has been abandoned (its server stopped). */
  readonly abandonedBefore: string;
}

interface Row {
  method: string;
  path: string;
  request_hash: string;
  state: RecordState;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** A claim's row, unless its id is taken; the primary key decides between concurrent claims. */
const INSERT_UNLESS_TAKEN = preparedQuery(
  (db, row: Omit<IdempotencyRecordTable, 'response_status' | 'response_headers' | 'response_body' | 'completed_at'>) =>
    db
      .insertInto('idempotency_record')
      .values(row)
      .onConflict((oc) => oc.columns(['tpp_id', 'request_id']).doNothing()),
);

/** A POST's answer as its record stores it. */
interface StoredAnswer {
  readonly responseStatus: number;
  /** JSON object of the headers to replay. */
  readonly responseHeaders: string;
  readonly responseBody: string;
  readonly at: string;
  readonly expiresAt: string;
}

function storedAnswer(response: StoredResponse, times: Pick<Lifetimes, 'at' | 'expiresAt'>): StoredAnswer {
  return {
    responseStatus: response.status,
    responseHeaders: JSON.stringify(response.headers),
    responseBody: response.body,
    at: times.at,
    expiresAt: times.expiresAt,
  };
}

/** The columns of a record whose answer is stored: completed, with the answer and its lifetime. */
function completedWith(answer: StoredAnswer) {
  return {
    state: 'completed' as const,
    response_status: answer.responseStatus,
    response_headers: answer.responseHeaders,
    response_body: answer.responseBody,
    completed_at: answer.at,
    expires_at: answer.expiresAt,
  };
}

/** {@link idempotencyRepository.answerClaim}'s update, run by every POST that creates a resource. */
const ANSWER_CLAIM = preparedQuery((db, v: StoredAnswer & { tppId: string; requestId: string; claimedAt: string }) =>
  db
    .updateTable('idempotency_record')
    .set(completedWith(v))
    .where('tpp_id', '=', v.tppId)
    .where('request_id', '=', v.requestId)
    .where('state', '=', 'in_progress')
    .where('created_at', '=', v.claimedAt),
);

/** The only place that queries idempotency_record. */
export const idempotencyRepository = {
  /**
   * Records an X-Request-ID for a request (`seen` for GET, PUT, PATCH, DELETE; `in_progress` for a
   * POST) or says what it already stands for. The primary key makes the claim atomic; a row that
   * expired, a refused request to the same operation and an abandoned POST are taken over.
   */
  async claim(
    db: DbOrTx,
    key: IdempotencyKey,
    request: RequestFingerprint,
    state: 'seen' | 'in_progress',
    times: Lifetimes,
  ): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await insertRow(db, key, request, state, times)) return { kind: 'new' };
      const existing = await readRow(db, key);
      if (!existing) continue; // purged or released meanwhile: insert again
      const takeOver = existing.expires_at < times.at || takesOver(existing, request, times);
      if (!takeOver) return classify(existing, request, times.abandonedBefore);
      // Conditional on the row being as read: of two retries taking over, one wins.
      const updated = await db
        .updateTable('idempotency_record')
        .set({
          method: request.method,
          path: request.path,
          request_hash: request.hash,
          state,
          response_status: null,
          response_headers: null,
          response_body: null,
          created_at: times.at,
          completed_at: null,
          expires_at: times.expiresAt,
        })
        .where('tpp_id', '=', key.tppId)
        .where('request_id', '=', key.requestId)
        .where('state', '=', existing.state)
        .where('created_at', '=', existing.created_at)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) return { kind: 'new' };
    }
    return { kind: 'in-progress' };
  },

  /**
   * Stores a claimed POST's answer in the transaction that carries the request out (the one that
   * creates its resource), so the answer cannot be lost between the two: a crash leaves neither.
   * Fenced by the claim's time: false when a retry took the claim over (this run outlived its
   * lease), and the caller rolls its effect back.
   */
  async answerClaim(
    trx: DbOrTx,
    key: IdempotencyKey,
    claimedAt: string,
    response: StoredResponse,
    times: Pick<Lifetimes, 'at' | 'expiresAt'>,
  ): Promise<boolean> {
    const updated = await ANSWER_CLAIM.run(trx, {
      ...storedAnswer(response, times),
      tppId: key.tppId,
      requestId: key.requestId,
      claimedAt,
    });
    return Number(updated.numAffectedRows) === 1;
  },

  /** Stores a claimed POST's answer after it was sent (routes without an `answer`). */
  async complete(db: DbOrTx, key: IdempotencyKey, response: StoredResponse, times: Pick<Lifetimes, 'at' | 'expiresAt'>): Promise<void> {
    await db
      .updateTable('idempotency_record')
      .set(completedWith(storedAnswer(response, times)))
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('state', 'in', ['in_progress', 'applied'])
      .execute();
  },

  /**
   * Marks a claimed POST as carried out, in the transaction that carries it out: after a crash
   * before its answer is stored, a retry is told so instead of doing it twice. Fenced by the
   * claim's time: false when a retry took the claim over (this run outlived its lease), and the
   * caller rolls its effect back.
   */
  async markApplied(trx: DbOrTx, key: IdempotencyKey, claimedAt: string, expiresAt: string): Promise<boolean> {
    const updated = await trx
      .updateTable('idempotency_record')
      .set({ state: 'applied', expires_at: expiresAt })
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('state', '=', 'in_progress')
      .where('created_at', '=', claimedAt)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  },

  /**
   * Stores the refusal of a POST whose effect had already committed (a handler that committed,
   * then failed): the same request gets the same answer, and is never carried out twice.
   */
  async completeApplied(
    db: DbOrTx,
    key: IdempotencyKey,
    response: StoredResponse,
    times: Pick<Lifetimes, 'at' | 'expiresAt'>,
  ): Promise<void> {
    await db
      .updateTable('idempotency_record')
      .set(completedWith(storedAnswer(response, times)))
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('state', '=', 'applied')
      .execute();
  },

  /**
   * A refused request nothing had recorded (refused before its claim: a header, the schema, a
   * role): its id is bound to the method and path for the replay window, so a captured request
   * cannot be replayed as another operation. Leaves an existing row alone.
   */
  async recordRefused(
    db: DbOrTx,
    key: IdempotencyKey,
    request: RequestFingerprint,
    times: Pick<Lifetimes, 'at' | 'expiresAt'>,
  ): Promise<void> {
    await insertRow(db, key, request, 'refused', times);
  },

  /**
   * The claimant's own request was refused or failed: the id stays bound to its operation, and a
   * corrected request to the same operation may use it.
   */
  async markRefused(db: DbOrTx, key: IdempotencyKey, request: RequestFingerprint): Promise<void> {
    await db
      .updateTable('idempotency_record')
      .set({ state: 'refused', response_status: null, response_headers: null, response_body: null })
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('method', '=', request.method)
      .where('path', '=', request.path)
      .where('request_hash', '=', request.hash)
      .where('state', 'in', ['seen', 'in_progress'])
      .execute();
  },

  /** Deletes rows whose time is up; returns how many. */
  async purgeExpired(db: DbOrTx, at: string): Promise<number> {
    const deleted = await db.deleteFrom('idempotency_record').where('expires_at', '<', at).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },
};

function sameOperation(row: Pick<Row, 'method' | 'path'>, request: RequestFingerprint): boolean {
  return row.method === request.method && row.path === request.path;
}

/** Whether a new claim replaces the row: a refused request to the same operation, or an abandoned POST. */
function takesOver(row: Row, request: RequestFingerprint, times: Lifetimes): boolean {
  if (!sameOperation(row, request)) return false;
  if (row.state === 'refused') return true;
  return row.state === 'in_progress' && row.request_hash === request.hash && row.created_at < times.abandonedBefore;
}

/**
 * What a row means to a request with its id. An `applied` POST without an answer is still
 * finishing within its lease; past it, its answer was lost.
 */
function classify(row: Row, request: RequestFingerprint, abandonedBefore: string): Earlier {
  if (!sameOperation(row, request)) return { kind: 'other-operation', method: row.method, path: row.path };
  if (row.request_hash !== request.hash) return { kind: 'conflict' };
  switch (row.state) {
    case 'seen':
    case 'refused':
      return { kind: 'repeat' };
    case 'completed':
      return row.response_status === null
        ? { kind: 'in-progress' }
        : {
            kind: 'replay',
            response: {
              status: row.response_status,
              headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
              body: row.response_body ?? '',
            },
          };
    case 'applied':
      return row.created_at >= abandonedBefore ? { kind: 'in-progress' } : { kind: 'applied' };
    case 'in_progress':
      return { kind: 'in-progress' };
  }
}

async function readRow(db: DbOrTx, key: IdempotencyKey): Promise<Row | undefined> {
  return db
    .selectFrom('idempotency_record')
    .select(['method', 'path', 'request_hash', 'state', 'response_status', 'response_headers', 'response_body', 'created_at', 'expires_at'])
    .where('tpp_id', '=', key.tppId)
    .where('request_id', '=', key.requestId)
    .executeTakeFirst();
}

/** Inserts a row unless the id is taken; the primary key decides between concurrent claims. */
async function insertRow(
  db: DbOrTx,
  key: IdempotencyKey,
  request: RequestFingerprint,
  state: RecordState,
  times: Pick<Lifetimes, 'at' | 'expiresAt'>,
): Promise<boolean> {
  const inserted = await INSERT_UNLESS_TAKEN.run(db, {
    tpp_id: key.tppId,
    request_id: key.requestId,
    method: request.method,
    path: request.path,
    request_hash: request.hash,
    state,
    created_at: times.at,
    expires_at: times.expiresAt,
  });
  return Number(inserted.numAffectedRows ?? 0n) === 1;
}
