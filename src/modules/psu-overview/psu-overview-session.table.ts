/** A browser's visit to the PSU's own page of consents and payments (migration 0021). */
export interface PsuOverviewSessionTable {
  /** Random; names the login to the bank's IdP (ExternalLoginStart.authorisationId). */
  id: string;
  /** SHA-256 (hex) of the session cookie's value; the value itself is never stored. */
  session_hash: string;
  /** The CSRF token every form of this browser's page carries. */
  csrf_token: string;
  /** The bank the PSU logs in to: the sandbox TPP whose mock bank it is, '' in production. */
  bank_scope: string;
  /** The PSU, once identified. */
  psu_id: string | null;
  /** When the PSU passed the one-time code or the IdP login; null until then. */
  authenticated_at: string | null;
  /** One-time codes (or IdP logins) checked in this visit; counted before each check. */
  code_attempts: number;
  created_at: string;
  expires_at: string;
}
