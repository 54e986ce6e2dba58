import { describe, expect, it } from 'vitest';
import type { TransactionPage } from '../../src/bank/core-banking.port.js';
import { transactionWindow } from '../../src/modules/accounts/transaction-window.js';

/** A bank of numbered entries that pages by cursor and reads as of a snapshot (entries up to `asOf`). */
function bank(entries: number[]) {
  const calls: { after?: string | undefined; asOf?: string | undefined; limit: number }[] = [];
  const read = async (page: { after?: string | undefined; asOf?: string | undefined; limit: number }): Promise<TransactionPage<number>> => {
    calls.push(page);
    const asOf = page.asOf === undefined ? Math.max(0, ...entries) : Number(page.asOf);
    const visible = entries.filter((entry) => entry <= asOf);
    const start = page.after === undefined ? 0 : Number(page.after);
    const slice = visible.slice(start, start + page.limit);
    return { transactions: slice, next: start + page.limit < visible.length ? String(start + page.limit) : undefined, asOf: String(asOf) };
  };
  return { read, calls };
}

describe('an offset window over a bank that pages by cursor', () => {
  it('puts our own lines first, then walks the bank to the offset, counting all', async () => {
    const entries = Array.from({ length: 2500 }, (_, index) => index + 1);
    const { read, calls } = bank(entries);
    const window = await transactionWindow(read, { bankAsOf: undefined, offset: 1999, limit: 3 }, async () => [-1, -2]);
    expect(window).toEqual({ entries: [1998, 1999, 2000], total: 2502, bankAsOf: '2500' });
    expect(calls.map((call) => call.after)).toEqual([undefined, '1000', '2000']);
    expect(calls.slice(1).every((call) => call.asOf === '2500')).toBe(true);
  });

  it('reads as of the snapshot given: entries arriving later shift nothing', async () => {
    const entries = [1, 2, 3, 4, 5];
    const { read } = bank(entries);
    entries.push(6, 7);
    const window = await transactionWindow(read, { bankAsOf: '5', offset: 3, limit: 10 }, async () => []);
    expect(window).toEqual({ entries: [4, 5], total: 5, bankAsOf: '5' });
  });

  it('serves a window inside our own lines, and one past the end empty', async () => {
    const { read } = bank([1, 2]);
    expect((await transactionWindow(read, { bankAsOf: undefined, offset: 1, limit: 2 }, async () => [-1, -2, -3])).entries).toEqual([
      -2, -3,
    ]);
    expect(await transactionWindow(read, { bankAsOf: undefined, offset: 10, limit: 2 }, async () => [])).toMatchObject({
      entries: [],
      total: 2,
    });
  });

  it('with a bank that counts, reads only up to the page asked for and takes the total from the count', async () => {
    const entries = Array.from({ length: 10_000 }, (_, index) => index + 1);
    const { read, calls } = bank(entries);
    const counts: (string | undefined)[] = [];
    const count = async (asOf: string | undefined) => {
      counts.push(asOf);
      return entries.filter((entry) => entry <= Number(asOf)).length;
    };
    const first = await transactionWindow(read, { bankAsOf: undefined, offset: 0, limit: 200 }, async () => [-1], count);
    expect(first).toMatchObject({ total: 10_001, bankAsOf: '10000' });
    expect(first.entries).toEqual([-1, ...entries.slice(0, 199)]);
    expect(calls.map((call) => call.limit)).toEqual([200]);
    expect(counts).toEqual(['10000']);

    calls.length = 0;
    const deeper = await transactionWindow(read, { bankAsOf: '10000', offset: 1500, limit: 200 }, async () => [], count);
    expect(deeper.entries).toEqual(entries.slice(1500, 1700));
    expect(deeper.total).toBe(10_000);
    // Walked to the end of the page asked for, not to the end of the list.
    expect(calls.map((call) => call.limit)).toEqual([1000, 700]);
  });
});
