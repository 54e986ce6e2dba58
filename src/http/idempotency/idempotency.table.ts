/**
 * Every signed request's X-Request-ID, per TPP (docs/design.md §2 idempotency, §5 replay): what it was
 * used for (method, path, fingerprint) and, for a POST, its stored answer. The same id again is
 * a retry of that request or refused; rows leave at `expires_at`.
 */
export interface IdempotencyRecordTable {
  tpp_id: string;
  request_id: string;
  method: string;
  /** The path without its query and without a trailing slash. */
  path: string;
  /** SHA-256 of method, path, query, the headers that change the outcome and the body. */
  request_hash: string;
  /** See {@link RecordState}. */
  state: RecordState;
  response_status: number | null;
  /** JSON object of the headers to replay (Location, ASPSP-SCA-Approach, …). */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  completed_at: string | null;
  /** When the row may be purged: the replay window, or the retention of a stored answer. */
  expires_at: string;
}

/**
 * - `seen`: a GET, PUT, PATCH or DELETE; the identical request may run again.
 * - `in_progress`: a POST is running; a retry waits, or takes over once the claim's lease ran out.
 * - `applied`: the POST's effect committed (marked in the same transaction), its answer not yet stored.
 * - `completed`: the POST's answer is stored and replayed to identical retries.
 * - `refused`: the request got an error; the id stays bound to its method and path, and a
 *   corrected request to the same operation may use it.
 */
export type RecordState = 'seen' | 'in_progress' | 'applied' | 'completed' | 'refused';
