/**
 * SQLite's log checkpointed on a thread of its own (src/db/wal-checkpointer.ts), as the server
 * opens its database:
 * - what the serving connection commits reaches the database file without any commit of its own
 *   checkpointing (the log stays below the 1 000 pages at which SQLite's own checkpoint would run);
 * - without the thread, the same writes stay in the log: the first test's growth is the thread's;
 * - closing stops the thread and the connection; nothing committed is lost, and the log is gone;
 * - a thread that cannot start says why and that it stopped, and closing it still returns.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, withTransaction, type DatabaseHandle } from '../../src/db/create-db.js';
import { startWalCheckpointer } from '../../src/db/wal-checkpointer.js';

/**
 * About 550 pages of the log (a row takes three pages, and each commit rewrites the first page and
 * the table's): well under SQLite's own checkpoint threshold of 1 000.
 */
const ROWS = 120;
const ROW_BYTES = 10_000;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function databasePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-checkpoint-'));
  dirs.push(dir);
  return join(dir, 'test.db');
}

async function writeRows(handle: DatabaseHandle): Promise<void> {
  await sql`create table filler (id integer primary key, body blob not null)`.execute(handle.db);
  for (let i = 0; i < ROWS; i++) {
    await withTransaction(handle.db, (trx) => sql`insert into filler (body) values (${Buffer.alloc(ROW_BYTES, i % 251)})`.execute(trx));
  }
}

/** Waits up to `ms` for the database file to hold at least `bytes`; its size then. */
async function fileSizeReaching(path: string, bytes: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  for (;;) {
    const size = statSync(path).size;
    if (size >= bytes || Date.now() > until) return size;
    await sleep(50);
  }
}

describe('the log checkpointed in the background (SQLite)', () => {
  it('copies committed pages into the database file while the serving connection only commits', async () => {
    const path = databasePath();
    const errors: string[] = [];
    const handle = createDatabase({ dialect: 'sqlite', path }, { checkpointInBackground: { onError: (message) => errors.push(message) } });
    try {
      await writeRows(handle);
      const size = await fileSizeReaching(path, ROWS * ROW_BYTES, 5_000);
      expect(size).toBeGreaterThanOrEqual(ROWS * ROW_BYTES);
      expect(errors).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('leaves the same writes in the log without the thread (the growth above is its work)', async () => {
    const path = databasePath();
    const handle = createDatabase({ dialect: 'sqlite', path });
    try {
      await writeRows(handle);
      await sleep(600); // three of the thread's intervals
      expect(statSync(path).size).toBeLessThan(ROW_BYTES);
      expect(statSync(`${path}-wal`).size).toBeGreaterThanOrEqual(ROWS * ROW_BYTES);
    } finally {
      await handle.close();
    }
  });

  it('closes the thread with the database: every row kept, the log gone', async () => {
    const path = databasePath();
    const errors: string[] = [];
    const handle = createDatabase({ dialect: 'sqlite', path }, { checkpointInBackground: { onError: (message) => errors.push(message) } });
    await writeRows(handle);
    await handle.close();
    expect(errors).toEqual([]);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new SQLite(path, { readonly: true });
    try {
      const row = reopened.prepare('select count(*) as n, sum(length(body)) as bytes from filler').get() as { n: number; bytes: number };
      expect(row).toEqual({ n: ROWS, bytes: ROWS * ROW_BYTES });
    } finally {
      reopened.close();
    }
  });

  it('reports a thread that cannot open the database, and that it stopped; closing it still returns', async () => {
    const errors: string[] = [];
    let stopped = 0;
    const checkpointer = startWalCheckpointer(join(databasePath(), 'missing', 'test.db'), {
      onError: (message) => errors.push(message),
      onStopped: () => stopped++,
    });
    const until = Date.now() + 5_000;
    while (stopped === 0 && Date.now() < until) await sleep(20);
    expect(stopped).toBe(1);
    expect(errors.join('\n')).toMatch(/unable to open|no such file|directory does not exist/i);
    await checkpointer.close();
    expect(stopped).toBe(1);
  });
});
