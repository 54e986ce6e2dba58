/**
 * The Berlin Group consentStatus of a consent (docs/design.md §2b): received → valid | rejected
 * (its SCA); valid → expired (validUntil passed, 180 days after its SCA, or a one-off consent used),
 * revokedByPsu, terminatedByTpp (DELETE, or a newer consent of the same TPP and PSU granting at
 * least as much, consent-supersession.ts). received → partiallyAuthorised → valid | rejected is the corporate multi-level SCA:
 * the bank wants a second approver of the agreement for an account granted (consent-joint-approval.ts).
 */
export const CONSENT_STATUSES = [
  'received',
  'partiallyAuthorised',
  'valid',
  'rejected',
  'expired',
  'revokedByPsu',
  'terminatedByTpp',
] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export function isConsentStatus(value: string): value is ConsentStatus {
  return (CONSENT_STATUSES as readonly string[]).includes(value);
}

/** Statuses a consent never leaves. */
export const FINAL_CONSENT_STATUSES: ReadonlySet<ConsentStatus> = new Set(['rejected', 'expired', 'revokedByPsu', 'terminatedByTpp']);

/** Waiting for the PSU's SCA. */
export function isAwaitingApproval(status: ConsentStatus): boolean {
  return status === 'received' || status === 'partiallyAuthorised';
}
