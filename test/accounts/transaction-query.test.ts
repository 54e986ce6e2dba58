import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { readTransactionQuery } from '../../src/modules/accounts/transaction-query.js';
import { pagingLinks } from '../../src/modules/accounts/transaction-links.js';

function refusal(run: () => unknown): { code: string; path: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, path: error.path };
    throw error;
  }
  throw new Error('not refused');
}

describe('the transaction list query', () => {
  it('has defaults: both, 90 days back from the bank day, offset 0, limit 200', () => {
    expect(readTransactionQuery({}, '2026-05-31')).toEqual({
      bookingStatus: 'both',
      dateFrom: '2026-03-02',
      dateTo: undefined,
      offset: 0,
      limit: 200,
      snapshot: undefined,
    });
  });

  it('matches the booking status in any case, and ignores withBalance and a deltaList of false', () => {
    const query = readTransactionQuery(
      { bookingStatus: 'Booked', dateFrom: '2026-01-01', limit: '1000', withBalance: true, deltaList: false },
      '2026-05-31',
    );
    expect(query).toMatchObject({ bookingStatus: 'booked', dateFrom: '2026-01-01', limit: 1000 });
  });

  it.each([
    [{ limit: '1001' }, 'FORMAT_ERROR', 'limit'],
    [{ limit: '1.5' }, 'FORMAT_ERROR', 'limit'],
    [{ offset: '-1' }, 'FORMAT_ERROR', 'offset'],
    [{ dateTo: '2026-13-01' }, 'FORMAT_ERROR', 'dateTo'],
    [{ dateFrom: '2026-05-02', dateTo: '2026-05-01' }, 'PERIOD_INVALID', 'dateFrom'],
    [{ dateTo: '2026-03-01' }, 'PERIOD_INVALID', 'dateTo'],
    [{ snapshot: 'not/base64url' }, 'FORMAT_ERROR', 'snapshot'],
    [{ entryReferenceFrom: 'tx-1' }, 'PARAMETER_NOT_SUPPORTED', 'entryReferenceFrom'],
    [{ deltaList: true }, 'PARAMETER_NOT_SUPPORTED', 'deltaList'],
    [{ pageIndex: '2' }, 'PARAMETER_NOT_SUPPORTED', 'pageIndex'],
    [{ itemsPerPage: '50' }, 'PARAMETER_NOT_SUPPORTED', 'itemsPerPage'],
    [{ bookingStatus: 'all' }, 'PARAMETER_NOT_SUPPORTED', 'bookingStatus'],
    [{ bookingStatus: 'ALL' }, 'PARAMETER_NOT_SUPPORTED', 'bookingStatus'],
    [{ bookingStatus: 'everything' }, 'FORMAT_ERROR', 'bookingStatus'],
  ])('refuses %j: %s at %s', (raw, code, path) => {
    expect(refusal(() => readTransactionQuery(raw, '2026-05-31'))).toEqual({ code, path });
  });
});

describe('the paging links', () => {
  const query = readTransactionQuery({ offset: '200', limit: '100' }, '2026-05-31');
  const params = (href: string) => Object.fromEntries(new URL(href).searchParams);

  it('carry every filter, the offset and limit, and the snapshot', () => {
    const links = pagingLinks('https://bank.example/v1/accounts/a/transactions', query, 450, 'snap');
    expect(params(links.self!.href)).toEqual({
      bookingStatus: 'both',
      dateFrom: '2026-03-02',
      offset: '200',
      limit: '100',
      snapshot: 'snap',
    });
    expect(params(links.first!.href)).toMatchObject({ offset: '0' });
    expect(params(links.previous!.href)).toMatchObject({ offset: '100' });
    expect(params(links.next!.href)).toMatchObject({ offset: '300' });
    expect(params(links.last!.href)).toMatchObject({ offset: '400' });
  });

  it('leave out next on the last page and previous on the first; an empty list is its own first and last page', () => {
    const last = pagingLinks('https://bank.example/t', query, 300, undefined);
    expect(last.next).toBeUndefined();
    expect(params(last.last!.href)).toMatchObject({ offset: '200' });
    const empty = pagingLinks('https://bank.example/t', readTransactionQuery({}, '2026-05-31'), 0, undefined);
    expect(Object.keys(empty)).toEqual(['self', 'first', 'last']);
    expect(params(empty.last!.href)).toMatchObject({ offset: '0', limit: '200' });
  });
});
