import type { ConsentKind } from './consent-access.js';
import type { ConsentStatus } from './consent-status.js';

/**
 * An account information consent (migration 0014). The enumerated columns carry their unions, so
 * Kysely checks every value written and compared; the repository still checks what it reads.
 */
export interface ConsentTable {
  id: string;
  tpp_id: string;
  /** Berlin Group consentStatus, consent-status.ts. */
  status: ConsentStatus;
  kind: ConsentKind;
  /** JSON: the access asked for, as consent-access.ts read it. */
  access: string;
  recurring: number | boolean;
  /** YYYY-MM-DD: the last day it may be used (capped at 180 days from its creation). */
  valid_until: string;
  frequency_per_day: number;
  /** The PSU who approved it, the first of two in a multi-level SCA (or the one the TPP named, until then). */
  psu_id: string | null;
  psu_corporate_id: string | null;
  /** JSON: the accounts the PSU granted and the access to each, once approved (consent-grant.ts). */
  granted: string | null;
  /** When the PSU approved it (its SCA). */
  approved_at: string | null;
  /** The TPP's bank date of its last change or use (Berlin Group lastActionDate). */
  last_action_date: string;
  request_id: string;
  /** JSON: redirect URIs and the other headers sent with the creation. */
  request_context: string;
  created_at: string;
  status_changed_at: string;
}
