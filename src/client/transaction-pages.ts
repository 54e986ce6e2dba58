import type { CallOptions, TppResponse } from './tpp-call.js';

/** One entry of a transaction report, with the list it came in. */
export interface ReportedTransaction {
  readonly status: 'booked' | 'pending' | 'information';
  /** The Berlin Group `transactions` (or `cardTransaction`) entry as the server sent it. */
  readonly transaction: Record<string, unknown>;
}

export interface TransactionPagesOptions {
  /** The consent the reads are made under (Consent-ID). */
  readonly consentId: string;
  /** The first page's query: bookingStatus, dateFrom, dateTo, limit… */
  readonly query?: Readonly<Record<string, string>>;
  /** Any other header, e.g. PSU-IP-Address when the PSU takes part. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A page that was not 200: the answer, to read its error body. */
export class TransactionPageError extends Error {
  constructor(readonly response: TppResponse<unknown>) {
    super(`transaction page answered ${response.status}: ${response.text}`);
    this.name = 'TransactionPageError';
  }
}

/** A report page as far as paging reads it. */
export interface ReportPage {
  readonly transactions?: Record<string, unknown>;
  readonly cardTransactions?: Record<string, unknown>;
}

type Get = (path: string, options: CallOptions) => Promise<TppResponse<ReportPage>>;

/**
 * Every entry of an account's (or card account's) transaction report, page after page: follows
 * each page's `next` link as given (it carries the filters, offset, limit and the list's snapshot,
 * so no entry repeats and none is skipped while transactions are booked). `accountPath` is
 * `/v1/accounts/{id}` or `/v1/card-accounts/{id}`.
 */
export async function* transactionPages(
  get: Get,
  accountPath: string,
  options: TransactionPagesOptions,
): AsyncGenerator<ReportedTransaction> {
  const headers = { ...options.headers, 'consent-id': options.consentId };
  const query = new URLSearchParams(options.query ?? {}).toString();
  let path: string | undefined = `${accountPath}/transactions${query ? `?${query}` : ''}`;
  while (path !== undefined) {
    const response = await get(path, { headers });
    if (response.status !== 200) throw new TransactionPageError(response);
    const report = response.body.transactions ?? response.body.cardTransactions;
    for (const status of ['booked', 'pending', 'information'] as const) {
      const entries = report?.[status];
      if (!Array.isArray(entries)) continue;
      for (const transaction of entries) yield { status, transaction: transaction as Record<string, unknown> };
    }
    const next = (report?._links as Record<string, { href?: string }> | undefined)?.next?.href;
    // The link is absolute at the server's public URL; this client may reach it elsewhere.
    path = next === undefined ? undefined : pathAndQuery(next);
  }
}

function pathAndQuery(href: string): string {
  const url = new URL(href, 'http://link.invalid');
  return `${url.pathname}${url.search}`;
}
