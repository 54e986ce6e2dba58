/**
 * The booked balance at the end of a day (`balances` with a closing date): the kept sum less what
 * was booked after that day, read as one. A posting committed while the balance is read is either
 * wholly in the answer or wholly out of it; it is never taken off a sum that did not hold it.
 */
import { sql, type KyselyPlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/create-db.js';
import { transferLegs, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const ledger = createLedger(() => new Date('2026-11-25T10:00:00Z'));

function transfer(key: string, to: string, amountMinor: bigint, bookingDate: string, status: 'booked' | 'pending'): LedgerPosting {
  return {
    idempotencyKey: key,
    status,
    bookingDate,
    valueDate: bookingDate,
    description: key,
    legs: transferLegs(`${to}:clearing`, to, 'NOK', amountMinor),
  };
}

/**
 * A plugin that, after the first statement read through it answers, runs `meanwhile` to its end
 * before handing the answer on: a write that lands between that statement and the next.
 */
function afterFirstStatement(meanwhile: () => Promise<unknown>): KyselyPlugin {
  let done = false;
  return {
    transformQuery: (args) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (!done) {
        done = true;
        await meanwhile();
      }
      return args.result;
    },
  };
}

describe.each(DIALECTS)('the booked balance at the end of a day (%s)', (dialect) => {
  let database: TestDatabase;
  /** A second connection that writes while the first reads (PostgreSQL: the pool has several). */
  let writer: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    if (dialect === 'sqlite') {
      const file = (await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(database.db)).rows[0]!
        .file;
      writer = createDatabase({ dialect: 'sqlite', path: file });
    } else {
      writer = database;
    }
  });
  afterAll(async () => {
    if (writer !== database) await writer.close();
    await database.dispose();
  });

  it('leaves out what was booked after the day, and what is pending', async () => {
    const account = `${dialect}-close`;
    await ledger.post(database.db, transfer(`${account}-1`, account, 1_000n, '2026-11-23', 'booked'));
    await ledger.post(database.db, transfer(`${account}-2`, account, 200n, '2026-11-24', 'booked'));
    await ledger.post(database.db, transfer(`${account}-3`, account, 30n, '2026-11-24', 'pending'));
    await ledger.post(database.db, transfer(`${account}-4`, account, 4n, '2026-11-25', 'booked'));
    expect(await ledger.balances(database.db, account, 'NOK', '2026-11-22')).toMatchObject({ closingBooked: 0n, expected: 1_234n });
    expect(await ledger.balances(database.db, account, 'NOK', '2026-11-23')).toMatchObject({ closingBooked: 1_000n, expected: 1_234n });
    expect(await ledger.balances(database.db, account, 'NOK', '2026-11-24')).toMatchObject({ closingBooked: 1_200n, expected: 1_234n });
    expect(await ledger.balances(database.db, account, 'NOK', '2026-11-25')).toMatchObject({ closingBooked: 1_204n, expected: 1_234n });
    expect(await ledger.balances(database.db, account, 'NOK')).toMatchObject({ closingBooked: 1_204n, expected: 1_234n });
    expect(await ledger.balances(database.db, `${dialect}-never-posted`, 'NOK', '2026-11-24')).toMatchObject({ closingBooked: 0n });
  });

  it('is not changed by a posting of today committed while it is read', async () => {
    const account = `${dialect}-race`;
    await ledger.post(database.db, transfer(`${account}-yesterday`, account, 1_000n, '2026-11-24', 'booked'));
    let committed = false;
    const reader = database.db.withPlugin(
      afterFirstStatement(async () => {
        await ledger.post(writer.db, transfer(`${account}-today`, account, 500n, '2026-11-25', 'booked'));
        committed = true;
      }),
    );
    const balances = await ledger.balances(reader, account, 'NOK', '2026-11-24');
    expect(committed).toBe(true);
    // The end of yesterday whatever happened today; expected holds today's posting or not, whole.
    expect(balances.closingBooked).toBe(1_000n);
    expect([1_000n, 1_500n]).toContain(balances.expected);
    expect(await ledger.balances(database.db, account, 'NOK', '2026-11-24')).toMatchObject({ closingBooked: 1_000n, expected: 1_500n });
  });
});
