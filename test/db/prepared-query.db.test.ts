/**
 * Prepared queries (src/db/prepared-query.ts), on each dialect of DIALECTS: built once per
 * database, each run binds its own values, constants in the query stay, a missing value is an
 * error that writes nothing, and a run inside a transaction is part of it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { preparedQuery } from '../../src/db/prepared-query.js';
import type { AuditEventTable } from '../../src/modules/audit/audit.table.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

/** An audit event's row: the table the tests write to. */
type Event = Omit<AuditEventTable, 'id'>;

function event(resourceId: string, action: string, requestId: string | null = null): Event {
  return {
    occurred_at: '2026-11-26T08:00:00.000Z',
    actor_type: 'tpp',
    actor_id: 'tpp-1',
    request_id: requestId,
    action,
    resource_type: 'payment',
    resource_id: resourceId,
    details: JSON.stringify({ resourceId }),
  };
}

describe.each(DIALECTS)('prepared queries on %s', (dialect) => {
  let database: TestDatabase;
  let other: TestDatabase;
  let builds = 0;
  const insert = preparedQuery((db, row: Event) => {
    builds++;
    return db.insertInto('audit_event').values(row);
  });
  // A constant beside the bound values: 'payment' is part of the SQL's parameters on every run.
  const actionsOf = preparedQuery((db, v: { resourceId: string }) =>
    db
      .selectFrom('audit_event')
      .select(['action', 'request_id'])
      .where('resource_type', '=', 'payment')
      .where('resource_id', '=', v.resourceId)
      .orderBy('id'),
  );
  const rename = preparedQuery((db, v: { resourceId: string; from: string; to: string }) =>
    db.updateTable('audit_event').set({ action: v.to }).where('resource_id', '=', v.resourceId).where('action', '=', v.from),
  );

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    other = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.dispose();
    await other?.dispose();
  });

  it('binds each run its own values, and builds the query once per database', async () => {
    await insert.run(database.db, event('p-1', 'created', 'r-1'));
    await insert.run(database.db, event('p-1', 'approved'));
    await insert.run(database.db, event('p-2', 'created', 'r-2'));
    expect(builds).toBe(1);

    expect((await actionsOf.run(database.db, { resourceId: 'p-1' })).rows).toEqual([
      { action: 'created', request_id: 'r-1' },
      { action: 'approved', request_id: null },
    ]);
    expect((await actionsOf.run(database.db, { resourceId: 'p-2' })).rows).toEqual([{ action: 'created', request_id: 'r-2' }]);

    await insert.run(other.db, event('p-9', 'created'));
    expect(builds).toBe(2);
    expect((await actionsOf.run(other.db, { resourceId: 'p-1' })).rows).toEqual([]);
    expect((await actionsOf.run(other.db, { resourceId: 'p-9' })).rows).toEqual([{ action: 'created', request_id: null }]);
  });

  it('keeps the constants of the query: a row of another resource type is not selected', async () => {
    await insert.run(database.db, { ...event('p-3', 'created'), resource_type: 'consent' });
    expect((await actionsOf.run(database.db, { resourceId: 'p-3' })).rows).toEqual([]);
  });

  it('reports the rows an update changed', async () => {
    await insert.run(database.db, event('p-4', 'created'));
    expect((await rename.run(database.db, { resourceId: 'p-4', from: 'created', to: 'received' })).numAffectedRows).toBe(1n);
    expect((await rename.run(database.db, { resourceId: 'p-4', from: 'created', to: 'received' })).numAffectedRows).toBe(0n);
    expect((await actionsOf.run(database.db, { resourceId: 'p-4' })).rows).toEqual([{ action: 'received', request_id: null }]);
  });

  it('refuses a run without one of its values, and writes nothing', async () => {
    const { request_id: _, ...withoutRequestId } = event('p-5', 'created');
    await expect(insert.run(database.db, withoutRequestId as Event)).rejects.toThrow(/without a value for request_id/);
    await expect(insert.run(database.db, { ...event('p-5', 'created'), actor_id: undefined as unknown as string })).rejects.toThrow(
      /without a value for actor_id/,
    );
    expect((await actionsOf.run(database.db, { resourceId: 'p-5' })).rows).toEqual([]);
  });

  it('runs inside a transaction as part of it', async () => {
    await expect(
      withTransaction(database.db, async (trx) => {
        await insert.run(trx, event('p-6', 'created'));
        expect((await actionsOf.run(trx, { resourceId: 'p-6' })).rows).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await actionsOf.run(database.db, { resourceId: 'p-6' })).rows).toEqual([]);

    await withTransaction(database.db, (trx) => insert.run(trx, event('p-6', 'created')));
    expect((await actionsOf.run(database.db, { resourceId: 'p-6' })).rows).toHaveLength(1);
  });

  it('on the database, waits for a transaction in progress instead of running inside it', async () => {
    let inside!: () => void;
    const transactionStarted = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const order: string[] = [];
    const transaction = withTransaction(database.db, async (trx) => {
      await insert.run(trx, event('p-7', 'in the transaction'));
      inside();
      await finished;
      order.push('transaction ends');
      throw new Error('roll back');
    });
    await transactionStarted;
    const outside = insert.run(database.db, event('p-7', 'outside')).then(() => order.push('outside written'));
    // Long enough for a statement that did not wait to have run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    finish();
    await expect(transaction).rejects.toThrow('roll back');
    await outside;
    if (dialect === 'sqlite') {
      // One connection: the statement outside waited for the transaction to end.
      expect(order).toEqual(['transaction ends', 'outside written']);
    }
    expect((await actionsOf.run(database.db, { resourceId: 'p-7' })).rows).toEqual([{ action: 'outside', request_id: null }]);
  });

  it('refuses a query that does not bind one of its fields (one tested while building is fixed)', async () => {
    const tested = preparedQuery((db, v: { resourceId: string; created: boolean }) =>
      db
        .selectFrom('audit_event')
        .select('action')
        .where('resource_id', '=', v.resourceId)
        .where('action', '=', v.created ? 'created' : 'approved'),
    );
    await expect(tested.run(database.db, { resourceId: 'p-1', created: false })).rejects.toThrow(/does not bind created/);
  });

  it('on the database inside a transaction of another database, is refused as any query of an outer handle is', async () => {
    await expect(
      withTransaction(database.db, async () => {
        await insert.run(other.db, event('p-9b', 'inside another transaction'));
      }),
    ).rejects.toThrow(/outer database handle was used inside a transaction/);
    expect((await actionsOf.run(other.db, { resourceId: 'p-9b' })).rows).toEqual([]);
  });

  it('refuses a run on a transaction whose work has ended, and writes nothing', async () => {
    let late!: Parameters<Parameters<typeof withTransaction>[1]>[0];
    await withTransaction(database.db, async (trx) => {
      late = trx;
    });
    await expect(insert.run(late, event('p-8', 'late'))).rejects.toThrow();
    expect((await actionsOf.run(database.db, { resourceId: 'p-8' })).rows).toEqual([]);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('prepared queries on PostgreSQL', () => {
  let database: TestDatabase;
  let oneConnection: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    oneConnection = await openTestDatabase('postgres', { poolSize: 1 });
  });
  afterAll(async () => {
    await database?.dispose();
    await oneConnection?.dispose();
  });

  const countOf = preparedQuery((db, v: { resourceId: string }) =>
    db
      .selectFrom('audit_event')
      .select((eb) => eb.fn.countAll<string>().as('events'))
      .where('resource_id', '=', v.resourceId),
  );

  it('run as named statements, parsed once per connection; other SQL is not named', async () => {
    // One transaction holds one connection: the statements it prepared are visible in it.
    const named = await withTransaction(database.db, async (trx) => {
      await countOf.run(trx, { resourceId: 'p-1' });
      await countOf.run(trx, { resourceId: 'p-2' });
      await trx.selectFrom('audit_event').select('id').where('resource_id', '=', 'p-3').execute();
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
      return rows;
    });
    expect(named).toHaveLength(1);
    expect(named[0]!.name).toMatch(/^xs2a_prepared_[0-9]+$/);
    expect(named[0]!.statement).toContain('count(*)');
    expect((await countOf.run(database.db, { resourceId: 'p-1' })).rows).toEqual([{ events: '0' }]);
  });

  it('prepares a statement again when the server forgot it: the run that finds out fails, the next one works', async () => {
    expect((await countOf.run(oneConnection.db, { resourceId: 'p-1' })).rows).toEqual([{ events: '0' }]);
    await sql`deallocate all`.execute(oneConnection.db);
    await expect(countOf.run(oneConnection.db, { resourceId: 'p-1' })).rejects.toThrow(/does not exist/);
    expect((await countOf.run(oneConnection.db, { resourceId: 'p-1' })).rows).toEqual([{ events: '0' }]);
    expect((await countOf.run(oneConnection.db, { resourceId: 'p-2' })).rows).toEqual([{ events: '0' }]);
  });
});
