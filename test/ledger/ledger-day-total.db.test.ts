/**
 * The day totals (ledger_day_total) on each database: after every step of random postings
 * (booking dates, statuses, postings that set balances and are no statement lines, many at once,
 * booking, rolled-back transactions, forgetting accounts) the statement's length for every
 * account, status and date range, now and as of an earlier posting, equals the lines the
 * statement itself reads, and the booked balance at the end of every day equals the booked
 * entries dated up to it. The migrations fill both from postings recorded before them, leaving
 * the sandbox's balance-setting postings off the statement but in the balances.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Db } from '../../src/db/create-db.js';
import * as statementCounts from '../../src/db/migrations/2026_12_04_0024_statement_counts.js';
import * as dayTotals from '../../src/db/migrations/2026_12_07_0027_ledger_day_totals.js';
import { transferLegs, type LedgerPosting, type PostingStatus } from '../../src/modules/ledger/ledger-posting.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { linearCongruential as random } from '../support/seeded-random.js';

const ledger = createLedger(() => new Date('2026-12-04T10:00:00Z'));
const DATES = ['2026-11-01', '2026-11-02', '2026-11-15', '2026-12-01'] as const;
/** The ends of day a closing balance is read at: before, between and after the postings' dates. */
const CLOSES = ['2026-10-31', ...DATES, '2026-11-20'] as const;
const RANGES: readonly { dateFrom?: string; dateTo?: string }[] = [
  {},
  { dateFrom: '2026-11-02' },
  { dateTo: '2026-11-15' },
  { dateFrom: '2026-11-02', dateTo: '2026-11-02' },
];
const STATUSES: readonly (PostingStatus | undefined)[] = [undefined, 'booked', 'pending'];

/** The lengths of these date ranges (all of them by default), now and as of `asOf`, equal the lines the statement reads. */
async function expectLengthsMatchLines(
  db: Db,
  accounts: readonly string[],
  asOf: number,
  step: string,
  ranges: readonly { dateFrom?: string; dateTo?: string }[] = RANGES,
): Promise<void> {
  for (const account of accounts) {
    for (const status of STATUSES) {
      for (const range of ranges) {
        for (const recordedUpTo of [undefined, asOf]) {
          const filter = { status, ...range, recordedUpTo };
          const lines = await ledger.statement(db, account, 'NOK', filter);
          const label = `${step}: ${account} ${JSON.stringify(filter)}`;
          expect(await ledger.statementLength(db, account, 'NOK', filter), label).toBe(lines.length);
        }
      }
    }
  }
}

/** The booked balance at the end of each day in {@link CLOSES} equals the booked entries dated up to it, summed here from the entries. */
async function expectClosingBalancesMatchEntries(db: Db, accounts: readonly string[], step: string): Promise<void> {
  for (const account of accounts) {
    for (const close of CLOSES) {
      const row = await sql<{ booked: string }>`
        select cast(coalesce(sum(e.amount_minor), 0) as text) as booked
        from ledger_entry e join ledger_transaction t on t.id = e.transaction_id
        where e.account_id = ${account} and e.currency = 'NOK' and t.status = 'booked' and t.booking_date <= ${close}`.execute(db);
      const balances = await ledger.balances(db, account, 'NOK', close);
      expect(balances.closingBooked, `${step}: ${account} at the end of ${close}`).toBe(BigInt(row.rows[0]!.booked));
    }
  }
}

/**
 * Every non-zero row of ledger_day_total of these accounts equals the entries it sums, recounted
 * here (statement lines and amounts, pending and booked alike); a row left at zero means none.
 */
async function expectDayTotalsMatchEntries(db: Db, accounts: readonly string[], step: string): Promise<void> {
  const kept = await db
    .selectFrom('ledger_day_total')
    .select([
      'account_id',
      'booking_date',
      'status',
      sql<string>`cast(lines as text)`.as('lines'),
      sql<string>`cast(amount_minor as text)`.as('amount'),
    ])
    .where('account_id', 'in', accounts)
    .where('currency', '=', 'NOK')
    .execute();
  const recounted = await sql<{ account_id: string; booking_date: string; status: string; lines: string; amount: string }>`
    select e.account_id, e.booking_date, t.status,
           cast(sum(case when t.on_statement = true then 1 else 0 end) as text) as lines,
           cast(sum(e.amount_minor) as text) as amount
    from ledger_entry e join ledger_transaction t on t.id = e.transaction_id
    where e.account_id in (${sql.join(accounts)}) and e.currency = 'NOK'
    group by e.account_id, e.booking_date, t.status`.execute(db);
  const rows = (list: readonly { account_id: string; booking_date: string; status: string; lines: string; amount: string }[]) =>
    list
      .filter((row) => row.lines !== '0' || row.amount !== '0')
      .map((row) => `${row.account_id} ${row.booking_date} ${row.status}: ${row.lines} lines, ${row.amount}`)
      .sort();
  expect(rows(kept), step).toEqual(rows(recounted.rows));
}

describe.each(DIALECTS)('day totals (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it.each([1, 2, 3])(
    'equal the entries, and give the statement lines and closing balances, after every step of a random sequence (seed %i)',
    async (seed) => {
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const clearing = `${dialect}-sc${seed}-clearing`;
      const suspense = `${dialect}-sc${seed}-suspense`;
      const customers = ['a', 'b', 'c'].map((name) => `${dialect}-sc${seed}-${name}`);
      const accounts = [...customers, clearing, suspense];
      const posted: LedgerPosting[] = [];
      let serial = 0;
      let asOf = await ledger.lastPostingId(database.db);

      const newPosting = (): LedgerPosting => {
        const from = pick(accounts);
        const to = pick(accounts.filter((account) => account !== from));
        const posting: LedgerPosting = {
          idempotencyKey: `${dialect}-sc${seed}-${serial++}`,
          status: next() < 0.4 ? 'pending' : 'booked',
          bookingDate: pick(DATES),
          valueDate: '2026-12-01',
          description: 'random',
          // Sometimes a leg on one account twice: two lines.
          legs:
            next() < 0.15
              ? [
                  { accountId: from, currency: 'NOK', amountMinor: -30n },
                  { accountId: to, currency: 'NOK', amountMinor: 10n },
                  { accountId: to, currency: 'NOK', amountMinor: 20n },
                ]
              : transferLegs(from, to, 'NOK', BigInt(1 + Math.floor(next() * 1000))),
          ...(next() < 0.15 ? { onStatement: false } : {}),
        };
        posted.push(posting);
        return posting;
      };

      for (let step = 0; step < 40; step++) {
        const roll = next();
        const label = `seed ${seed} step ${step}`;
        if (roll < 0.35 || posted.length === 0) {
          await withTransaction(database.db, (trx) => ledger.post(trx, newPosting()));
        } else if (roll < 0.5) {
          const many = Array.from({ length: 1 + Math.floor(next() * 6) }, newPosting);
          await withTransaction(database.db, (trx) => ledger.postMany(trx, [...many, pick(posted)]));
        } else if (roll < 0.7) {
          await withTransaction(database.db, (trx) => ledgerRepository.book(trx, pick(posted).idempotencyKey));
        } else if (roll < 0.8) {
          const target = pick(posted).idempotencyKey;
          await expect(
            withTransaction(database.db, async (trx) => {
              await ledger.post(trx, newPosting());
              await ledgerRepository.book(trx, target);
              throw new Error('rolled back');
            }),
          ).rejects.toThrow('rolled back');
        } else if (roll < 0.9) {
          // A snapshot: later steps' postings are not in a statement read as of this one.
          asOf = await ledger.lastPostingId(database.db);
        } else {
          const forgotten = next() < 0.3 ? [pick(customers), clearing] : [pick(customers)];
          await withTransaction(database.db, (trx) => ledger.forget(trx, forgotten, { successor: suspense, disposable: [clearing] }));
        }
        // One date range per step, in turn: every range on each database within the test's time.
        await expectLengthsMatchLines(database.db, accounts, asOf, label, [RANGES[step % RANGES.length]!]);
        await expectClosingBalancesMatchEntries(database.db, accounts, label);
        await expectDayTotalsMatchEntries(database.db, accounts, label);
      }
    },
  );

  it('are right as of a snapshot with more than 10 000 postings recorded after it (counted from the account then)', async () => {
    const [a, b, other, sink] = [`${dialect}-snap-a`, `${dialect}-snap-b`, `${dialect}-snap-other`, `${dialect}-snap-sink`] as const;
    const posting = (key: string, from: string, to: string, status: PostingStatus, bookingDate: string): LedgerPosting => ({
      idempotencyKey: key,
      status,
      bookingDate,
      valueDate: bookingDate,
      description: 'snapshot',
      legs: transferLegs(from, to, 'NOK', 100n),
    });
    await withTransaction(database.db, (trx) =>
      ledger.postMany(trx, [
        posting(`${dialect}-snap-1`, a, b, 'booked', '2026-11-01'),
        posting(`${dialect}-snap-2`, b, a, 'pending', '2026-11-02'),
      ]),
    );
    const snapshot = await ledger.lastPostingId(database.db);
    const later = Array.from({ length: 10_050 }, (_, i) => posting(`${dialect}-snap-later-${i}`, other, sink, 'booked', '2026-11-15'));
    later.push(posting(`${dialect}-snap-later-a`, a, b, 'booked', '2026-11-15'));
    await withTransaction(database.db, (trx) => ledger.postMany(trx, later));
    await ledgerRepository.book(database.db, `${dialect}-snap-2`);
    for (const status of STATUSES) {
      const filter = { status, recordedUpTo: snapshot };
      const lines = await ledger.statement(database.db, a, 'NOK', filter);
      expect(await ledger.statementLength(database.db, a, 'NOK', filter), JSON.stringify(filter)).toBe(lines.length);
    }
    expect(await ledger.statementLength(database.db, a, 'NOK', { recordedUpTo: snapshot })).toBe(2);
    expect(await ledger.statementLength(database.db, a, 'NOK', {})).toBe(3);
  }, 60_000);

  it('are filled by the migrations, the sandbox’s balance-setting postings left off the statement but in the balances', async () => {
    const [a, b, adjustment] = [`${dialect}-mig-a`, `${dialect}-mig-b`, `${dialect}-mig-adjustment`];
    await dayTotals.down(database.db);
    await statementCounts.down(database.db);
    // Postings as the code before the migration wrote them: no on_statement, no counts.
    const insert = async (idempotencyKey: string, status: string, bookingDate: string, from: string, to: string) => {
      const inserted = await sql<{ id: number | string }>`
        insert into ledger_transaction (idempotency_key, status, booking_date, value_date, description, created_at)
        values (${idempotencyKey}, ${status}, ${bookingDate}, ${bookingDate}, 'before the migration', '2026-12-01T10:00:00.000Z')
        returning id`.execute(database.db);
      for (const leg of transferLegs(from, to, 'NOK', 500n)) {
        await sql`insert into ledger_entry (transaction_id, account_id, currency, amount_minor, booking_date)
          values (${inserted.rows[0]!.id}, ${leg.accountId}, ${leg.currency}, ${leg.amountMinor}, ${bookingDate})`.execute(database.db);
        // The kept sums, which that code wrote with the entries too.
        const booked = status === 'booked' ? leg.amountMinor : 0n;
        await sql`insert into ledger_balance (account_id, currency, booked_minor, expected_minor)
          values (${leg.accountId}, ${leg.currency}, ${booked}, ${leg.amountMinor})
          on conflict (account_id, currency) do update set
            booked_minor = ledger_balance.booked_minor + excluded.booked_minor,
            expected_minor = ledger_balance.expected_minor + excluded.expected_minor`.execute(database.db);
      }
    };
    await insert(`sandbox:opening:${a}`, 'booked', '2026-11-01', adjustment, a);
    await insert(`sandbox:balance:${dialect}-mig`, 'booked', '2026-11-20', adjustment, b);
    await insert(`sandbox:transaction:${dialect}-mig-1`, 'booked', '2026-11-02', a, b);
    await insert(`payment:${dialect}-mig-2`, 'pending', '2026-11-03', a, b);
    await statementCounts.up(database.db);
    await dayTotals.up(database.db);

    const lines = await ledger.statement(database.db, a, 'NOK', {});
    expect(lines.map((line) => line.idempotencyKey)).toEqual([`payment:${dialect}-mig-2`, `sandbox:transaction:${dialect}-mig-1`]);
    expect(await ledger.statement(database.db, b, 'NOK', {})).toHaveLength(2);
    await expectLengthsMatchLines(database.db, [a, b, adjustment], await ledger.lastPostingId(database.db), 'after the migration');
    await expectClosingBalancesMatchEntries(database.db, [a, b, adjustment], 'after the migration');
    await expectDayTotalsMatchEntries(database.db, [a, b, adjustment], 'after the migration');
    // And the repository keeps them from there.
    expect(await ledgerRepository.book(database.db, `payment:${dialect}-mig-2`)).toBe(true);
    expect(await ledger.statementLength(database.db, a, 'NOK', { status: 'booked' })).toBe(2);
    await expectLengthsMatchLines(database.db, [a, b, adjustment], await ledger.lastPostingId(database.db), 'after booking');
    await expectClosingBalancesMatchEntries(database.db, [a, b, adjustment], 'after booking');
  });
});
