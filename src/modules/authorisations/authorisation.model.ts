import type { TppIdentity } from '../../security/tpp-identity.js';
import type { ScaStatus } from './sca-status.js';

/**
 * What an authorisation authorises: a payment, a payment's cancellation, a signing basket's
 * payments, an account information consent, or a PSU's login (the 401 pre-step).
 */
export type AuthorisationPurpose = 'payment' | 'payment-cancellation' | 'signing-basket' | 'consent' | 'psu-login';

export interface Authorisation {
  readonly id: string;
  readonly tppId: string;
  readonly tppName: string;
  readonly purpose: AuthorisationPurpose;
  readonly resourceId: string | undefined;
  readonly scaStatus: ScaStatus;
  readonly statusReason: string | undefined;
  readonly expectedPsuId: string | undefined;
  readonly psuCorporateId: string | undefined;
  readonly psuId: string | undefined;
  /** One-time codes checked so far (counted before each check); at most three are checked. */
  readonly codeAttempts: number;
  readonly redirectUri: string | undefined;
  readonly nokRedirectUri: string | undefined;
  readonly biometric: boolean;
  readonly loginCodeHash: string | undefined;
  readonly loginCodeExpiresAt: string | undefined;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly statusChangedAt: string;
}

export type NewAuthorisation = Omit<
  Authorisation,
  'scaStatus' | 'statusReason' | 'psuId' | 'codeAttempts' | 'loginCodeHash' | 'loginCodeExpiresAt' | 'statusChangedAt'
>;

/** Who asks for an authorisation and where the PSU goes afterwards (from the TPP's request headers). */
export interface AuthorisationRequest {
  readonly tpp: Pick<TppIdentity, 'id' | 'name'>;
  readonly purpose: AuthorisationPurpose;
  readonly resourceId?: string | undefined;
  /** The PSU the TPP named: only this PSU may complete it. */
  readonly expectedPsuId?: string | undefined;
  readonly psuCorporateId?: string | undefined;
  readonly redirectUri?: string | undefined;
  readonly nokRedirectUri?: string | undefined;
  readonly biometric: boolean;
}
