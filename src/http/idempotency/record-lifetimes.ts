/**
 * How long an X-Request-ID stays recorded (docs/design.md §2, §5), in one place.
 *
 * - A request's id must outlive every chance of replaying its signature: a Date is accepted
 *   within `skew` of the server's clock, so a captured request can be sent again until
 *   2 × skew after it first arrived. A minute more covers clocks of several instances.
 * - A POST's stored answer is kept three days (longer than any replay window the skew setting
 *   allows), for TPPs that retry after an outage with a fresh Date.
 * - A POST still running after its lease (XS2A_REQUEST_LEASE_SECONDS, two minutes) was abandoned
 *   (its server stopped): a retry takes over.
 */
export const ANSWER_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;

export interface RecordLifetimes {
  /** When a row written now for a request without a stored answer may be purged. */
  replayWindowEnd(now: Date): string;
  /** When a stored answer written now may be purged. */
  answerRetentionEnd(now: Date): string;
  /** A POST's claim created before this was abandoned. */
  abandonedBefore(now: Date): string;
}

export function recordLifetimes(maxClockSkewSeconds: number, leaseSeconds: number): RecordLifetimes {
  const windowMs = (2 * maxClockSkewSeconds + 60) * 1000;
  const leaseMs = leaseSeconds * 1000;
  return {
    // A running POST's claim must outlive its lease, or a purge would free it while it runs.
    replayWindowEnd: (now) => new Date(now.getTime() + Math.max(windowMs, 2 * leaseMs)).toISOString(),
    answerRetentionEnd: (now) => new Date(now.getTime() + Math.max(windowMs, ANSWER_RETENTION_MS)).toISOString(),
    abandonedBefore: (now) => new Date(now.getTime() - leaseMs).toISOString(),
  };
}
