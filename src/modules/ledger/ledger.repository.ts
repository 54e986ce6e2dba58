import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import { accountReferenceColumns, accountReferenceOf } from '../../db/account-reference-columns.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { selectArrays } from '../../db/select-arrays.js';
import { legsAfterForgetting, legsProblem, type LedgerPosting, type PostingStatus } from './ledger-posting.js';
import type { ForgetOptions, ForgetResult, RecordedPosting, StatementFilter, StatementLine } from './ledger.model.js';
import { groupBy } from '../../domain/group-by.js';

export interface AccountSums {
  /** Sum of booked entries. */
  readonly booked: bigint;
  /** Sum of booked and pending entries. */
  readonly expected: bigint;
}

const REMOVE_SLICE = 500;
/** Postings per insert or lookup statement (12 bound parameters per row inserted). */
const POSTING_SLICE = 500;
/** Legs per insert statement (4 bound parameters each). */
const ENTRY_SLICE = 1000;
/** Balance rows per upsert statement: 4 bound parameters each, well under both databases' caps. */
const BALANCE_SLICE = 500;

/** What one change adds to one account's balance row. */
interface BalanceDelta {
  readonly accountId: string;
  readonly currency: string;
  booked: bigint;
  expected: bigint;
}

/** Deltas summed per (account, currency): one statement cannot upsert the same row twice. */
class BalanceDeltas {
  private readonly byKey = new Map<string, BalanceDelta>();

  add(accountId: string, currency: string, booked: bigint, expected: bigint): void {
    const key = JSON.stringify([accountId, currency]);
    const delta = this.byKey.get(key);
    if (delta) {
      delta.booked += booked;
      delta.expected += expected;
    } else {
      this.byKey.set(key, { accountId, currency, booked, expected });
    }
  }

  /**
   * Non-zero deltas sorted by (account, currency), compared in JavaScript rather than by the
   * database's collation, so every writer locks balance rows in one order and none deadlocks.
   */
  sorted(): BalanceDelta[] {
    return [...this.byKey.values()]
      .filter((delta) => delta.booked !== 0n || delta.expected !== 0n)
      .sort((a, b) => compare(a.accountId, b.accountId) || compare(a.currency, b.currency));
  }
}

/** The sums as a balances statement reads them (text, since they may pass 2^53); no row: nothing posted. */
function sumsOfRow(row: { booked: string; expected: string } | undefined): AccountSums {
  return row ? { booked: BigInt(row.booked), expected: BigInt(row.expected) } : { booked: 0n, expected: 0n };
}

/** The key of an (account, currency) pair in the maps {@link ledgerRepository.sumsOf} answers. */
export function sumsKey(accountId: string, currency: string): string {
  return JSON.stringify([accountId, currency]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Adds the deltas to the balance rows, creating missing ones (a missing row means 0, 0). One
 * multi-row statement per slice: PostgreSQL inserts, and so locks, the rows in list order.
 */
async function applyDeltas(trx: DbOrTx, deltas: BalanceDeltas): Promise<void> {
  const rows = deltas.sorted();
  for (let start = 0; start < rows.length; start += BALANCE_SLICE) {
    await trx
      .insertInto('ledger_balance')
      .values(
        rows.slice(start, start + BALANCE_SLICE).map((delta) => ({
          account_id: delta.accountId,
          currency: delta.currency,
          booked_minor: delta.booked,
          expected_minor: delta.expected,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['account_id', 'currency']).doUpdateSet((eb) => ({
          booked_minor: eb(eb.ref('ledger_balance.booked_minor'), '+', eb.ref('excluded.booked_minor')),
          expected_minor: eb(eb.ref('ledger_balance.expected_minor'), '+', eb.ref('excluded.expected_minor')),
        })),
      )
      .execute();
  }
}

/** Day total rows per upsert statement: 6 bound parameters each. */
const DAY_TOTAL_SLICE = 500;

/**
 * How many postings recorded after a statement's snapshot {@link ledgerRepository.statementLength}
 * looks through; beyond it, counting the account's own lines is cheaper.
 */
const LATER_POSTINGS_SCANNED = 10_000;

/** What one row of ledger_day_total gains: statement lines and the sum of entries. */
interface DayTotalDelta {
  readonly accountId: string;
  readonly currency: string;
  readonly bookingDate: string;
  readonly status: string;
  lines: number;
  amount: bigint;
}

/** What changes add to ledger_day_total, summed per row. */
class DayTotalDeltas {
  private readonly byKey = new Map<string, DayTotalDelta>();

  /** One entry of a posting on `bookingDate` in `status` comes (`sign` 1) or goes (-1). */
  addEntry(
    accountId: string,
    currency: string,
    amount: bigint,
    entry: { bookingDate: string; status: string; onStatement: boolean },
    sign: 1 | -1,
  ): void {
    const key = JSON.stringify([accountId, currency, entry.bookingDate, entry.status]);
    const lines = entry.onStatement ? sign : 0;
    const signed = sign === 1 ? amount : -amount;
    const delta = this.byKey.get(key);
    if (delta) {
      delta.lines += lines;
      delta.amount += signed;
    } else {
      this.byKey.set(key, { accountId, currency, bookingDate: entry.bookingDate, status: entry.status, lines, amount: signed });
    }
  }

  /** Non-zero deltas in one order for every writer (see {@link BalanceDeltas.sorted}). */
  sorted(): DayTotalDelta[] {
    return [...this.byKey.values()]
      .filter((delta) => delta.lines !== 0 || delta.amount !== 0n)
      .sort(
        (a, b) =>
          compare(a.accountId, b.accountId) ||
          compare(a.currency, b.currency) ||
          compare(a.bookingDate, b.bookingDate) ||
          compare(a.status, b.status),
      );
  }
}

/** Adds the deltas to ledger_day_total, creating missing rows (a missing row means 0 lines, 0 amount). */
async function applyDayTotals(trx: DbOrTx, deltas: DayTotalDeltas): Promise<void> {
  const rows = deltas.sorted();
  for (let start = 0; start < rows.length; start += DAY_TOTAL_SLICE) {
    await trx
      .insertInto('ledger_day_total')
      .values(
        rows.slice(start, start + DAY_TOTAL_SLICE).map((delta) => ({
          account_id: delta.accountId,
          currency: delta.currency,
          booking_date: delta.bookingDate,
          status: delta.status,
          lines: BigInt(delta.lines),
          amount_minor: delta.amount,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['account_id', 'currency', 'booking_date', 'status']).doUpdateSet((eb) => ({
          lines: eb(eb.ref('ledger_day_total.lines'), '+', eb.ref('excluded.lines')),
          amount_minor: eb(eb.ref('ledger_day_total.amount_minor'), '+', eb.ref('excluded.amount_minor')),
        })),
      )
      .execute();
  }
}

/** The day totals a posting's legs add. */
function addDayTotalsOf(totals: DayTotalDeltas, posting: LedgerPosting): void {
  const entry = { bookingDate: posting.bookingDate, status: posting.status, onStatement: posting.onStatement !== false };
  for (const leg of posting.legs) totals.addEntry(leg.accountId, leg.currency, leg.amountMinor, entry, 1);
}

/** 1 or 0: booleans as both databases take them bound (better-sqlite3 binds no booleans; PostgreSQL reads '1' and '0'). */
function flag(value: boolean): number {
  return value ? 1 : 0;
}

/** A posting's row in ledger_transaction, its details in their columns. */
function transactionRow(posting: LedgerPosting, at: string) {
  const details = posting.details;
  const account = accountReferenceColumns(details?.counterpartyAccount);
  return {
    idempotency_key: posting.idempotencyKey,
    status: posting.status,
    booking_date: posting.bookingDate,
    value_date: posting.valueDate,
    description: posting.description,
    counterparty_name: details?.counterpartyName ?? null,
    counterparty_iban: account.iban,
    counterparty_bban: account.bban,
    remittance_unstructured: details?.remittanceUnstructured ?? null,
    remittance_reference: details?.remittanceReference ?? null,
    created_at: at,
    on_statement: flag(posting.onStatement !== false),
  };
}

/** A statement line's columns, in the order of {@link StatementLineRow}. */
const STATEMENT_LINE_COLUMNS = [
  't.id',
  't.idempotency_key',
  't.status',
  't.booking_date',
  't.value_date',
  't.description',
  't.counterparty_name',
  't.counterparty_iban',
  't.counterparty_bban',
  't.remittance_unstructured',
  't.remittance_reference',
  sql<string>`cast(e.amount_minor as text)`.as('amount'),
] as const;

/** A row of {@link STATEMENT_LINE_COLUMNS}, read as an array (select-arrays.ts). */
type StatementLineRow = [
  id: number | string | bigint,
  idempotencyKey: string,
  status: string,
  bookingDate: string,
  valueDate: string,
  description: string,
  counterpartyName: string | null,
  counterpartyIban: string | null,
  counterpartyBban: string | null,
  remittanceUnstructured: string | null,
  remittanceReference: string | null,
  amount: string,
];

/** A statement line from its row; its details hold only the fields that were given. */
function statementLineOf(row: StatementLineRow): StatementLine {
  const [id, idempotencyKey, status, bookingDate, valueDate, description, name, iban, bban, unstructured, reference, amount] = row;
  return {
    id: Number(id),
    idempotencyKey,
    status: status as PostingStatus,
    bookingDate,
    valueDate,
    description,
    details: {
      counterpartyName: name ?? undefined,
      counterpartyAccount: accountReferenceOf(iban, bban),
      remittanceUnstructured: unstructured ?? undefined,
      remittanceReference: reference ?? undefined,
    },
    amountMinor: BigInt(amount),
  };
}

/** The postings of one account's statement that `filter` selects (its `limit` aside). */
function statementLines(db: DbOrTx, accountId: string, currency: string, filter: Omit<StatementFilter, 'limit'>) {
  let query = db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .where('e.account_id', '=', accountId)
    .where('e.currency', '=', currency)
    .where('t.on_statement', '=', flag(true));
  if (filter.key !== undefined) query = query.where('t.idempotency_key', '=', filter.key);
  if (filter.status !== undefined) query = query.where('t.status', '=', filter.status);
  if (filter.dateFrom !== undefined) query = query.where('e.booking_date', '>=', filter.dateFrom);
  if (filter.dateTo !== undefined) query = query.where('e.booking_date', '<=', filter.dateTo);
  if (filter.recordedUpTo !== undefined) query = query.where('e.transaction_id', '<=', filter.recordedUpTo);
  const before = filter.before;
  if (before !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('e.booking_date', '<', before.bookingDate),
        eb.and([eb('e.booking_date', '=', before.bookingDate), eb('e.transaction_id', '<', before.id)]),
      ]),
    );
  }
  return query;
}

/**
 * An account's sums with its booked sum as it stood at the end of a day: the kept sum less the
 * day totals booked after that day (today's and any later: a row or two, whatever the number of
 * postings). One statement, so both parts see the same postings: read in two, a posting
 * committed in between would be taken off a sum that never held it.
 */
const SUMS_AT_CLOSE = preparedQuery((db, v: { accountId: string; currency: string; date: string }) =>
  db
    .selectFrom('ledger_balance as b')
    .select((eb) => {
      const bookedSince = eb
        .selectFrom('ledger_day_total as d')
        .select(sql<string>`coalesce(sum(d.amount_minor), 0)`.as('sum'))
        .whereRef('d.account_id', '=', 'b.account_id')
        .whereRef('d.currency', '=', 'b.currency')
        .where('d.booking_date', '>', v.date)
        .where('d.status', '=', 'booked');
      return [
        sql<string>`cast(b.booked_minor - (${bookedSince}) as text)`.as('booked'),
        sql<string>`cast(b.expected_minor as text)`.as('expected'),
      ];
    })
    .where('b.account_id', '=', v.accountId)
    .where('b.currency', '=', v.currency),
);

/** An account's sums: every balances read asks for them, so prepared once. */
const SUMS = preparedQuery((db, v: { accountId: string; currency: string }) =>
  db
    .selectFrom('ledger_balance')
    .select([sql<string>`cast(booked_minor as text)`.as('booked'), sql<string>`cast(expected_minor as text)`.as('expected')])
    .where('account_id', '=', v.accountId)
    .where('currency', '=', v.currency),
);

/** The only place that queries ledger_transaction, ledger_entry, ledger_balance and ledger_day_total. */
export const ledgerRepository = {
  /**
   * Records a posting once. Must run inside the caller's transaction, so the posting commits or
   * rolls back together with the status change that caused it.
   */
  async record(trx: DbOrTx, posting: LedgerPosting, at: string): Promise<RecordedPosting> {
    const inserted = await trx
      .insertInto('ledger_transaction')
      .values(transactionRow(posting, at))
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('ledger_transaction')
        .select('id')
        .where('idempotency_key', '=', posting.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { transactionId: Number(existing.id), applied: false };
    }
    const transactionId = Number(inserted.id);
    await trx
      .insertInto('ledger_entry')
      .values(
        posting.legs.map((leg) => ({
          transaction_id: transactionId,
          account_id: leg.accountId,
          currency: leg.currency,
          amount_minor: leg.amountMinor,
          booking_date: posting.bookingDate,
        })),
      )
      .execute();
    const deltas = new BalanceDeltas();
    for (const leg of posting.legs) {
      deltas.add(leg.accountId, leg.currency, posting.status === 'booked' ? leg.amountMinor : 0n, leg.amountMinor);
    }
    await applyDeltas(trx, deltas);
    const totals = new DayTotalDeltas();
    addDayTotalsOf(totals, posting);
    await applyDayTotals(trx, totals);
    return { transactionId, applied: true };
  },

  /**
   * Records many postings at once, each once under its key, in the caller's transaction: one
   * multi-row insert per slice for the transactions and for their legs, and one balance update
   * per account for all of them. Answers, in the order given, what {@link record} would have for
   * each; a key given twice is recorded once (the first), the repeat answered `applied: false`.
   */
  async recordMany(trx: DbOrTx, postings: readonly LedgerPosting[], at: string): Promise<RecordedPosting[]> {
    const firsts = new Map<string, LedgerPosting>();
    for (const posting of postings) if (!firsts.has(posting.idempotencyKey)) firsts.set(posting.idempotencyKey, posting);
    const unique = [...firsts.values()];
    const inserted = new Map<string, number>();
    for (let start = 0; start < unique.length; start += POSTING_SLICE) {
      const rows = await trx
        .insertInto('ledger_transaction')
        .values(unique.slice(start, start + POSTING_SLICE).map((posting) => transactionRow(posting, at)))
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning(['id', 'idempotency_key'])
        .execute();
      for (const row of rows) inserted.set(row.idempotency_key, Number(row.id));
    }
    const applied = unique.filter((posting) => inserted.has(posting.idempotencyKey));
    const entries = applied.flatMap((posting) =>
      posting.legs.map((leg) => ({
        transaction_id: inserted.get(posting.idempotencyKey)!,
        account_id: leg.accountId,
        currency: leg.currency,
        amount_minor: leg.amountMinor,
        booking_date: posting.bookingDate,
      })),
    );
    for (let start = 0; start < entries.length; start += ENTRY_SLICE) {
      await trx
        .insertInto('ledger_entry')
        .values(entries.slice(start, start + ENTRY_SLICE))
        .execute();
    }
    const deltas = new BalanceDeltas();
    const totals = new DayTotalDeltas();
    for (const posting of applied) {
      for (const leg of posting.legs) {
        deltas.add(leg.accountId, leg.currency, posting.status === 'booked' ? leg.amountMinor : 0n, leg.amountMinor);
      }
      addDayTotalsOf(totals, posting);
    }
    await applyDeltas(trx, deltas);
    await applyDayTotals(trx, totals);
    // Keys recorded before (or by a repeat in this call): their existing ids.
    const existing = new Map<string, number>();
    const missing = [...firsts.keys()].filter((key) => !inserted.has(key));
    for (let start = 0; start < missing.length; start += POSTING_SLICE) {
      const rows = await trx
        .selectFrom('ledger_transaction')
        .select(['id', 'idempotency_key'])
        .where('idempotency_key', 'in', missing.slice(start, start + POSTING_SLICE))
        .execute();
      for (const row of rows) existing.set(row.idempotency_key, Number(row.id));
    }
    const answered = new Set<string>();
    return postings.map((posting) => {
      const key = posting.idempotencyKey;
      const fresh = inserted.has(key) && !answered.has(key);
      answered.add(key);
      return { transactionId: inserted.get(key) ?? existing.get(key)!, applied: fresh };
    });
  },

  /** Which of these idempotency keys have been recorded. */
  async recordedAmong(db: DbOrTx, idempotencyKeys: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(idempotencyKeys)];
    const recorded = new Set<string>();
    for (let start = 0; start < unique.length; start += POSTING_SLICE) {
      const rows = await db
        .selectFrom('ledger_transaction')
        .select('idempotency_key')
        .where('idempotency_key', 'in', unique.slice(start, start + POSTING_SLICE))
        .execute();
      for (const row of rows) recorded.add(row.idempotency_key);
    }
    return recorded;
  },

  /** The sums of many (account, currency) pairs; a pair with no row is absent (its sums are 0). */
  async sumsOf(db: DbOrTx, pairs: readonly { accountId: string; currency: string }[]): Promise<Map<string, AccountSums>> {
    const wanted = new Set(pairs.map((pair) => sumsKey(pair.accountId, pair.currency)));
    const accountIds = [...new Set(pairs.map((pair) => pair.accountId))];
    const sums = new Map<string, AccountSums>();
    for (let start = 0; start < accountIds.length; start += BALANCE_SLICE) {
      const rows = await db
        .selectFrom('ledger_balance')
        .select([
          'account_id',
          'currency',
          sql<string>`cast(booked_minor as text)`.as('booked'),
          sql<string>`cast(expected_minor as text)`.as('expected'),
        ])
        .where('account_id', 'in', accountIds.slice(start, start + BALANCE_SLICE))
        .execute();
      for (const row of rows) {
        const key = sumsKey(row.account_id, row.currency);
        if (wanted.has(key)) sums.set(key, sumsOfRow(row));
      }
    }
    return sums;
  },

  /** An account's sums: one row of ledger_balance, kept with the entries (no row: nothing posted). */
  async sums(db: DbOrTx, accountId: string, currency: string): Promise<AccountSums> {
    return sumsOfRow((await SUMS.run(db, { accountId, currency })).rows[0]);
  },

  /** {@link sums} with the booked sum as it stood at the end of `date` (no row: nothing posted). */
  async sumsAtClose(db: DbOrTx, accountId: string, currency: string, date: string): Promise<AccountSums> {
    return sumsOfRow((await SUMS_AT_CLOSE.run(db, { accountId, currency, date })).rows[0]);
  },

  /**
   * Forgets accounts without touching any other account's entries (see {@link legsAfterForgetting}):
   * a transaction whose legs are all on forgotten or disposable accounts is deleted, all its legs
   * included (the foreign key cascades); in any other transaction with a leg on a forgotten
   * account, those legs move to the successor. The balances follow in the same statements'
   * transaction, so every account's row still equals the sum of its entries, and the forgotten
   * accounts' rows (now 0, 0) are dropped.
   */
  async forget(trx: DbOrTx, accountIds: readonly string[], options: ForgetOptions): Promise<ForgetResult> {
    const forgotten = new Set(accountIds);
    const disposable = new Set(options.disposable);
    if (forgotten.has(options.successor)) throw new Error(`the successor ${options.successor} cannot be forgotten itself`);
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const deltas = new BalanceDeltas();
    const totals = new DayTotalDeltas();
    const touched = new Set<number>();
    // In slices: both databases cap the number of bound parameters in one statement.
    for (let start = 0; start < accountIds.length; start += REMOVE_SLICE) {
      const slice = accountIds.slice(start, start + REMOVE_SLICE);
      // The ids fix the set that is changed: a posting committed in between is not. On PostgreSQL
      // the row locks also keep a concurrent book() from changing a status meanwhile (SQLite runs
      // one write transaction at a time).
      const rows = await trx
        .selectFrom('ledger_transaction')
        .select('id')
        .where('id', 'in', (eb) => eb.selectFrom('ledger_entry').select('transaction_id').where('account_id', 'in', slice))
        .orderBy('id')
        .$if(postgres, (qb) => qb.forUpdate())
        .execute();
      for (const row of rows) touched.add(Number(row.id));
    }
    const ids = [...touched].sort((a, b) => a - b);
    let removed = 0;
    let kept = 0;
    for (let from = 0; from < ids.length; from += REMOVE_SLICE) {
      const chunk = ids.slice(from, from + REMOVE_SLICE);
      const entries = await trx
        .selectFrom('ledger_entry')
        .innerJoin('ledger_transaction', 'ledger_transaction.id', 'ledger_entry.transaction_id')
        .select([
          'ledger_entry.id',
          'ledger_entry.transaction_id',
          'ledger_entry.account_id',
          'ledger_entry.currency',
          sql<string>`cast(ledger_entry.amount_minor as text)`.as('amount'),
          'ledger_transaction.status',
          'ledger_transaction.booking_date',
          'ledger_transaction.on_statement',
        ])
        .where('ledger_entry.transaction_id', 'in', chunk)
        .orderBy('ledger_entry.id')
        .execute();
      const byTransaction = groupBy(entries, (entry) => Number(entry.transaction_id));
      const doomed: number[] = [];
      const replaced: number[] = [];
      const added: { transaction_id: number; account_id: string; currency: string; amount_minor: bigint; booking_date: string }[] = [];
      for (const [transactionId, legs] of byTransaction) {
        const booked = legs[0]!.status === 'booked';
        const after = legsAfterForgetting(
          legs.map((leg) => ({ accountId: leg.account_id, currency: leg.currency, amountMinor: BigInt(leg.amount) })),
          forgotten,
          disposable,
          options.successor,
        );
        // The day totals change with the legs: less each leg deleted, more each leg added.
        const entry = { bookingDate: legs[0]!.booking_date, status: legs[0]!.status, onStatement: Boolean(legs[0]!.on_statement) };
        if (after === undefined) {
          doomed.push(transactionId);
          for (const leg of legs) {
            deltas.add(leg.account_id, leg.currency, booked ? -BigInt(leg.amount) : 0n, -BigInt(leg.amount));
            totals.addEntry(leg.account_id, leg.currency, BigInt(leg.amount), entry, -1);
          }
          continue;
        }
        const problem = legsProblem(after);
        if (problem) throw new Error(`forgetting accounts would leave transaction ${transactionId} wrong: ${problem}`);
        // The forgotten accounts' and the successor's legs are written again as the successor's.
        for (const leg of legs) {
          if (forgotten.has(leg.account_id) || leg.account_id === options.successor) {
            replaced.push(Number(leg.id));
            deltas.add(leg.account_id, leg.currency, booked ? -BigInt(leg.amount) : 0n, -BigInt(leg.amount));
            totals.addEntry(leg.account_id, leg.currency, BigInt(leg.amount), entry, -1);
          }
        }
        for (const leg of after) {
          if (leg.accountId !== options.successor) continue;
          added.push({
            transaction_id: transactionId,
            account_id: leg.accountId,
            currency: leg.currency,
            amount_minor: leg.amountMinor,
            booking_date: legs[0]!.booking_date,
          });
          deltas.add(leg.accountId, leg.currency, booked ? leg.amountMinor : 0n, leg.amountMinor);
          totals.addEntry(leg.accountId, leg.currency, leg.amountMinor, entry, 1);
        }
        kept++;
      }
      if (doomed.length > 0) {
        const result = await trx.deleteFrom('ledger_transaction').where('id', 'in', doomed).executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      for (let at = 0; at < replaced.length; at += REMOVE_SLICE) {
        await trx
          .deleteFrom('ledger_entry')
          .where('id', 'in', replaced.slice(at, at + REMOVE_SLICE))
          .execute();
      }
      for (let at = 0; at < added.length; at += REMOVE_SLICE) {
        await trx
          .insertInto('ledger_entry')
          .values(added.slice(at, at + REMOVE_SLICE))
          .execute();
      }
    }
    await applyDeltas(trx, deltas);
    await applyDayTotals(trx, totals);
    // A forgotten account's rows are now 0, 0 and its day totals 0: drop them, as a missing row means the same.
    for (let start = 0; start < accountIds.length; start += REMOVE_SLICE) {
      const slice = accountIds.slice(start, start + REMOVE_SLICE);
      await trx
        .deleteFrom('ledger_balance')
        .where('account_id', 'in', slice)
        .where('booked_minor', '=', 0n)
        .where('expected_minor', '=', 0n)
        .execute();
      await trx
        .deleteFrom('ledger_day_total')
        .where('account_id', 'in', slice)
        .where('lines', '=', 0n)
        .where('amount_minor', '=', 0n)
        .execute();
    }
    return { removed, kept };
  },

  /**
   * One account's postings, newest first (booking date, then id), as statement lines: the
   * account's leg and its posting. `before` continues after the last line of a page; postings
   * marked off the statement (`onStatement: false`) are left out.
   */
  async statement(db: DbOrTx, accountId: string, currency: string, filter: StatementFilter): Promise<StatementLine[]> {
    const rows = await selectArrays(
      db,
      statementLines(db, accountId, currency, filter)
        .select(STATEMENT_LINE_COLUMNS)
        // The order of ledger_entry_statement_idx, read backwards: no sort of the account's history.
        .orderBy('e.booking_date', 'desc')
        .orderBy('e.transaction_id', 'desc')
        .$if(filter.limit !== undefined, (qb) => qb.limit(filter.limit!)),
    );
    return rows.map((row) => statementLineOf(row as StatementLineRow));
  },

  /**
   * How many lines {@link statement} gives for `filter` without `before` and `limit`: the whole
   * list's length. Summed from ledger_day_total (a few rows per booking date), less the
   * lines recorded after `recordedUpTo`, in one statement so both see the same commits. Those later
   * lines are found from the postings after the snapshot, usually few (a statement is read as of
   * its first page); when there are many (an old snapshot, which the TPP's link carries), the
   * account's own lines are counted instead.
   */
  async statementLength(
    db: DbOrTx,
    accountId: string,
    currency: string,
    filter: Omit<StatementFilter, 'before' | 'limit'>,
  ): Promise<number> {
    const upTo = filter.recordedUpTo;
    const recordedSince = upTo === undefined ? 0 : (await ledgerRepository.lastPostingId(db)) - upTo;
    if (filter.key !== undefined || recordedSince > LATER_POSTINGS_SCANNED) {
      const row = await statementLines(db, accountId, currency, filter)
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('lines'))
        .executeTakeFirst();
      return Number(row?.lines ?? 0);
    }
    const row = await db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('ledger_day_total')
          .select(sql<string>`cast(coalesce(sum(lines), 0) as text)`.as('lines'))
          .where('account_id', '=', accountId)
          .where('currency', '=', currency)
          .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
          .$if(filter.dateFrom !== undefined, (qb) => qb.where('booking_date', '>=', filter.dateFrom!))
          .$if(filter.dateTo !== undefined, (qb) => qb.where('booking_date', '<=', filter.dateTo!))
          .as('counted'),
        // Driven by the postings after the snapshot, not by the account's history: the account is
        // compared as an expression, so neither database takes the statement index for it.
        eb
          .selectFrom('ledger_transaction as t')
          .innerJoin('ledger_entry as e', 'e.transaction_id', 't.id')
          .select(sql<string>`cast(count(*) as text)`.as('lines'))
          // Without a snapshot nothing is later.
          .where('t.id', '>', upTo ?? Number.MAX_SAFE_INTEGER)
          .where('t.on_statement', '=', flag(true))
          .where(sql<string>`e.account_id || ''`, '=', accountId)
          .where('e.currency', '=', currency)
          .$if(filter.status !== undefined, (qb) => qb.where('t.status', '=', filter.status!))
          .$if(filter.dateFrom !== undefined, (qb) => qb.where('e.booking_date', '>=', filter.dateFrom!))
          .$if(filter.dateTo !== undefined, (qb) => qb.where('e.booking_date', '<=', filter.dateTo!))
          .as('later'),
      ])
      .executeTakeFirstOrThrow();
    return Number(row.counted ?? 0) - Number(row.later ?? 0);
  },

  /** The id of the newest posting recorded (0 when none): a high-water mark for {@link statement}'s `recordedUpTo`. */
  async lastPostingId(db: DbOrTx): Promise<number> {
    const row = await db
      .selectFrom('ledger_transaction')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  },

  /** Postings whose key starts with `prefix`, after the id `afterId`, in id order. */
  async keysSince(db: DbOrTx, prefix: string, afterId: number, limit: number): Promise<{ id: number; idempotencyKey: string }[]> {
    const rows = await db
      .selectFrom('ledger_transaction')
      .select(['id', 'idempotency_key'])
      .where('idempotency_key', 'like', `${prefix}%`)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), idempotencyKey: row.idempotency_key }));
  },

  /** Moves a pending posting to booked (e.g. when a reserved amount settles); its legs join the booked sums. */
  async book(trx: DbOrTx, idempotencyKey: string): Promise<boolean> {
    const booked = await trx
      .updateTable('ledger_transaction')
      .set({ status: 'booked' })
      .where('idempotency_key', '=', idempotencyKey)
      .where('status', '=', 'pending')
      .returning(['id', 'booking_date', 'on_statement'])
      .executeTakeFirst();
    if (!booked) return false;
    const legs = await trx
      .selectFrom('ledger_entry')
      .select(['account_id', 'currency', sql<string>`cast(amount_minor as text)`.as('amount')])
      .where('transaction_id', '=', booked.id)
      .execute();
    const deltas = new BalanceDeltas();
    const totals = new DayTotalDeltas();
    const onStatement = Boolean(booked.on_statement);
    for (const leg of legs) {
      const amount = BigInt(leg.amount);
      deltas.add(leg.account_id, leg.currency, amount, 0n);
      // The entry leaves the day's pending total for its booked one.
      totals.addEntry(leg.account_id, leg.currency, amount, { bookingDate: booked.booking_date, status: 'pending', onStatement }, -1);
      totals.addEntry(leg.account_id, leg.currency, amount, { bookingDate: booked.booking_date, status: 'booked', onStatement }, 1);
    }
    await applyDeltas(trx, deltas);
    await applyDayTotals(trx, totals);
    return true;
  },
};
