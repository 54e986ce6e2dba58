import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';

/**
 * What a transaction list was as of its first page, carried in every paging link as `snapshot`
 * (docs/design.md §2b): the bank's own mark (the port's `asOf`) and which of our payments were
 * pending then. Read as of it, the list keeps its order and length while transactions are booked,
 * so an offset names the same entry on every page: no repeats, no gaps.
 */
export interface TransactionSnapshot {
  /** The core-banking port's `asOf` of the first page; undefined when the bank gives none. */
  readonly bankAsOf: string | undefined;
  /**
   * Our approved payments from the account that were not executed yet (their pending lines);
   * undefined when there were too many to carry in a link: each page then reads them as of now.
   */
  readonly pendingPaymentIds: readonly string[] | undefined;
}

/** At most this many pending payments ride in a link (about 2 kB); a PSU with more gets them read on each page. */
const MAX_PENDING = 50;

export function encodeSnapshot(snapshot: TransactionSnapshot): string {
  const pending = snapshot.pendingPaymentIds;
  const carried = pending === undefined || pending.length > MAX_PENDING ? null : pending;
  return Buffer.from(JSON.stringify({ a: snapshot.bankAsOf, p: carried })).toString('base64url');
}

/** A snapshot from a paging link; anything else is 400 FORMAT_ERROR naming `snapshot`. */
export function decodeSnapshot(token: string): TransactionSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { a, p } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { a?: unknown; p?: unknown };
  const bankAsOfOk = a === undefined || (typeof a === 'string' && a.length <= 200);
  const pendingOk =
    p === null ||
    (Array.isArray(p) &&
      p.length <= MAX_PENDING &&
      p.every((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 100));
  if (!bankAsOfOk || !pendingOk) {
    throw new AppError('FORMAT_ERROR', {
      path: 'snapshot',
      detail: localized('is not a snapshot of a paging link', 'er ikke et øyeblikksbilde fra en sidelenke'),
    });
  }
  return { bankAsOf: a, pendingPaymentIds: p === null ? undefined : p };
}
