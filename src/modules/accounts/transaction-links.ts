import type { TransactionListQuery } from './transaction-query.js';

/**
 * The paging links of a transaction report (docs/design.md §2b): self, first, previous, next and
 * last, each with every filter and an explicit offset and limit (limit=200 when the request named
 * none), and the list's snapshot, so a link works as given. Pure.
 */
export function pagingLinks(
  transactionsHref: string,
  query: TransactionListQuery,
  total: number,
  snapshot: string | undefined,
): Record<string, { href: string }> {
  const at = (offset: number) => {
    const params = new URLSearchParams({ bookingStatus: query.bookingStatus, dateFrom: query.dateFrom });
    if (query.dateTo !== undefined) params.set('dateTo', query.dateTo);
    params.set('offset', String(offset));
    params.set('limit', String(query.limit));
    if (snapshot !== undefined) params.set('snapshot', snapshot);
    return { href: `${transactionsHref}?${params.toString()}` };
  };
  const { offset, limit } = query;
  const last = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  return {
    self: at(offset),
    first: at(0),
    ...(offset > 0 ? { previous: at(Math.max(0, Math.min(offset, total) - limit)) } : {}),
    ...(offset + limit < total ? { next: at(offset + limit) } : {}),
    last: at(last),
  };
}
