import type { TransactionPage } from '../../bank/core-banking.port.js';

/** How many entries one bank call reads while walking a list to an offset (the port's largest page). */
export const WALK_PAGE_SIZE = 1000;

export interface TransactionWindow<T> {
  /** The entries from `offset`, at most `limit` of them. */
  readonly entries: T[];
  /** How many entries the whole list has. */
  readonly total: number;
  /** The bank's mark the list was read as of (the port's `asOf`), to carry in the links. */
  readonly bankAsOf: string | undefined;
}

/**
 * Maps an offset onto a bank that pages by cursor (docs/design.md §2b): the list is `leading` (our
 * own lines the bank does not have yet) followed by the bank's list read as of `bankAsOf` (as of
 * the first call when undefined), walked by its cursor from the start, keeping the entries from
 * `offset`. As of one snapshot, the same offset is the same entry on every call. `leading` is
 * asked for after the first bank call, so whatever the bank's snapshot already holds as booked
 * cannot also be among them. The total, for the `last` link, comes from `countBank` when the bank
 * can count (the walk then stops at the page asked for), else from walking the list to its end.
 */
export async function transactionWindow<T>(
  readBank: (page: {
    readonly after?: string | undefined;
    readonly asOf?: string | undefined;
    readonly limit: number;
  }) => Promise<TransactionPage<T>>,
  options: { readonly bankAsOf: string | undefined; readonly offset: number; readonly limit: number },
  leading: () => Promise<readonly T[]>,
  countBank?: (asOf: string | undefined) => Promise<number>,
): Promise<TransactionWindow<T>> {
  const end = options.offset + options.limit;
  // Counting, the walk needs no more than `end` entries in all; the first call cannot know how
  // many of them are our own lines yet, so it asks for up to `end`.
  const pageSize = (walked: number) => (countBank === undefined ? WALK_PAGE_SIZE : Math.max(1, Math.min(WALK_PAGE_SIZE, end - walked)));
  let page = await readBank({ asOf: options.bankAsOf, limit: pageSize(0) });
  const bankAsOf = options.bankAsOf ?? page.asOf;
  const own = await leading();
  const counted = countBank === undefined ? undefined : await countBank(bankAsOf);
  const entries = own.slice(options.offset, end);
  let index = own.length;
  for (;;) {
    for (const entry of page.transactions) {
      if (index >= options.offset && index < end) entries.push(entry);
      index += 1;
    }
    if (page.next === undefined || page.transactions.length === 0) break;
    if (counted !== undefined && index >= end) break;
    page = await readBank({ after: page.next, asOf: bankAsOf, limit: pageSize(index) });
  }
  return { entries, total: counted === undefined ? index : own.length + counted, bankAsOf };
}
