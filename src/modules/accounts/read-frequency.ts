/*
 * The frequencyPerDay rule for reads without the PSU present (docs/design.md §2b): at most `limit`
 * reads of one kind of one account under one consent in any 24 hours (rolling, by the bank clock),
 * and the IETF httpapi rate-limit fields that tell the TPP where it stands. Pure.
 */

export const READ_WINDOW_SECONDS = 24 * 60 * 60;
const WINDOW_MS = READ_WINDOW_SECONDS * 1000;

/** Where the TPP stands after (or instead of) a read. */
export interface ReadAllowance {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until one more read is allowed again (the oldest counted read leaves the window). */
  readonly resetSeconds: number;
}

export type ReadDecision =
  | { readonly allowed: true; readonly readTimes: readonly string[]; readonly allowance: ReadAllowance }
  | { readonly allowed: false; readonly nextReadAt: Date; readonly allowance: ReadAllowance };

/**
 * Whether one more read is allowed now, given the times of the earlier reads (ISO), and if so the
 * times to keep: the newest `limit` of those still in the window, this one included.
 */
export function decideRead(earlier: readonly string[], now: Date, limit: number): ReadDecision {
  const since = now.getTime() - WINDOW_MS;
  const recent = earlier
    .map((time) => Date.parse(time))
    .filter((time) => Number.isFinite(time) && time > since)
    .sort((a, b) => a - b);
  const secondsUntil = (time: number) => Math.max(1, Math.ceil((time - now.getTime()) / 1000));
  if (recent.length >= limit) {
    const nextReadAt = new Date(recent[recent.length - limit]! + WINDOW_MS);
    return { allowed: false, nextReadAt, allowance: { limit, remaining: 0, resetSeconds: secondsUntil(nextReadAt.getTime()) } };
  }
  const kept = [...recent, now.getTime()].slice(-limit);
  return {
    allowed: true,
    readTimes: kept.map((time) => new Date(time).toISOString()),
    allowance: { limit, remaining: limit - kept.length, resetSeconds: secondsUntil(kept[0]! + WINDOW_MS) },
  };
}

/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers (the `limit, remaining, reset`
 * form): the policy (so many per 24 hours) and where this consent, account and kind stand.
 */
export function rateLimitHeaders(allowance: ReadAllowance): Record<string, string> {
  return {
    'ratelimit-policy': `${allowance.limit};w=${READ_WINDOW_SECONDS}`,
    ratelimit: `limit=${allowance.limit}, remaining=${allowance.remaining}, reset=${allowance.resetSeconds}`,
  };
}

/**
 * The one allowance that speaks for a read counted against several quotas (the details and
 * balances of an account, or of every account of a list), all with the same limit: the fewest
 * remaining, since the read can be repeated only that many times, and among those the latest
 * reset, since the read is allowed once more only when each of them has a slot again. A refused
 * read's allowances are those refused (remaining 0): the reset is when all of them allow again.
 */
export function mostConstrained(allowances: readonly [ReadAllowance, ...ReadAllowance[]]): ReadAllowance {
  return allowances.reduce((worst, allowance) =>
    allowance.remaining < worst.remaining || (allowance.remaining === worst.remaining && allowance.resetSeconds > worst.resetSeconds)
      ? allowance
      : worst,
  );
}
