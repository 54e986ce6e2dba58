/**
 * Transactions that cannot hang: inside withTransaction the outer database handle is refused at
 * once (on SQLite's single connection it would wait for the transaction that waits for it), the
 * transaction's own handle works, and the outer handle works again once the transaction ended.
 * On every dialect.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

describe.each(DIALECTS)('the transaction guard (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  const one = sql<{ n: number }>`select 1 as n`;

  it('refuses the outer handle inside a transaction at once, and rolls the transaction back', async () => {
    const started = Date.now();
    await expect(
      withTransaction(database.db, async (trx) => {
        await trx.insertInto('sandbox_clock').values({ tpp_id: 'guard-1', offset_ms: 1, changed_at: new Date().toISOString() }).execute();
        await one.execute(database.db);
      }),
    ).rejects.toThrow('the outer database handle was used inside a transaction');
    expect(Date.now() - started).toBeLessThan(2_000);
    const rows = await database.db.selectFrom('sandbox_clock').select('tpp_id').where('tpp_id', '=', 'guard-1').execute();
    expect(rows).toEqual([]);
  });

  it("serves the transaction's own handle, and the outer one after the transaction", async () => {
    const inside = await withTransaction(database.db, async (trx) => (await one.execute(trx)).rows[0]?.n);
    expect(Number(inside)).toBe(1);
    expect(Number((await one.execute(database.db)).rows[0]?.n)).toBe(1);
  });

  it('lets work the transaction did not wait for use the outer handle once it ended', async () => {
    let later: Promise<unknown> | undefined;
    await withTransaction(database.db, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => one.execute(database.db));
    });
    await expect(later).resolves.toBeDefined();
  });

  it('does not refuse another request running beside a transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = withTransaction(database.db, async (trx) => {
      await one.execute(trx);
      await held;
    });
    // Outside the transaction's context: waits its turn on SQLite, runs at once on PostgreSQL.
    const beside = one.execute(database.db);
    release();
    await transaction;
    await expect(beside).resolves.toBeDefined();
  });
});
