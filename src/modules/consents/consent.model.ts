import type { RequestedAccess } from './consent-access.js';
import type { Grant } from './consent-grant.js';
import type { ConsentStatus } from './consent-status.js';
import type { StoredRequestContext } from '../../http/headers/request-headers.js';

/** An account information consent as stored: what the TPP asked, what the PSU granted, where it stands. */
export interface Consent {
  readonly id: string;
  readonly tppId: string;
  readonly status: ConsentStatus;
  readonly access: RequestedAccess;
  readonly recurring: boolean;
  readonly validUntil: string;
  readonly frequencyPerDay: number;
  readonly psuId: string | undefined;
  readonly psuCorporateId: string | undefined;
  readonly grant: Grant | undefined;
  readonly approvedAt: string | undefined;
  readonly lastActionDate: string;
  readonly requestId: string;
  readonly requestContext: StoredRequestContext;
  readonly createdAt: string;
  readonly statusChangedAt: string;
}

export type NewConsent = Omit<Consent, 'status' | 'grant' | 'approvedAt' | 'statusChangedAt'>;
