/**
 * Rows as arrays (src/db/select-arrays.ts), on each dialect of DIALECTS: the columns in the order
 * of the select list (not of the table, not by name), the same whether SQLite serves the select
 * directly, in its turn behind a transaction, or through Kysely (PostgreSQL), and inside a
 * transaction its own writes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { selectArrays } from '../../src/db/select-arrays.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

describe.each(DIALECTS)('selecting rows as arrays on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    await database.db
      .insertInto('audit_event')
      .values(
        ['p-1', 'p-2', 'p-3'].map((resourceId, index) => ({
          occurred_at: `2026-11-26T08:00:0${index}.000Z`,
          actor_type: 'tpp',
          actor_id: 'tpp-1',
          request_id: index === 1 ? null : `r-${index}`,
          action: 'created',
          resource_type: 'payment',
          resource_id: resourceId,
          details: '{}',
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const query = () =>
    database.db
      .selectFrom('audit_event')
      // Not the table's order, and a computed column: the list's order is what counts.
      .select(['resource_id', 'request_id', sql<string>`cast(length(resource_id) as text)`.as('length'), 'action'])
      .where('resource_type', '=', 'payment')
      .orderBy('resource_id', 'desc');

  const expected = [
    ['p-3', 'r-2', '3', 'created'],
    ['p-2', null, '3', 'created'],
    ['p-1', 'r-0', '3', 'created'],
  ];

  it('answers each row as its columns in the select list order', async () => {
    expect(await selectArrays(database.db, query())).toEqual(expected);
  });

  it('answers the same while another transaction holds the connection', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const holding = new Promise<void>((resolve) => (started = resolve));
    const transaction = withTransaction(database.db, async () => {
      started();
      await held;
    });
    await holding;
    const rows = selectArrays(database.db, query());
    release();
    await transaction;
    expect(await rows).toEqual(expected);
  });

  // PostgreSQL's reader does not wait: it sees the rows as last committed.
  it.runIf(dialect === 'sqlite')(
    "waiting its turn behind a writing transaction, answers that transaction's write once committed",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const transaction = withTransaction(database.db, async (trx) => {
        await trx.updateTable('audit_event').set({ action: 'waited' }).where('resource_id', '=', 'p-3').execute();
        wrote();
        await held;
      });
      await written;
      let answered = false;
      const rows = selectArrays(database.db, query()).then((value) => {
        answered = true;
        return value;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBe(false);
      release();
      await transaction;
      expect((await rows)[0]).toEqual(['p-3', 'r-2', '3', 'waited']);
      await database.db.updateTable('audit_event').set({ action: 'created' }).where('resource_id', '=', 'p-3').execute();
      // Kysely's own runs of the shared statement still get objects.
      expect((await query().execute())[0]).toEqual({ resource_id: 'p-3', request_id: 'r-2', length: '3', action: 'created' });
    },
  );

  it('sees the writes of the transaction it runs in, and answers the same shapes afterwards', async () => {
    await withTransaction(database.db, async (trx) => {
      await trx.updateTable('audit_event').set({ action: 'renamed' }).where('resource_id', '=', 'p-2').execute();
      const rows = await selectArrays(
        trx,
        trx.selectFrom('audit_event').select(['action', 'resource_id']).where('resource_id', '=', 'p-2'),
      );
      expect(rows).toEqual([['renamed', 'p-2']]);
      throw new Error('roll back');
    }).catch((error: unknown) => expect((error as Error).message).toBe('roll back'));
    // The statement is shared with Kysely's own runs: they still get objects.
    expect(await query().execute()).toEqual(
      expected.map(([resource_id, request_id, length, action]) => ({ resource_id, request_id, length, action })),
    );
    expect(await selectArrays(database.db, query())).toEqual(expected);
  });
});
