/**
 * The sandbox ledger on each database: for random sequences
 * of postings the balances equal the sum of the postings; a posting repeated under the same key
 * applies once; concurrent postings on one account from separate connection pools never lose an
 * update; pending postings count in `expected` only until booked; amounts beyond 2^53 minor units
 * stay exact; forgetting accounts (a sandbox deletion) removes their own postings whole, never half
 * of one, and moves their legs of postings with other accounts to a successor, changing no other
 * account's entries; many postings at once (a payment file) record and sum as posting each in
 * turn, and one unbalanced posting refuses the whole file; a statement line has the details
 * (counterparty, remittance) its posting carried.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, withTransaction, type DatabaseHandle } from '../../src/db/create-db.js';
import { transferLegs, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { balanceKey, createLedger } from '../../src/modules/ledger/ledger.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { linearCongruential as random } from '../support/seeded-random.js';

const ledger = createLedger(() => new Date('2026-11-20T10:00:00Z'));

function transfer(key: string, from: string, to: string, amountMinor: bigint, status: LedgerPosting['status'] = 'booked'): LedgerPosting {
  return {
    idempotencyKey: key,
    status,
    bookingDate: '2026-11-20',
    valueDate: '2026-11-20',
    description: key,
    legs: transferLegs(from, to, 'NOK', amountMinor),
  };
}

describe.each(DIALECTS)('sandbox ledger (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it.each([1, 2, 3, 4, 5])('keeps balances equal to the sum of random postings (seed %i)', async (seed) => {
    const next = random(seed);
    const accounts = ['a', 'b', 'c', 'd'].map((name) => `${dialect}-${seed}-${name}`);
    const expected = new Map(accounts.map((account) => [account, 0n]));
    const postings: LedgerPosting[] = [];
    for (let i = 0; i < 60; i++) {
      const from = accounts[Math.floor(next() * accounts.length)]!;
      const to = accounts.filter((account) => account !== from)[Math.floor(next() * (accounts.length - 1))]!;
      const amount = BigInt(1 + Math.floor(next() * 1_000_000));
      postings.push(transfer(`${dialect}-${seed}-${i}`, from, to, amount));
      expected.set(from, expected.get(from)! - amount);
      expected.set(to, expected.get(to)! + amount);
    }
    // Every third posting is sent twice: a repeated key must not apply again.
    for (const [i, posting] of postings.entries()) {
      await withTransaction(database.db, (trx) => ledger.post(trx, posting));
      if (i % 3 === 0) {
        const again = await withTransaction(database.db, (trx) => ledger.post(trx, posting));
        expect(again.applied).toBe(false);
      }
    }
    let total = 0n;
    for (const account of accounts) {
      const balances = await ledger.balances(database.db, account, 'NOK');
      expect(balances.closingBooked).toBe(expected.get(account));
      expect(balances.expected).toBe(expected.get(account));
      total += balances.closingBooked;
    }
    expect(total).toBe(0n);
  });

  it('posts many at once as posting each in turn: keys recorded before and repeats applied once, balances and statements the same', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => `${dialect}-many-${name}`);
    const before = await withTransaction(database.db, (trx) => ledger.post(trx, transfer(`${dialect}-many-0`, a!, b!, 100n)));
    // 1 200 postings: more than one insert statement's slice of transactions and of legs.
    const postings = Array.from({ length: 1200 }, (_, i) =>
      transfer(
        `${dialect}-many-${i}`,
        i % 2 === 0 ? a! : b!,
        i % 3 === 0 ? c! : i % 2 === 0 ? b! : a!,
        BigInt(1 + i),
        i % 5 === 0 ? 'pending' : 'booked',
      ),
    );
    const file = [...postings, postings[7]!];
    const recorded = await withTransaction(database.db, (trx) => ledger.postMany(trx, file));
    expect(recorded.map((posting) => posting.applied)).toEqual(file.map((_, i) => i !== 0 && i !== 1200));
    expect(recorded[0]!.transactionId).toBe(before.transactionId);
    expect(recorded[1200]!.transactionId).toBe(recorded[7]!.transactionId);
    expect(new Set(recorded.map((posting) => posting.transactionId)).size).toBe(1200);
    const sums = new Map<string, { booked: bigint; expected: bigint }>();
    const add = (account: string, amount: bigint, booked: boolean) => {
      const sum = sums.get(account) ?? { booked: 0n, expected: 0n };
      sums.set(account, { booked: sum.booked + (booked ? amount : 0n), expected: sum.expected + amount });
    };
    add(a!, -100n, true);
    add(b!, 100n, true);
    for (const posting of postings.slice(1)) {
      for (const leg of posting.legs) add(leg.accountId, leg.amountMinor, posting.status === 'booked');
    }
    const balances = await ledger.balancesOf(
      database.db,
      [a!, b!, c!, `${dialect}-many-none`].map((accountId) => ({ accountId, currency: 'NOK' })),
    );
    for (const account of [a!, b!, c!]) {
      const sum = sums.get(account)!;
      expect(balances.get(balanceKey(account, 'NOK'))).toEqual({
        closingBooked: sum.booked,
        expected: sum.expected,
        interimAvailable: sum.expected,
      });
      expect(await ledger.balances(database.db, account, 'NOK')).toEqual(balances.get(balanceKey(account, 'NOK')));
    }
    expect(balances.get(balanceKey(`${dialect}-many-none`, 'NOK'))).toEqual({ closingBooked: 0n, expected: 0n, interimAvailable: 0n });
    const lines = await ledger.statement(database.db, c!, 'NOK', {});
    // The first key was recorded before, between a and b: c has no leg of it.
    expect(lines).toHaveLength(postings.filter((_, i) => i > 0 && i % 3 === 0).length);
    expect(await ledger.recordedAmong(database.db, [`${dialect}-many-5`, `${dialect}-many-none`])).toEqual(new Set([`${dialect}-many-5`]));
  });

  it('gives each statement line the details its posting carried, from one posting or many, and none where none were given', async () => {
    const [a, b] = ['a', 'b'].map((name) => `${dialect}-details-${name}`);
    const withKid: LedgerPosting = {
      ...transfer(`${dialect}-details-kid`, a!, b!, 250n),
      details: { counterpartyName: 'Fjordkraft AS', counterpartyAccount: { bban: '15030154426' }, remittanceReference: '1234567890128' },
    };
    const withText: LedgerPosting = {
      ...transfer(`${dialect}-details-text`, b!, a!, 75n),
      details: { counterpartyName: 'Kari Nordmann', counterpartyAccount: { iban: 'NO9386011117947' }, remittanceUnstructured: 'Middag' },
    };
    const plain = transfer(`${dialect}-details-plain`, a!, b!, 10n);
    await withTransaction(database.db, (trx) => ledger.post(trx, withKid));
    await withTransaction(database.db, (trx) => ledger.postMany(trx, [withText, plain]));
    const lines = await ledger.statement(database.db, a!, 'NOK', {});
    const byKey = new Map(lines.map((line) => [line.idempotencyKey, line.details]));
    expect(byKey.get(withKid.idempotencyKey)).toEqual({
      counterpartyName: 'Fjordkraft AS',
      counterpartyAccount: { bban: '15030154426' },
      remittanceUnstructured: undefined,
      remittanceReference: '1234567890128',
    });
    expect(byKey.get(withText.idempotencyKey)).toEqual({
      counterpartyName: 'Kari Nordmann',
      counterpartyAccount: { iban: 'NO9386011117947' },
      remittanceUnstructured: 'Middag',
      remittanceReference: undefined,
    });
    expect(Object.values(byKey.get(plain.idempotencyKey)!).every((value) => value === undefined)).toBe(true);
    // The same details on the other account's line of the same posting.
    const [other] = await ledger.statement(database.db, b!, 'NOK', { key: withKid.idempotencyKey });
    expect(other!.details).toEqual(byKey.get(withKid.idempotencyKey));
  });

  it('refuses a file of postings with one unbalanced, and writes none of them', async () => {
    const fine = transfer(`${dialect}-file-fine`, `${dialect}-file-a`, `${dialect}-file-b`, 5n);
    const unbalanced: LedgerPosting = { ...transfer(`${dialect}-file-bad`, `${dialect}-file-a`, `${dialect}-file-b`, 1n), legs: [] };
    await expect(withTransaction(database.db, (trx) => ledger.postMany(trx, [fine, unbalanced]))).rejects.toThrow('at least two legs');
    expect(await ledger.recordedAmong(database.db, [fine.idempotencyKey])).toEqual(new Set());
  });

  it('applies a posting repeated under the same key once, even concurrently', async () => {
    const posting = transfer(`${dialect}-dup`, `${dialect}-dup-a`, `${dialect}-dup-b`, 500n);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => withTransaction(database.db, (trx) => ledger.post(trx, posting))),
    );
    const applied = results.filter((result) => result.status === 'fulfilled' && result.value.applied);
    expect(applied).toHaveLength(1);
    expect((await ledger.balances(database.db, `${dialect}-dup-b`, 'NOK')).closingBooked).toBe(500n);
  });

  it('rolls a posting back with the transaction that carried it', async () => {
    await expect(
      withTransaction(database.db, async (trx) => {
        await ledger.post(trx, transfer(`${dialect}-rollback`, `${dialect}-rb-a`, `${dialect}-rb-b`, 700n));
        throw new Error('the status change failed');
      }),
    ).rejects.toThrow('the status change failed');
    expect((await ledger.balances(database.db, `${dialect}-rb-b`, 'NOK')).closingBooked).toBe(0n);
    const retried = await withTransaction(database.db, (trx) =>
      ledger.post(trx, transfer(`${dialect}-rollback`, `${dialect}-rb-a`, `${dialect}-rb-b`, 700n)),
    );
    expect(retried.applied).toBe(true);
  });

  it('counts pending postings in expected until they are booked', async () => {
    const account = `${dialect}-pending`;
    await withTransaction(database.db, (trx) => ledger.post(trx, transfer(`${dialect}-p1`, 'system:clearing', account, 10_000n)));
    await withTransaction(database.db, (trx) => ledger.post(trx, transfer(`${dialect}-p2`, account, 'system:clearing', 2_500n, 'pending')));
    expect(await ledger.balances(database.db, account, 'NOK')).toEqual({
      closingBooked: 10_000n,
      expected: 7_500n,
      interimAvailable: 7_500n,
    });
    expect(await ledgerRepository.book(database.db, `${dialect}-p2`)).toBe(true);
    expect(await ledgerRepository.book(database.db, `${dialect}-p2`)).toBe(false);
    expect((await ledger.balances(database.db, account, 'NOK')).closingBooked).toBe(7_500n);
  });

  it('keeps amounts above 2^53 minor units exact', async () => {
    const big = 99_999_999_999_999_999n; // 14 integer digits and 3 decimals, the largest amount docs/design.md §2 allows
    await withTransaction(database.db, (trx) => ledger.post(trx, transfer(`${dialect}-big`, `${dialect}-big-a`, `${dialect}-big-b`, big)));
    expect((await ledger.balances(database.db, `${dialect}-big-b`, 'NOK')).closingBooked).toBe(big);
    expect((await ledger.balances(database.db, `${dialect}-big-a`, 'NOK')).closingBooked).toBe(-big);
  });

  it('refuses an unbalanced posting and writes nothing', async () => {
    const posting: LedgerPosting = {
      ...transfer(`${dialect}-unbalanced`, `${dialect}-u-a`, `${dialect}-u-b`, 1n),
      legs: [{ accountId: `${dialect}-u-a`, currency: 'NOK', amountMinor: -1n }],
    };
    await expect(withTransaction(database.db, (trx) => ledger.post(trx, posting))).rejects.toThrow('at least two legs');
    expect((await ledger.balances(database.db, `${dialect}-u-a`, 'NOK')).closingBooked).toBe(0n);
  });

  it("forgets accounts: their own postings go whole; one that moved another account's money stays, their legs now the successor's", async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => `${dialect}-forget-${name}`) as [string, string, string];
    const clearing = `${dialect}-forget-system:clearing`;
    const options = { successor: clearing, disposable: [clearing] };
    await withTransaction(database.db, async (trx) => {
      await ledger.post(trx, transfer(`${dialect}-forget-1`, clearing, a, 1_000n));
      await ledger.post(trx, transfer(`${dialect}-forget-2`, a, b, 300n));
      await ledger.post(trx, transfer(`${dialect}-forget-3`, clearing, c, 50n));
      await ledger.post(trx, transfer(`${dialect}-forget-4`, c, a, 20n, 'pending'));
    });
    expect(await withTransaction(database.db, (trx) => ledger.forget(trx, [a], options))).toEqual({ removed: 1, kept: 2 });
    // b and c keep every entry and both sums; a has none left; the clearing account took a's side.
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 300n, expected: 300n });
    expect(await ledger.balances(database.db, c, 'NOK')).toMatchObject({ closingBooked: 50n, expected: 30n });
    expect(await ledger.balances(database.db, a, 'NOK')).toMatchObject({ closingBooked: 0n, expected: 0n });
    expect(await ledger.balances(database.db, clearing, 'NOK')).toMatchObject({ closingBooked: -350n, expected: -330n });
    const legs = async (key: string) =>
      (
        await database.db
          .selectFrom('ledger_entry')
          .innerJoin('ledger_transaction', 'ledger_transaction.id', 'ledger_entry.transaction_id')
          .select(['ledger_entry.account_id', sql<string>`cast(ledger_entry.amount_minor as text)`.as('amount')])
          .where('ledger_transaction.idempotency_key', '=', key)
          .execute()
      )
        .map((row) => `${row.account_id} ${row.amount}`)
        .sort();
    expect(await legs(`${dialect}-forget-1`)).toEqual([]);
    expect(await legs(`${dialect}-forget-2`)).toEqual([`${b} 300`, `${clearing} -300`].sort());
    expect(await legs(`${dialect}-forget-4`)).toEqual([`${c} -20`, `${clearing} 20`].sort());
    expect(await ledger.recordedAmong(database.db, [`${dialect}-forget-1`])).toEqual(new Set());
    // A kept pending posting books as before, its legs on b's side untouched.
    expect(await withTransaction(database.db, (trx) => ledgerRepository.book(trx, `${dialect}-forget-4`))).toBe(true);
    expect(await ledger.balances(database.db, c, 'NOK')).toMatchObject({ closingBooked: 30n, expected: 30n });
    const orphans = await database.db
      .selectFrom('ledger_entry')
      .select('id')
      .where('transaction_id', 'not in', (eb) => eb.selectFrom('ledger_transaction').select('id'))
      .execute();
    expect(orphans).toEqual([]);
    expect(await withTransaction(database.db, (trx) => ledger.forget(trx, [], options))).toEqual({ removed: 0, kept: 0 });
    // The successor cannot be forgotten itself: its legs would have nowhere to go.
    await expect(withTransaction(database.db, (trx) => ledger.forget(trx, [b, clearing], options))).rejects.toThrow('cannot be forgotten');
    expect(await ledger.balances(database.db, b, 'NOK')).toMatchObject({ closingBooked: 300n });
  });

  it("forgets both sides of a posting between forgotten accounts whole, and merges the successor's legs per currency", async () => {
    const [a, b, x] = ['a', 'b', 'x'].map((name) => `${dialect}-pair-${name}`) as [string, string, string];
    const clearing = `${dialect}-pair-system:clearing`;
    await withTransaction(database.db, async (trx) => {
      await ledger.post(trx, transfer(`${dialect}-pair-1`, a, b, 70n));
      // An exchange: a pays NOK to the clearing account, which pays x in EUR.
      await ledger.post(trx, {
        ...transfer(`${dialect}-pair-2`, a, clearing, 1_150n),
        legs: [...transferLegs(a, clearing, 'NOK', 1_150n), ...transferLegs(clearing, x, 'EUR', 100n)],
      });
    });
    expect(await withTransaction(database.db, (trx) => ledger.forget(trx, [a, b], { successor: clearing, disposable: [] }))).toEqual({
      removed: 1,
      kept: 1,
    });
    const legs = await database.db
      .selectFrom('ledger_entry')
      .innerJoin('ledger_transaction', 'ledger_transaction.id', 'ledger_entry.transaction_id')
      .select(['ledger_entry.account_id', 'ledger_entry.currency', sql<string>`cast(ledger_entry.amount_minor as text)`.as('amount')])
      .where('ledger_transaction.idempotency_key', 'in', [`${dialect}-pair-1`, `${dialect}-pair-2`])
      .execute();
    // The NOK legs of a and the clearing account cancel out: no zero leg is written.
    expect(legs.map((row) => `${row.account_id} ${row.currency} ${row.amount}`).sort()).toEqual(
      [`${clearing} EUR -100`, `${x} EUR 100`].sort(),
    );
    expect(await ledger.balances(database.db, clearing, 'NOK')).toMatchObject({ closingBooked: 0n, expected: 0n });
    expect(await ledger.balances(database.db, x, 'EUR')).toMatchObject({ closingBooked: 100n });
  });

  it('loses no update when two connection pools post on one account at once', async () => {
    const second: DatabaseHandle =
      dialect === 'postgres'
        ? createDatabase(
            { dialect: 'postgres', url: process.env['TEST_POSTGRES_URL']! },
            { poolSize: 5, searchPath: await searchPath(database) },
          )
        : database;
    try {
      const account = `${dialect}-hot`;
      const writes = Array.from({ length: 100 }, (_, i) => {
        const handle = i % 2 === 0 ? database : second;
        return withTransaction(handle.db, (trx) =>
          ledger.post(trx, transfer(`${dialect}-hot-${i}`, 'system:clearing', account, BigInt(i + 1))),
        );
      });
      await Promise.all(writes);
      expect((await ledger.balances(database.db, account, 'NOK')).closingBooked).toBe(BigInt((100 * 101) / 2));
    } finally {
      if (second !== database) await second.close();
    }
  });
});

async function searchPath(database: TestDatabase): Promise<string> {
  const { sql } = await import('kysely');
  const result = await sql<{ search_path: string }>`show search_path`.execute(database.db);
  return result.rows[0]!.search_path;
}
