/**
 * Group commit on SQLite (src/db/sqlite-commit-groups.ts): the transactions and writes of one turn
 * of the event loop commit together, and none of them answers before that commit. Watched from a
 * second connection on the same file, which sees only what was committed. PostgreSQL commits each
 * transaction by itself; this is SQLite's alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, withTransaction, type Db } from '../../src/db/create-db.js';
import { directAccessNow } from '../../src/db/direct-sqlite.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import { openTestDatabase, type TestDatabase } from '../support/databases.js';

const insertEvent = preparedQuery((db, values: { resourceId: string }) =>
  db.insertInto('audit_event').values({
    occurred_at: '2026-11-27T08:00:00.000Z',
    actor_type: 'tpp',
    actor_id: 'tpp-1',
    request_id: null,
    action: 'created',
    resource_type: 'group-commit-test',
    resource_id: values.resourceId,
    details: '{}',
  }),
);

const selectEvent = preparedQuery((db, values: { resourceId: string }) =>
  db.selectFrom('audit_event').select(['resource_id']).where('resource_id', '=', values.resourceId),
);

/** better-sqlite3's statements, to count the commits the server's connection runs. */
const statementPrototype = (() => {
  const probe = new SQLite(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as { run: (...args: unknown[]) => unknown };
  probe.close();
  return prototype;
})();

function countCommits(): { readonly count: () => number } {
  const run = vi.spyOn(statementPrototype, 'run');
  return {
    count: () => run.mock.contexts.filter((statement) => (statement as { source: string }).source === 'commit').length,
  };
}

/** The test's events in a closed database's file, opened again: what its commits kept. */
function eventsKeptIn(file: string): string[] {
  const reopened = new SQLite(file, { readonly: true });
  try {
    const rows = reopened.prepare('select resource_id from audit_event where resource_type = ?').all('group-commit-test');
    return (rows as { resource_id: string }[]).map((row) => row.resource_id);
  } finally {
    reopened.close();
  }
}

async function fileOf(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  return rows.find((row) => row.name === 'main')!.file;
}

describe('commit groups on SQLite', () => {
  let database: TestDatabase;
  /** A second connection: it sees committed rows only. */
  let observer: SQLite.Database;
  let n = 0;
  const fresh = () => `event-${++n}`;
  const committed = (resourceId: string) =>
    observer.prepare('select count(*) as count from audit_event where resource_id = ?').get(resourceId) as { count: number };

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    observer = new SQLite(await fileOf(database.db), { readonly: true });
  });
  afterAll(async () => {
    observer?.close();
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers a transaction only once it is committed, with the others begun in the same turn', async () => {
    const ids = [fresh(), fresh(), fresh(), fresh(), fresh()];
    const seenOnAnswer = await Promise.all(
      ids.map((resourceId) =>
        withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId })).then(() => committed(resourceId).count),
      ),
    );
    expect(seenOnAnswer).toEqual([1, 1, 1, 1, 1]);
  });

  it('commits the transactions and writes of one turn once', async () => {
    const commits = countCommits();
    await Promise.all([
      ...[fresh(), fresh(), fresh()].map((resourceId) => withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId }))),
      // Writes alone: on the free connection directly, or behind the transactions through Kysely.
      ...[fresh(), fresh(), fresh()].map((resourceId) => insertEvent.run(database.db, { resourceId })),
    ]);
    expect(commits.count()).toBe(1);
  });

  it('answers a write alone, and a read in the same turn that saw it, once the write is committed', async () => {
    const resourceId = fresh();
    const write = insertEvent.run(database.db, { resourceId }).then(() => committed(resourceId).count);
    // The same turn: the write opened a group, so this read runs inside it and sees the write.
    const read = selectEvent
      .run(database.db, { resourceId })
      .then((result) => ({ rows: result.rows.length, committed: committed(resourceId).count }));
    expect(await write).toBe(1);
    expect(await read).toEqual({ rows: 1, committed: 1 });
  });

  it('answers a read with no group open at once, from committed rows', async () => {
    const resourceId = fresh();
    await insertEvent.run(database.db, { resourceId });
    const commits = countCommits();
    const result = await selectEvent.run(database.db, { resourceId });
    expect(result.rows).toEqual([{ resource_id: resourceId }]);
    expect(commits.count()).toBe(0);
  });

  it('undoes a failed transaction alone; the others of its group commit', async () => {
    const failed = fresh();
    const kept = fresh();
    const failure = new Error('the work failed after its insert');
    const [first, second] = await Promise.allSettled([
      withTransaction(database.db, async (trx) => {
        await insertEvent.run(trx, { resourceId: failed });
        throw failure;
      }),
      withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId: kept })),
    ]);
    expect(first).toEqual({ status: 'rejected', reason: failure });
    expect(second.status).toBe('fulfilled');
    expect(committed(failed).count).toBe(0);
    expect(committed(kept).count).toBe(1);
  });

  it('undoes a failed transaction that changed hundreds of pages, its copies kept in memory', async () => {
    // A member's undo copies pass SQLite's 64 KiB spill threshold here; with temporary files in
    // memory they stay there instead of going to a file page by page.
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(database.db);
    expect(rows[0]!.temp_store).toBe(2);
    const kept = fresh();
    const failedIds = Array.from({ length: 400 }, fresh);
    const failure = new Error('the work failed after its inserts');
    const [first, second] = await Promise.allSettled([
      withTransaction(database.db, async (trx) => {
        for (const resourceId of failedIds) await insertEvent.run(trx, { resourceId: `${resourceId}-${'x'.repeat(500)}` });
        throw failure;
      }),
      withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId: kept })),
    ]);
    expect(first).toEqual({ status: 'rejected', reason: failure });
    expect(second.status).toBe('fulfilled');
    expect(committed(kept).count).toBe(1);
    expect(failedIds.filter((id) => committed(`${id}-${'x'.repeat(500)}`).count > 0)).toEqual([]);
  });

  it('fails every member of a group whose commit fails, and keeps none of their work', async () => {
    // A deferred foreign key is checked at the commit: the group's commit fails, not the member.
    await sql`create table group_parent (id integer primary key)`.execute(database.db);
    await sql`create table group_child (id integer primary key, parent integer references group_parent (id) deferrable initially deferred)`.execute(
      database.db,
    );
    const innocent = fresh();
    const results = await Promise.allSettled([
      withTransaction(database.db, (trx) => sql`insert into group_child (id, parent) values (1, 42)`.execute(trx)),
      withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId: innocent })),
      insertEvent.run(database.db, { resourceId: innocent }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed(innocent).count).toBe(0);
    expect((observer.prepare('select count(*) as count from group_child').get() as { count: number }).count).toBe(0);
    // The connection serves the next group.
    const after = fresh();
    await withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId: after }));
    expect(committed(after).count).toBe(1);
  });

  it("answers a controlled transaction's commit once the group committed", async () => {
    const resourceId = fresh();
    const trx = await database.db.startTransaction().execute();
    await insertEvent.run(trx, { resourceId });
    await trx.commit().execute();
    expect(committed(resourceId).count).toBe(1);
  });

  it('serves statements alone directly while a committed transaction waits for its group', async () => {
    const trx = await database.db.startTransaction().execute();
    await insertEvent.run(trx, { resourceId: fresh() });
    let answered = false;
    const commit = trx
      .commit()
      .execute()
      .then(() => (answered = true));
    // The transaction gave the connection back in its commit: statements alone need not queue
    // behind it in Kysely's driver until Kysely releases it after the group's commit.
    let servedDirectly = false;
    for (let step = 0; step < 50 && !answered && !servedDirectly; step++) {
      servedDirectly = directAccessNow(database.db) !== undefined;
      await Promise.resolve();
    }
    await commit;
    expect(servedDirectly).toBe(true);
    expect(directAccessNow(database.db)).toBeDefined();
  });

  it('lets a transaction read what an earlier member of its group wrote', async () => {
    const resourceId = fresh();
    const [, seen] = await Promise.all([
      withTransaction(database.db, (trx) => insertEvent.run(trx, { resourceId })),
      withTransaction(database.db, async (trx) => (await selectEvent.run(trx, { resourceId })).rows.length),
    ]);
    expect(seen).toBe(1);
  });
});

describe('closing a SQLite database with a group open', () => {
  it('commits the group first', async () => {
    const database = await openTestDatabase('sqlite');
    const file = await fileOf(database.db);
    try {
      // Run on the free connection at once: the group is open, its commit due at the end of the turn.
      const write = insertEvent.run(database.db, { resourceId: 'written-before-close' });
      await database.close();
      await write;
      expect(eventsKeptIn(file)).toEqual(['written-before-close']);
    } finally {
      await database.dispose();
    }
  });
});

describe('closing a SQLite database while a transaction runs', () => {
  it('undoes that transaction and commits the rest of the group', async () => {
    const database = await openTestDatabase('sqlite');
    const file = await fileOf(database.db);
    try {
      let inserted!: () => void;
      const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
      let goOn!: () => void;
      const held = new Promise<void>((resolve) => (goOn = resolve));
      const before = insertEvent.run(database.db, { resourceId: 'committed-before' });
      await before;
      const running = withTransaction(database.db, async (trx) => {
        await insertEvent.run(trx, { resourceId: 'half-done' });
        inserted();
        await held;
        await insertEvent.run(trx, { resourceId: 'after-close' });
      });
      await insertedOnce;
      await database.close();
      goOn();
      await expect(running).rejects.toThrow();
      expect(eventsKeptIn(file)).toEqual(['committed-before']);
    } finally {
      await database.dispose();
    }
  });
});

describe('a SQLite database opened without commit groups (several processes on one file)', () => {
  it('commits each transaction and write by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xs2a-no-groups-'));
    const handle = createDatabase({ dialect: 'sqlite', path: join(dir, 'alone.db') }, { commitInGroups: false });
    try {
      await sql`create table alone (id integer primary key)`.execute(handle.db);
      const commits = countCommits();
      await Promise.all([
        withTransaction(handle.db, (trx) => sql`insert into alone (id) values (1)`.execute(trx)),
        withTransaction(handle.db, (trx) => sql`insert into alone (id) values (2)`.execute(trx)),
        withTransaction(handle.db, (trx) => sql`insert into alone (id) values (3)`.execute(trx)),
      ]);
      expect(commits.count()).toBe(3);
    } finally {
      vi.restoreAllMocks();
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
