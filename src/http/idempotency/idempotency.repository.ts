import type { DbOrTx } from '../../db/create-db.js';

export interface IdempotencyKey {
  readonly tppId: string;
  readonly requestId: string;
}

export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type Reservation =
  | { readonly kind: 'reserved' }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  | { readonly kind: 'conflict' }
  | { readonly kind: 'in-progress' };

/** The only place that queries idempotency_record. */
export const idempotencyRepository = {
  /**
   * Claims an X-Request-ID for a request. The primary key makes the claim atomic: of two
   * concurrent identical POSTs one is reserved and the other told it is in progress.
   */
  async reserve(
    db: DbOrTx,
    key: IdempotencyKey,
    request: { method: string; path: string; hash: string },
    at: string,
  ): Promise<Reservation> {
    if (await insertClaim(db, key, request, 'in_progress', at)) {
      return { kind: 'reserved' };
    }
    // Released between our insert and our read: the earlier request failed; this one may run.
    return (await this.peek(db, key, request.hash)) ?? this.reserve(db, key, request, at);
  },

  /**
   * What is stored under an id, without claiming it: the answer to replay, a conflict, or nothing
   * yet. Services that record their answer in their own transaction ({@link recordCompleted}) look
   * here first, so a retry is answered before it is validated again.
   */
  async peek(db: DbOrTx, key: IdempotencyKey, hash: string): Promise<Reservation | undefined> {
    const existing = await db
      .selectFrom('idempotency_record')
      .select(['request_hash', 'state', 'response_status', 'response_headers', 'response_body'])
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .executeTakeFirst();
    if (!existing) return undefined;
    if (existing.request_hash !== hash) return { kind: 'conflict' };
    if (existing.state !== 'completed' || existing.response_status === null) return { kind: 'in-progress' };
    return {
      kind: 'replay',
      response: {
        status: existing.response_status,
        headers: JSON.parse(existing.response_headers ?? '{}') as Record<string, string>,
        body: existing.response_body ?? '',
      },
    };
  },

  /**
   * Records a request and its answer at once, in the caller's transaction with the change it made,
   * so the answer cannot be lost between the two (a crash leaves neither). False when the id was
   * taken meanwhile: the caller rolls back and answers what {@link peek} finds.
   */
  async recordCompleted(
    trx: DbOrTx,
    key: IdempotencyKey,
    request: { method: string; path: string; hash: string },
    response: StoredResponse,
    at: string,
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('idempotency_record')
      .values({
        tpp_id: key.tppId,
        request_id: key.requestId,
        method: request.method,
        path: request.path,
        request_hash: request.hash,
        state: 'completed',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
        created_at: at,
        completed_at: at,
      })
      .onConflict((oc) => oc.columns(['tpp_id', 'request_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  async complete(db: DbOrTx, key: IdempotencyKey, response: StoredResponse, at: string): Promise<void> {
    await db
      .updateTable('idempotency_record')
      .set({
        state: 'completed',
        response_status: response.status,
        response_headers: JSON.stringify(response.headers),
        response_body: response.body,
        completed_at: at,
      })
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('state', '=', 'in_progress')
      .execute();
  },

  /** Forgets a claim whose request was refused or failed, so a corrected retry may use the id. */
  async release(db: DbOrTx, key: IdempotencyKey): Promise<void> {
    await db
      .deleteFrom('idempotency_record')
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .where('state', 'in', ['in_progress', 'seen'])
      .execute();
  },

  /**
   * Records the X-Request-ID of an idempotent request (PUT, PATCH, DELETE) in one write. The same
   * request again may simply run again; the id with another request is a conflict.
   */
  async markSeen(
    db: DbOrTx,
    key: IdempotencyKey,
    request: { method: string; path: string; hash: string },
    at: string,
  ): Promise<'new' | 'repeat' | 'conflict'> {
    if (await insertClaim(db, key, request, 'seen', at)) {
      return 'new';
    }
    const existing = await db
      .selectFrom('idempotency_record')
      .select('request_hash')
      .where('tpp_id', '=', key.tppId)
      .where('request_id', '=', key.requestId)
      .executeTakeFirst();
    return existing?.request_hash === request.hash ? 'repeat' : 'conflict';
  },
};

/** Inserts a claim unless the id is taken; the primary key decides between concurrent claims. */
async function insertClaim(
  db: DbOrTx,
  key: IdempotencyKey,
  request: { method: string; path: string; hash: string },
  state: 'in_progress' | 'seen',
  at: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_record')
    .values({
      tpp_id: key.tppId,
      request_id: key.requestId,
      method: request.method,
      path: request.path,
      request_hash: request.hash,
      state,
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['tpp_id', 'request_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}
