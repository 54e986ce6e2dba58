/**
 * A POST seen with a given X-Request-ID from a given TPP (DESIGN §2): a retry with the same body
 * gets the stored answer, a different body under the same id gets 409.
 */
export interface IdempotencyRecordTable {
  tpp_id: string;
  request_id: string;
  method: string;
  path: string;
  /** SHA-256 of method, path and body. */
  request_hash: string;
  /** in_progress | completed */
  state: string;
  response_status: number | null;
  /** JSON object of the headers to replay (Location, ASPSP-SCA-Approach, …). */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  completed_at: string | null;
}
