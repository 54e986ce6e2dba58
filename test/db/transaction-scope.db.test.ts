/**
 * The unit of work of a request (transaction-scope.ts) and the transaction guard share one async
 * context (async-context.ts): a transaction opened inside a scope runs the scope's work before it
 * commits, atomically with it, once; scopes running side by side each see only their own; and the
 * guard still refuses the outer handle inside a scope's transaction. On every dialect.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Db } from '../../src/db/create-db.js';
import { runInTransactionScope, type BeforeCommit } from '../../src/db/transaction-scope.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

/** A row of the sandbox clock: a small table with a text key, written by the work and by the scope. */
function writeRow(db: Db, key: string) {
  return db.insertInto('sandbox_clock').values({ tpp_id: key, offset_ms: 0, changed_at: new Date().toISOString() }).execute();
}

async function rowsLike(db: Db, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('sandbox_clock').select('tpp_id').where('tpp_id', 'like', `${prefix}%`).orderBy('tpp_id').execute();
  return rows.map((row) => row.tpp_id);
}

describe.each(DIALECTS)('a unit of work and its transactions (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it('runs the scope’s work inside the first transaction, with its value, and not again after it committed', async () => {
    const prefix = `${dialect}-scope-once-`;
    const seen: unknown[] = [];
    const beforeCommit: BeforeCommit = async (trx, value) => {
      seen.push(value);
      await writeRow(trx, `${prefix}recorded`);
      return true;
    };
    await runInTransactionScope(beforeCommit, async () => {
      await withTransaction(database.db, async (trx) => {
        await writeRow(trx, `${prefix}work-1`);
        return 'first';
      });
      await withTransaction(database.db, async (trx) => {
        await writeRow(trx, `${prefix}work-2`);
        return 'second';
      });
    });
    expect(seen).toEqual(['first']);
    expect(await rowsLike(database.db, prefix)).toEqual([`${prefix}recorded`, `${prefix}work-1`, `${prefix}work-2`]);
  });

  it('rolls the scope’s write back with a transaction whose commit does not happen, and joins the next one', async () => {
    const prefix = `${dialect}-scope-retry-`;
    let calls = 0;
    const beforeCommit: BeforeCommit = async (trx, value) => {
      calls += 1;
      await writeRow(trx, `${prefix}recorded-${String(value)}`);
      if (value === 'fails') throw new Error('refused at the end');
      return true;
    };
    await runInTransactionScope(beforeCommit, async () => {
      await expect(withTransaction(database.db, async () => 'fails')).rejects.toThrow('refused at the end');
      await withTransaction(database.db, async () => 'commits');
    });
    expect(calls).toBe(2);
    expect(await rowsLike(database.db, prefix)).toEqual([`${prefix}recorded-commits`]);
  });

  it('keeps scopes running side by side apart', async () => {
    const prefix = `${dialect}-scope-apart-`;
    const scoped = (name: string, delay: number) =>
      runInTransactionScope(
        async (trx, value) => {
          await writeRow(trx, `${prefix}${name}-recorded-${String(value)}`);
          return true;
        },
        async () => {
          await new Promise((resolve) => setTimeout(resolve, delay));
          await withTransaction(database.db, async () => name);
        },
      );
    await Promise.all([scoped('a', 20), scoped('b', 0), scoped('c', 10)]);
    expect(await rowsLike(database.db, prefix)).toEqual([`${prefix}a-recorded-a`, `${prefix}b-recorded-b`, `${prefix}c-recorded-c`]);
  });

  it('still refuses the outer handle inside a transaction of a scope, and serves it in the scope outside one', async () => {
    const one = sql<{ n: number }>`select 1 as n`;
    await runInTransactionScope(
      async () => true,
      async () => {
        await expect(withTransaction(database.db, async () => one.execute(database.db))).rejects.toThrow(
          'the outer database handle was used inside a transaction',
        );
        await expect(one.execute(database.db)).resolves.toBeDefined();
      },
    );
  });
});
