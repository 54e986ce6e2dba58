import type { TransactionPage, TransactionQuery } from './core-banking.port.js';

/**
 * Keyset paging of transactions held in memory, for adapters whose core answers whole lists
 * (the sandbox's card transactions, the contract suite's in-memory bank). Pure.
 *
 * Order: date descending, then id descending. A page's `next` names its last entry, and the next
 * page starts after that entry in this order, so entries arriving meanwhile never repeat one and
 * never push one out of sight.
 */
export interface PagingKey {
  /** YYYY-MM-DD */
  readonly date: string;
  readonly id: string;
}

export function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => PagingKey,
  query: Pick<TransactionQuery, 'after' | 'limit'>,
): TransactionPage<T> {
  const after = query.after === undefined ? undefined : decodeCursor(query.after);
  const sorted = [...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const rest = after === undefined ? sorted : sorted.filter((item) => compareKeys(keyOf(item), after) > 0);
  const page = rest.slice(0, Math.max(1, query.limit));
  const last = page.at(-1);
  return { transactions: page, next: rest.length > page.length && last !== undefined ? encodeCursor(keyOf(last)) : undefined };
}

/** Negative when `a` comes first: the later date first, then the greater id. */
export function compareKeys(a: PagingKey, b: PagingKey): number {
  if (a.date !== b.date) return a.date > b.date ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

export function encodeCursor(key: PagingKey): string {
  return Buffer.from(JSON.stringify([key.date, key.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PagingKey {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { date: parsed[0], id: parsed[1] };
    }
  } catch {
    // Falls through to the error below.
  }
  throw new Error(`not a page cursor of this bank: ${cursor}`);
}

/** Whether a transaction of `status` dated `date` is asked for by the query's status and dates. */
export function matches(query: TransactionQuery, status: 'booked' | 'pending', date: string): boolean {
  if (query.bookingStatus !== 'both' && query.bookingStatus !== status) return false;
  if (query.dateFrom !== undefined && date < query.dateFrom) return false;
  return query.dateTo === undefined || date <= query.dateTo;
}
