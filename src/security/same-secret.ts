import { timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is `expected` (a MAC, a token, a hash of one), in a time that does not tell how
 * much of it matched: a comparison that stops at the first difference lets a caller guess a
 * secret one character at a time. Only the length may show.
 */
export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
