/** The browser an authorisation's pages belong to: the first that opened its link (migration 0010). */
export interface ScaBrowserSessionTable {
  authorisation_id: string;
  /** SHA-256 (hex) of the session cookie's value; the value itself is never stored. */
  session_hash: string;
  /** The CSRF token every form of this browser's pages carries. */
  csrf_token: string;
  created_at: string;
}
