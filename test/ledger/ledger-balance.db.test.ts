/**
 * The maintained balance table (ledger_balance) on each database: after every step of random
 * postings (several accounts, two currencies, booked and pending, legs on one account twice,
 * repeated idempotency keys, booking of pending postings, rolled-back transactions, forgetting
 * accounts) each stored balance equals the sum of the account's entries computed here with SQL;
 * the migration's backfill rebuilds the same balances from entries written before it ran; and on
 * PostgreSQL concurrent postings on the same two accounts in opposite leg order never deadlock.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, withTransaction, type DatabaseHandle, type Db } from '../../src/db/create-db.js';
import * as balancesMigration from '../../src/db/migrations/2026_11_25_0007_ledger_balances.js';
import { transferLegs, type LedgerLeg, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { linearCongruential as random } from '../support/seeded-random.js';

const ledger = createLedger(() => new Date('2026-11-25T10:00:00Z'));
const CURRENCIES = ['NOK', 'EUR'] as const;

type Sums = Map<string, { booked: bigint; expected: bigint }>;

const key = (accountId: string, currency: string) => `${accountId}|${currency}`;

/** The reference: every account's sums straight from the entries, zero sums left out. */
async function sumsFromEntries(db: Db): Promise<Sums> {
  const result = await sql<{ account_id: string; currency: string; booked: string; expected: string }>`
    select e.account_id, e.currency,
           cast(sum(case when t.status = 'booked' then e.amount_minor else 0 end) as text) as booked,
           cast(sum(e.amount_minor) as text) as expected
    from ledger_entry e
    join ledger_transaction t on t.id = e.transaction_id
    group by e.account_id, e.currency`.execute(db);
  return nonZero(result.rows);
}

/** What ledger_balance holds, zero rows left out (a missing row means zero). */
async function storedSums(db: Db): Promise<Sums> {
  const result = await sql<{ account_id: string; currency: string; booked: string; expected: string }>`
    select account_id, currency, cast(booked_minor as text) as booked, cast(expected_minor as text) as expected
    from ledger_balance`.execute(db);
  return nonZero(result.rows);
}

function nonZero(rows: readonly { account_id: string; currency: string; booked: string; expected: string }[]): Sums {
  const sums: Sums = new Map();
  for (const row of rows) {
    const booked = BigInt(row.booked);
    const expected = BigInt(row.expected);
    if (booked !== 0n || expected !== 0n) sums.set(key(row.account_id, row.currency), { booked, expected });
  }
  return sums;
}

/** Asserts that the table, and the ledger's balances for every given account, match the entries. */
async function expectBalancesMatchEntries(db: Db, accounts: readonly string[], step: string): Promise<void> {
  const reference = await sumsFromEntries(db);
  expect(await storedSums(db), step).toEqual(reference);
  for (const account of accounts) {
    for (const currency of CURRENCIES) {
      const want = reference.get(key(account, currency)) ?? { booked: 0n, expected: 0n };
      const balances = await ledger.balances(db, account, currency);
      expect({ booked: balances.closingBooked, expected: balances.expected }, `${step}: ${account} ${currency}`).toEqual(want);
    }
  }
}

async function isRecordedWith(db: Db, idempotencyKey: string, status?: string): Promise<boolean> {
  let query = db.selectFrom('ledger_transaction').select('id').where('idempotency_key', '=', idempotencyKey);
  if (status) query = query.where('status', '=', status);
  return (await query.executeTakeFirst()) !== undefined;
}

describe.each(DIALECTS)('ledger balances (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it.each([1, 2, 3, 4])('stay equal to the sum of the entries after every step of a random sequence (seed %i)', async (seed) => {
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const clearing = `${dialect}-${seed}-system:clearing`;
    const suspense = `${dialect}-${seed}-system:suspense`;
    const customers = ['a', 'b', 'c', 'd', 'e'].map((name) => `${dialect}-${seed}-${name}`);
    const accounts = [...customers, clearing, suspense];
    const posted: LedgerPosting[] = [];
    let serial = 0;

    // Mostly small amounts; some beyond 2^53, kept small enough that no sum leaves 64 bits.
    const amount = () =>
      next() < 0.1 ? 9_007_199_254_740_993n + BigInt(Math.floor(next() * 1e9)) : BigInt(1 + Math.floor(next() * 100_000));

    const newPosting = (): LedgerPosting => {
      const legs: LedgerLeg[] = [];
      // One or both currencies; each balanced by a last leg, sometimes on an account already used.
      const currencies = next() < 0.2 ? CURRENCIES : [pick(CURRENCIES)];
      for (const currency of currencies) {
        const count = 1 + Math.floor(next() * 3);
        let sum = 0n;
        for (let i = 0; i < count; i++) {
          const minor = next() < 0.5 ? amount() : -amount();
          legs.push({ accountId: pick(accounts), currency, amountMinor: minor });
          sum += minor;
        }
        legs.push({ accountId: pick(accounts), currency, amountMinor: sum === 0n ? 1n : -sum });
        if (sum === 0n) legs.push({ accountId: pick(accounts), currency, amountMinor: -1n });
      }
      const posting: LedgerPosting = {
        idempotencyKey: `${dialect}-${seed}-${serial++}`,
        status: next() < 0.35 ? 'pending' : 'booked',
        bookingDate: '2026-11-25',
        valueDate: '2026-11-25',
        description: 'random',
        legs,
      };
      posted.push(posting);
      return posting;
    };

    for (let step = 0; step < 70; step++) {
      const roll = next();
      const label = `seed ${seed} step ${step}`;
      if (roll < 0.45 || posted.length === 0) {
        const result = await withTransaction(database.db, (trx) => ledger.post(trx, newPosting()));
        expect(result.applied, label).toBe(true);
      } else if (roll < 0.55) {
        // Two postings in one transaction.
        await withTransaction(database.db, async (trx) => {
          await ledger.post(trx, newPosting());
          await ledger.post(trx, newPosting());
        });
      } else if (roll < 0.65) {
        // A repeated key applies only if its posting is not there any more (forgotten).
        const again = pick(posted);
        const existed = await isRecordedWith(database.db, again.idempotencyKey);
        const result = await withTransaction(database.db, (trx) => ledger.post(trx, again));
        expect(result.applied, label).toBe(!existed);
      } else if (roll < 0.8) {
        const target = pick(posted);
        const wasPending = await isRecordedWith(database.db, target.idempotencyKey, 'pending');
        expect(await withTransaction(database.db, (trx) => ledgerRepository.book(trx, target.idempotencyKey)), label).toBe(wasPending);
      } else if (roll < 0.9) {
        // A transaction that fails after posting and booking leaves no trace.
        const target = pick(posted).idempotencyKey;
        await expect(
          withTransaction(database.db, async (trx) => {
            await ledger.post(trx, newPosting());
            await ledgerRepository.book(trx, target);
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
      } else {
        const forgotten = next() < 0.2 ? [pick(customers), clearing] : [pick(customers)];
        // Every other account but the disposable clearing account and the successor keeps its sums.
        const others = customers.filter((account) => !forgotten.includes(account));
        const before = await Promise.all(
          others.flatMap((account) => CURRENCIES.map((currency) => ledger.balances(database.db, account, currency))),
        );
        await withTransaction(database.db, (trx) => ledger.forget(trx, forgotten, { successor: suspense, disposable: [clearing] }));
        const after = await Promise.all(
          others.flatMap((account) => CURRENCIES.map((currency) => ledger.balances(database.db, account, currency))),
        );
        expect(after, label).toEqual(before);
        for (const account of forgotten) {
          for (const currency of CURRENCIES) {
            expect(await ledger.balances(database.db, account, currency), label).toMatchObject({ closingBooked: 0n, expected: 0n });
          }
        }
      }
      await expectBalancesMatchEntries(database.db, accounts, label);
    }
  });

  it('are rebuilt by the backfill from the entries alone', async () => {
    const [a, b] = [`${dialect}-bf-a`, `${dialect}-bf-b`];
    await withTransaction(database.db, async (trx) => {
      await ledger.post(trx, transfer(`${dialect}-bf-1`, a, b, 'NOK', 9_007_199_254_740_995n, 'booked'));
      await ledger.post(trx, transfer(`${dialect}-bf-2`, b, a, 'EUR', 250n, 'pending'));
    });
    const before = await storedSums(database.db);
    await sql`delete from ledger_balance`.execute(database.db);
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 0n });
    await balancesMigration.backfillLedgerBalances(database.db);
    expect(await storedSums(database.db)).toEqual(before);
    expect(await storedSums(database.db)).toEqual(await sumsFromEntries(database.db));
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 9_007_199_254_740_995n });
  });

  it('are filled by the migration from entries written before it', async () => {
    // Back to the schema before the migration, with entries written as the old code wrote them.
    await balancesMigration.down(database.db);
    const [a, b, clearing] = [`${dialect}-old-a`, `${dialect}-old-b`, `${dialect}-old-clearing`];
    const insert = async (idempotencyKey: string, status: string, legs: readonly LedgerLeg[]) => {
      const inserted = await sql<{ id: number | string }>`
        insert into ledger_transaction (idempotency_key, status, booking_date, value_date, description, created_at)
        values (${idempotencyKey}, ${status}, '2026-11-20', '2026-11-20', 'before the migration', '2026-11-20T10:00:00.000Z')
        returning id`.execute(database.db);
      for (const leg of legs) {
        await sql`insert into ledger_entry (transaction_id, account_id, currency, amount_minor)
          values (${inserted.rows[0]!.id}, ${leg.accountId}, ${leg.currency}, ${leg.amountMinor})`.execute(database.db);
      }
    };
    await insert(`${dialect}-old-1`, 'booked', transferLegs(clearing, a, 'NOK', 99_999_999_999_999_999n));
    await insert(`${dialect}-old-2`, 'pending', transferLegs(a, b, 'NOK', 1_000n));
    await insert(`${dialect}-old-3`, 'booked', [
      { accountId: clearing, currency: 'EUR', amountMinor: -30n },
      { accountId: b, currency: 'EUR', amountMinor: 10n },
      { accountId: b, currency: 'EUR', amountMinor: 20n },
    ]);
    await balancesMigration.up(database.db);

    expect(await storedSums(database.db)).toEqual(await sumsFromEntries(database.db));
    expect(await ledger.balances(database.db, a, 'NOK')).toEqual({
      closingBooked: 99_999_999_999_999_999n,
      expected: 99_999_999_999_999_999n - 1_000n,
      interimAvailable: 99_999_999_999_999_999n - 1_000n,
    });
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 0n, expected: 1_000n });
    expect(await ledger.balances(database.db, b, 'EUR')).toMatchObject({ closingBooked: 30n, expected: 30n });
    expect(await ledger.balances(database.db, clearing, 'NOK')).toMatchObject({ closingBooked: -99_999_999_999_999_999n });
    // And the repository keeps them from there.
    expect(await ledgerRepository.book(database.db, `${dialect}-old-2`)).toBe(true);
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 1_000n, expected: 1_000n });
    expect(await storedSums(database.db)).toEqual(await sumsFromEntries(database.db));
  });

  it.skipIf(dialect !== 'postgres')('do not deadlock when concurrent postings list the same two accounts in opposite order', async () => {
    const second: DatabaseHandle = createDatabase(
      { dialect: 'postgres', url: process.env['TEST_POSTGRES_URL']! },
      { poolSize: 10, searchPath: (await sql<{ search_path: string }>`show search_path`.execute(database.db)).rows[0]!.search_path },
    );
    try {
      const [x, y] = ['pg-deadlock-x', 'pg-deadlock-y'];
      const rounds = 40;
      // Each transaction holds its row locks a moment, so waiters queue on both rows at once:
      // locked in leg order, a waiter holding x and one holding y would each wait for the other.
      const writes = Array.from({ length: rounds }, (_, i) => {
        const handle = i % 2 === 0 ? database : second;
        const legs = i % 2 === 0 ? transferLegs(x, y, 'NOK', BigInt(i + 1)) : transferLegs(y, x, 'NOK', BigInt(i + 1));
        return withTransaction(handle.db, async (trx) => {
          await ledger.post(trx, { ...transfer(`pg-deadlock-${i}`, x, y, 'NOK', 1n, 'booked'), legs });
          await sql`select pg_sleep(0.01)`.execute(trx);
        });
      });
      await Promise.all(writes);
      // Even i moves i+1 from x to y; odd i moves i+1 from y to x.
      let toY = 0n;
      for (let i = 0; i < rounds; i++) toY += i % 2 === 0 ? BigInt(i + 1) : -BigInt(i + 1);
      expect(await ledger.balances(database.db, y, 'NOK')).toMatchObject({ closingBooked: toY, expected: toY });
      expect(await ledger.balances(database.db, x, 'NOK')).toMatchObject({ closingBooked: -toY, expected: -toY });
      expect(await storedSums(database.db)).toEqual(await sumsFromEntries(database.db));
    } finally {
      await second.close();
    }
  });
});

function transfer(
  idempotencyKey: string,
  from: string,
  to: string,
  currency: string,
  amountMinor: bigint,
  status: LedgerPosting['status'],
): LedgerPosting {
  return {
    idempotencyKey,
    status,
    bookingDate: '2026-11-25',
    valueDate: '2026-11-25',
    description: idempotencyKey,
    legs: transferLegs(from, to, currency, amountMinor),
  };
}
