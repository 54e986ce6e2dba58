/**
 * Writes that travel with their transaction's next statement (src/db/deferred-writes.ts), on each
 * dialect of DIALECTS. What a transaction sees and keeps is the same as if each write were sent
 * at once: a statement on the write's table sees it, a commit keeps it, a rollback (or a rollback
 * to a savepoint) drops it, and a write that fails fails its transaction, which then changes
 * nothing. On PostgreSQL the statements sent are counted: a held-back write and the statement
 * that carries it are one round trip.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { withTransaction, type DbOrTx } from '../../src/db/create-db.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

/** An audit event's row: the table the held-back writes go to. */
function event(resourceId: string, actorType: string | null = 'tpp') {
  return {
    occurred_at: '2026-11-26T08:00:00.000Z',
    // null breaks the column's NOT NULL: a write that fails.
    actor_type: actorType as string,
    actor_id: 'tpp-1',
    request_id: null,
    action: 'created',
    resource_type: 'payment',
    resource_id: resourceId,
    details: '{}',
  };
}

const appendEvent = preparedQuery((db, row: ReturnType<typeof event>) => db.insertInto('audit_event').values(row), { deferrable: true });

/** A statement on another table, which can carry a held-back write. */
const setClock = preparedQuery((db, v: { tppId: string; offset: number; at: string }) =>
  db.insertInto('sandbox_clock').values({ tpp_id: v.tppId, offset_ms: v.offset, changed_at: v.at }),
);

/** The same write, deferrable: two held-back writes on two tables. */
const setClockLater = preparedQuery(
  (db, v: { tppId: string; offset: number; at: string }) =>
    db.insertInto('sandbox_clock').values({ tpp_id: v.tppId, offset_ms: v.offset, changed_at: v.at }),
  { deferrable: true },
);

/** Another held-back write on audit_event, in other SQL (no request id). */
const appendShortEvent = preparedQuery(
  (db, v: { resourceId: string }) =>
    db.insertInto('audit_event').values({
      occurred_at: '2026-11-26T08:00:00.000Z',
      actor_type: 'tpp',
      actor_id: 'tpp-1',
      action: 'created',
      resource_type: 'payment',
      resource_id: v.resourceId,
      details: '{}',
    }),
  { deferrable: true },
);

/** Another carrier on sandbox_clock, in other SQL (an upsert). */
const upsertClock = preparedQuery((db, v: { tppId: string; offset: number; at: string }) =>
  db
    .insertInto('sandbox_clock')
    .values({ tpp_id: v.tppId, offset_ms: v.offset, changed_at: v.at })
    .onConflict((conflict) => conflict.column('tpp_id').doUpdateSet((eb) => ({ offset_ms: eb.ref('excluded.offset_ms') }))),
);

/** The resource ids of the audit events whose resource id starts with `prefix`, in the order of their ids. */
async function eventOrder(db: DbOrTx, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('audit_event').select('resource_id').where('resource_id', 'like', `${prefix}%`).orderBy('id').execute();
  return rows.map((row) => row.resource_id);
}

async function eventsOf(db: DbOrTx, resourceId: string): Promise<number> {
  const row = await db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.countAll<number | string>().as('events'))
    .where('resource_id', '=', resourceId)
    .executeTakeFirst();
  return Number(row?.events ?? 0);
}

async function clocksOf(db: DbOrTx, tppId: string): Promise<number> {
  return (await db.selectFrom('sandbox_clock').select('tpp_id').where('tpp_id', '=', tppId).execute()).length;
}

describe.each(DIALECTS)('writes held back until the next statement (%s)', (dialect) => {
  let database: TestDatabase;
  let queries: MockInstance<(...args: unknown[]) => unknown>;

  beforeAll(async () => {
    // Before the pool connects: each connection binds the client's query method when it opens.
    queries = vi.spyOn(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }, 'query');
    database = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    queries.mockRestore();
    await database?.dispose();
  });

  /** What PostgreSQL was sent while `work` ran: each statement's SQL and the name it was prepared under. */
  async function statementsOf(work: () => Promise<unknown>): Promise<{ text: string; name: string | undefined }[]> {
    queries.mockClear();
    await work();
    return queries.mock.calls.map(([query]) => {
      const { text, name } = typeof query === 'string' ? { text: query, name: undefined } : (query as { text: string; name?: string });
      return { text: text.replace(/\s+/g, ' '), name };
    });
  }

  /** The SQL texts of {@link statementsOf}. */
  async function textsOf(work: () => Promise<unknown>): Promise<string[]> {
    return (await statementsOf(work)).map((statement) => statement.text);
  }

  it('sends a held-back write with the next statement on another table, and keeps both', async () => {
    const statements = await statementsOf(() =>
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('carried'));
        await setClock.run(trx, { tppId: 'tpp-carried', offset: 1, at: '2026-11-26T08:00:00.000Z' });
      }),
    );
    if (dialect === 'postgres') {
      expect(statements.map((statement) => statement.text)).toEqual([
        'begin',
        expect.stringMatching(/^with "deferred_1" as \(insert into "audit_event"/),
        'commit',
      ]);
      // Made of prepared queries, the carried statement is prepared once per connection too.
      expect(statements[1]?.name).toMatch(/^xs2a_composed_/);
    }
    expect(await eventsOf(database.db, 'carried')).toBe(1);
    expect(await clocksOf(database.db, 'tpp-carried')).toBe(1);
  });

  it('composes each sequence of statements once, and carries each run its own values', async () => {
    const run = (n: number, write: 'full' | 'short', carrier: typeof setClock) =>
      statementsOf(() =>
        withTransaction(database.db, async (trx) => {
          if (write === 'full') await appendEvent.run(trx, event(`sequence-${n}`));
          else await appendShortEvent.run(trx, { resourceId: `sequence-${n}` });
          await carrier.run(trx, { tppId: `tpp-sequence-${n}`, offset: n, at: '2026-11-26T08:00:00.000Z' });
        }),
      );
    const first = await run(1, 'full', setClock);
    const again = await run(2, 'full', setClock);
    // The same write with another carrier, and another write with the same carrier.
    const otherCarrier = await run(3, 'full', upsertClock);
    const otherWrite = await run(4, 'short', setClock);
    if (dialect === 'postgres') {
      expect(again[1]).toEqual(first[1]);
      const composed = [first, otherCarrier, otherWrite].map((statements) => statements[1]!);
      expect(new Set(composed.map((statement) => statement.text)).size).toBe(3);
      expect(new Set(composed.map((statement) => statement.name)).size).toBe(3);
      expect(otherCarrier[1]?.text).toMatch(
        /^with "deferred_1" as \(insert into "audit_event" .*"request_id".*\) insert into "sandbox_clock" .* on conflict/,
      );
      expect(otherWrite[1]?.text).not.toContain('request_id');
    }
    for (const n of [1, 2, 3, 4]) {
      expect(await eventsOf(database.db, `sequence-${n}`)).toBe(1);
      expect(await clocksOf(database.db, `tpp-sequence-${n}`)).toBe(1);
    }
  });

  it('carries held-back writes on several tables in one statement, also one with a WITH list of its own', async () => {
    const statements = await textsOf(() =>
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('several'));
        await setClockLater.run(trx, { tppId: 'tpp-several', offset: 1, at: '2026-11-26T08:00:00.000Z' });
        const tpps = await trx
          .with('tpps', (db) => db.selectFrom('tpp').select('id'))
          .selectFrom('tpps')
          .select('id')
          .where('id', '=', 'no-such-tpp')
          .execute();
        expect(tpps).toEqual([]);
      }),
    );
    if (dialect === 'postgres') {
      expect(statements).toEqual([
        'begin',
        expect.stringMatching(/^with "deferred_1" as \(insert .*"deferred_2" as \(insert .*"tpps" as/),
        'commit',
      ]);
    }
    expect(await eventsOf(database.db, 'several')).toBe(1);
    expect(await clocksOf(database.db, 'tpp-several')).toBe(1);
  });

  it("writes a table's rows in the order of the calls: a second write on a held table sends the first", async () => {
    const statements = await textsOf(() =>
      withTransaction(database.db, async (trx) => {
        for (const resourceId of ['ordered-1', 'ordered-2', 'ordered-3']) await appendEvent.run(trx, event(resourceId));
        await setClock.run(trx, { tppId: 'tpp-ordered', offset: 1, at: '2026-11-26T08:00:00.000Z' });
      }),
    );
    if (dialect === 'postgres') {
      expect(statements).toEqual([
        'begin',
        expect.stringMatching(/^insert into "audit_event"/),
        expect.stringMatching(/^insert into "audit_event"/),
        expect.stringMatching(/^with "deferred_1" as \(insert into "audit_event"/),
        'commit',
      ]);
    }
    expect(await eventOrder(database.db, 'ordered-')).toEqual(['ordered-1', 'ordered-2', 'ordered-3']);
  });

  it('sends it first when the next statement reads its table: the transaction sees its own write', async () => {
    const statements = await textsOf(() =>
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('read-back'));
        expect(await eventsOf(trx, 'read-back')).toBe(1);
      }),
    );
    if (dialect === 'postgres') {
      expect(statements).toEqual([
        'begin',
        expect.stringMatching(/^insert into "audit_event"/),
        expect.stringMatching(/^select/),
        'commit',
      ]);
    }
  });

  it('sends it first when the next statement reads its table in a subquery among the values it inserts', async () => {
    await withTransaction(database.db, async (trx) => {
      await appendEvent.run(trx, event('counted'));
      await trx
        .insertInto('sandbox_clock')
        .values({
          tpp_id: 'tpp-counted',
          offset_ms: trx
            .selectFrom('audit_event')
            .select((eb) => eb.fn.countAll<number>().as('events'))
            .where('resource_id', '=', 'counted'),
          changed_at: '2026-11-26T08:00:00.000Z',
        })
        .execute();
    });
    const row = await database.db
      .selectFrom('sandbox_clock')
      .select(sql<string>`cast(offset_ms as text)`.as('offset'))
      .where('tpp_id', '=', 'tpp-counted')
      .executeTakeFirst();
    expect(row?.offset).toBe('1');
  });

  it('sends it first when the next statement is raw SQL, whose tables cannot be read', async () => {
    await withTransaction(database.db, async (trx) => {
      await appendEvent.run(trx, event('before-raw'));
      const row = await sql<{
        events: number | string;
      }>`select count(*) as events from audit_event where resource_id = ${'before-raw'}`.execute(trx);
      expect(Number(row.rows[0]?.events)).toBe(1);
    });
  });

  it('sends what is still held before the commit', async () => {
    const statements = await textsOf(() =>
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('at-commit'));
      }),
    );
    if (dialect === 'postgres') {
      expect(statements).toEqual(['begin', expect.stringMatching(/^insert into "audit_event"/), 'commit']);
    }
    expect(await eventsOf(database.db, 'at-commit')).toBe(1);
  });

  it('drops it with the transaction when the work fails', async () => {
    await expect(
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('rolled-back'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await eventsOf(database.db, 'rolled-back')).toBe(0);
  });

  it('fails the transaction when the held-back write fails, and the statement that carried it changes nothing', async () => {
    await expect(
      withTransaction(database.db, async (trx) => {
        await appendEvent.run(trx, event('failing', null));
        await setClock.run(trx, { tppId: 'tpp-failing', offset: 1, at: '2026-11-26T08:00:00.000Z' });
      }),
    ).rejects.toThrow();
    expect(await eventsOf(database.db, 'failing')).toBe(0);
    expect(await clocksOf(database.db, 'tpp-failing')).toBe(0);
  });

  it('keeps a write held before a savepoint when the savepoint is rolled back, and drops one held after it', async () => {
    const trx = await database.db.startTransaction().execute();
    await appendEvent.run(trx, event('before-savepoint'));
    const savepoint = await trx.savepoint('step').execute();
    await appendEvent.run(savepoint, event('after-savepoint'));
    await savepoint.rollbackToSavepoint('step').execute();
    await appendEvent.run(trx, event('after-rollback'));
    await trx.commit().execute();
    expect(await eventsOf(database.db, 'before-savepoint')).toBe(1);
    expect(await eventsOf(database.db, 'after-savepoint')).toBe(0);
    expect(await eventsOf(database.db, 'after-rollback')).toBe(1);
  });

  it('raises the error of a write held inside a savepoint before the savepoint is released', async () => {
    const trx = await database.db.startTransaction().execute();
    const savepoint = await trx.savepoint('item').execute();
    const failed = await appendEvent
      .run(savepoint, event('failing-item', null))
      .then(() => savepoint.releaseSavepoint('item').execute())
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    // As a caller handles a failed item: back to the savepoint, and on with the transaction.
    await savepoint.rollbackToSavepoint('item').execute();
    await appendEvent.run(trx, event('after-failing-item'));
    await trx.commit().execute();
    expect(await eventsOf(database.db, 'failing-item')).toBe(0);
    expect(await eventsOf(database.db, 'after-failing-item')).toBe(1);
  });

  it('refuses a deferrable query that answers rows, on every dialect', async () => {
    const returning = preparedQuery((db, row: ReturnType<typeof event>) => db.insertInto('audit_event').values(row).returning('id'), {
      deferrable: true,
    });
    await expect(returning.run(database.db, event('returning'))).rejects.toThrow('without RETURNING');
    expect(await eventsOf(database.db, 'returning')).toBe(0);
  });

  it('sends it at once outside a transaction', async () => {
    await appendEvent.run(database.db, event('alone'));
    expect(await eventsOf(database.db, 'alone')).toBe(1);
  });
});
