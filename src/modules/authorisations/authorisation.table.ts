import type { AuthorisationPurpose } from './authorisation.model.js';
import type { ScaStatus } from './sca-status.js';

/**
 * An SCA by redirect: a payment's authorisation or cancellation authorisation, or a PSU login
 * (migration 0005). The enumerated columns carry their unions, so Kysely checks the values
 * written and compared at compile time.
 */
export interface AuthorisationTable {
  id: string;
  tpp_id: string;
  /** The TPP's name from its certificate, shown to the PSU. */
  tpp_name: string;
  purpose: AuthorisationPurpose;
  /** The payment or signing basket it authorises; null for a PSU login. */
  resource_id: string | null;
  /** Berlin Group scaStatus (received, psuIdentified, …, finalised, failed), sca-status.ts. */
  sca_status: ScaStatus;
  /** Why it failed, in words shown to the PSU and the TPP (psuMessage). */
  status_reason: string | null;
  /** The PSU the TPP named (PSU-ID or PSU token); another PSU may not complete it. */
  expected_psu_id: string | null;
  psu_corporate_id: string | null;
  /** The PSU who identified on the page. */
  psu_id: string | null;
  /** One-time codes checked so far (counted before each check); a third wrong one fails the authorisation. */
  code_attempts: number | string;
  redirect_uri: string | null;
  nok_redirect_uri: string | null;
  /** Biometric-Authentication: may the page offer the app shortcut on a mobile device. */
  biometric: number | boolean;
  /** PSU login: SHA-256 of the one-time code handed to the TPP for POST /v1/token. */
  login_code_hash: string | null;
  login_code_expires_at: string | null;
  expires_at: string;
  created_at: string;
  status_changed_at: string;
}
