/**
 * Concurrent postings on one account from two server processes on PostgreSQL never
 * lose an update. Two OS processes post 300 transfers each to the same account at the same time
 * (and repeat 100 of each other's keys, which must not apply twice); the balance is the exact sum.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { openTestDatabase, type TestDatabase } from '../support/databases.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('../support/ledger-worker.ts', import.meta.url));
const url = process.env['TEST_POSTGRES_URL'];

describe.skipIf(!url)('ledger under two processes (postgres)', () => {
  let database: TestDatabase;
  let schema: string;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    schema = (await sql<{ search_path: string }>`show search_path`.execute(database.db)).rows[0]!.search_path;
  });
  afterAll(() => database.dispose());

  it('sums every posting of both processes exactly once', async () => {
    const account = 'two-process-account';
    const spawn = (prefix: string, count: number) =>
      run(process.execPath, ['--import', 'tsx', worker, url!, schema, account, prefix, String(count)], { timeout: 60_000 });
    // Process A posts keys a-0..a-299, process B b-0..b-299, and a third wave repeats a-0..a-99.
    const results = await Promise.all([spawn('a', 300), spawn('b', 300), spawn('a', 100)]);
    expect(results.map((result) => result.stdout.trim())).toEqual(['done 300', 'done 300', 'done 100']);
    const balances = await createLedger(() => new Date()).balances(database.db, account, 'NOK');
    expect(balances.closingBooked).toBe(600n);
    const transactions = await sql<{ n: string }>`select cast(count(*) as text) as n from ledger_transaction`.execute(database.db);
    expect(transactions.rows[0]!.n).toBe('600');
  });
});
