import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { openSealed, sealValue } from '../../security/sealed-value.js';

/**
 * What a transaction list was as of its first page, carried in every paging link as `snapshot`
 * (docs/design.md §2b): the bank's own mark (the port's `asOf`) and which of our payments were
 * pending then. Read as of it, the list keeps its order and length while transactions are booked,
 * so an offset names the same entry on every page: no repeats, no gaps.
 *
 * The TPP gets it back only as the server issued it, and cannot read it: the value is sealed
 * (AES-256-GCM, security/sealed-value.ts) under a server secret and the list it belongs to (TPP
 * and account). Sealed against change because it decides what the list shows: its pending ids
 * appear as pending lines whatever those payments' status now, so a made-up one could show
 * payments never approved, or cancelled, and a made-up mark could hide bookings. Sealed against
 * reading because the mark is the bank's, not the account's: the sandbox's is its newest posting
 * of any account, so two lists read apart would tell a TPP how much the whole bank booked between.
 */
export interface TransactionSnapshot {
  /** The core-banking port's `asOf` of the first page; undefined when the bank gives none. */
  readonly bankAsOf: string | undefined;
  /**
   * Our approved payments from the account that were not executed yet (their pending lines);
   * undefined when there were too many to carry in a link: each page then reads them as of now.
   */
  readonly pendingPaymentIds: readonly string[] | undefined;
  /** When the first page was read (the bank clock, ISO 8601): the links hold for {@link SNAPSHOT_LIFETIME_HOURS} after. */
  readonly takenAt: string;
}

/**
 * How long the links of a list hold: long enough to page through it at leisure, short enough that
 * a link kept for later does not show, as pending, payments executed or cancelled long since.
 */
export const SNAPSHOT_LIFETIME_HOURS = 24;

/**
 * At most this many pending payments ride in a link (50 payment ids make a snapshot of about 2.7
 * kB, within the 4000 characters the query takes); a PSU with more gets them read on each page.
 */
const MAX_PENDING = 50;

/**
 * Room for the bank's mark in every snapshot: a shorter mark is padded to it, so that a snapshot's
 * length does not tell how far the bank's counter has come (the sandbox's, a posting id or a
 * time, fits).
 */
const MARK_ROOM = 32;

/** What a snapshot is sealed under: the server's secret, and the list it is of (so it opens for that list only). */
export interface SnapshotSeal {
  readonly secret: Buffer;
  /** The list: the TPP and the account (as the TPP names it) and its type. */
  readonly list: string;
}

const PURPOSE = 'transaction-snapshot';

export function encodeSnapshot(snapshot: TransactionSnapshot, seal: SnapshotSeal): string {
  const pending = snapshot.pendingPaymentIds;
  const carried = pending === undefined || pending.length > MAX_PENDING ? null : pending;
  const contents = JSON.stringify({ a: snapshot.bankAsOf, p: carried, t: snapshot.takenAt });
  // The mark's shortfall from its room as trailing blanks, which JSON reads past.
  const padded = contents + ' '.repeat(Math.max(0, MARK_ROOM - JSON.stringify(snapshot.bankAsOf ?? '').length));
  return sealValue(seal.secret, PURPOSE, seal.list, Buffer.from(padded));
}

/**
 * A snapshot from a paging link of this list, read at `now` (the bank clock); anything else (a
 * value that does not open under this list's seal included), or a link past its lifetime, is 400
 * FORMAT_ERROR naming `snapshot`.
 */
export function decodeSnapshot(token: string, seal: SnapshotSeal, now: Date): TransactionSnapshot {
  const plaintext = openSealed(seal.secret, PURPOSE, seal.list, token);
  let parsed: unknown;
  if (plaintext !== undefined) {
    try {
      parsed = JSON.parse(plaintext.toString('utf8'));
    } catch {
      parsed = undefined;
    }
  }
  const { a, p, t } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { a?: unknown; p?: unknown; t?: unknown };
  const bankAsOfOk = a === undefined || (typeof a === 'string' && a.length <= 200);
  const pendingOk =
    p === null ||
    (Array.isArray(p) &&
      p.length <= MAX_PENDING &&
      p.every((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 100));
  const takenAt = typeof t === 'string' ? Date.parse(t) : Number.NaN;
  if (!bankAsOfOk || !pendingOk || Number.isNaN(takenAt)) {
    throw new AppError('FORMAT_ERROR', {
      path: 'snapshot',
      detail: localized('is not a snapshot of a paging link of this list', 'er ikke et øyeblikksbilde fra en sidelenke til denne listen'),
    });
  }
  if (now.getTime() - takenAt > SNAPSHOT_LIFETIME_HOURS * 3_600_000) {
    throw new AppError('FORMAT_ERROR', {
      path: 'snapshot',
      detail: localized(
        `is from paging links more than ${SNAPSHOT_LIFETIME_HOURS} hours old (first page read at ${t as string}): read the list again from its first page`,
        `er fra sidelenker mer enn ${SNAPSHOT_LIFETIME_HOURS} timer gamle (første side lest ${t as string}): les listen på nytt fra første side`,
      ),
    });
  }
  return { bankAsOf: a, pendingPaymentIds: p === null ? undefined : p, takenAt: t as string };
}
