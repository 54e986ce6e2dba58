/**
 * The batch runner in process, over a test database (test/execution/batch-runner.db.test.ts):
 * a runner built as src/app.ts builds it, with an executor that tells the test which payments
 * it executes (and lets it act at a given one, e.g. stop the run); payments and batch_run rows
 * written directly; a second PostgreSQL connection pool on the same schema (another process);
 * a row lock held by another transaction; and the exactly-once rules over readBankState (of
 * this test and of the process test, test/execution/batch-crash.process.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createSandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import type { Database } from '../../src/db/database.js';
import type { Db } from '../../src/db/create-db.js';
import type { BatchTime } from '../../src/domain/batch-schedule.js';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
import { createBankClock } from '../../src/modules/clock/bank-clock.js';
import type { BatchTrigger } from '../../src/modules/execution/batch-run-report.js';
import { createBatchRunner, type BatchRunner } from '../../src/modules/execution/batch-runner.js';
import { createPaymentExecutor } from '../../src/modules/execution/payment-executor.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import type { PaymentService } from '../../src/modules/payments/payment-products.js';
import { checkSinglePayment } from '../../src/modules/payments/payment-rules.js';
import type { SinglePaymentBody } from '../../src/modules/payments/payment.schemas.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { Payment } from '../../src/modules/payments/payment.model.js';
import type { TransactionStatus } from '../../src/modules/payments/payment-status.js';
import type { BankState, SeededAccount, SeededBank } from './batch-bank.js';
import { NDCT, ndctBody } from './payments.js';
import { accountNumber, osloDay } from './sandbox.js';
import { NO_HEADERS } from './stored-payment.js';

export interface TestRunner {
  readonly runner: BatchRunner;
  /** The ids of the payments handed to the executor, in the order it finished them. */
  readonly executed: string[];
  /** How many payments the executor has been handed so far. */
  readonly started: () => number;
}

export interface TestRunnerOptions {
  /** As src/app.ts: 4 on PostgreSQL, 1 on SQLite. */
  readonly parallelTenants?: number;
  /** No batch times: never the bank day's last run, so a payment lacking funds waits (ACCP). */
  readonly batchTimes?: readonly BatchTime[];
  readonly logger?: FastifyBaseLogger;
  /**
   * Called as the executor is handed its `n`-th payment (1-based), before it executes it (a
   * chunk's payments one after the other, as the chunk is prepared).
   */
  readonly onExecute?: (n: number, payment: Payment, runner: BatchRunner) => void;
}

/** A batch runner on `db` with the sandbox bank behind it, as src/app.ts wires it. */
export function testRunner(db: Db, dialect: 'sqlite' | 'postgres', options: TestRunnerOptions = {}): TestRunner {
  const now = () => new Date();
  const base = createPaymentExecutor(db, createSandboxCoreBanking(db, createLedger(now), now, DEFAULT_NOK_RATES));
  const executed: string[] = [];
  let started = 0;
  let runner: BatchRunner | undefined = undefined;
  runner = createBatchRunner({
    db,
    clock: createBankClock(db, now, true),
    batchTimes: options.batchTimes ?? [],
    parallelTenants: options.parallelTenants ?? (dialect === 'postgres' ? 4 : 1),
    logger: options.logger,
    executor: {
      ...base,
      async prepare(trx, payment, executionDate, at) {
        started++;
        options.onExecute?.(started, payment, runner!);
        return base.prepare(trx, payment, executionDate, at);
      },
      async prepareMany(trx, entries, at, submitted) {
        for (const { payment } of entries) {
          started++;
          options.onExecute?.(started, payment, runner!);
        }
        return base.prepareMany(trx, entries, at, submitted);
      },
      async record(trx, submission, answers, context) {
        const outcome = await base.record(trx, submission, answers, context);
        executed.push(submission.paymentId);
        return outcome;
      },
      async recordMany(trx, entries) {
        const outcomes = await base.recordMany(trx, entries);
        executed.push(...entries.map((entry) => entry.submission.paymentId));
        return outcomes;
      },
    },
  });
  return { runner, executed, started: () => started };
}

/** A pino logger writing into `lines` (parsed), for the runner's error and info lines. */
export function capturingLogger(): { logger: FastifyBaseLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

export interface InsertedPayment {
  readonly id?: string;
  readonly tppId: string;
  readonly debtor: SeededAccount;
  readonly amountMinor: bigint;
  readonly createdAt?: string;
  /** A single payment, or a standing order (with the single payment's body and a schedule). */
  readonly service?: Exclude<PaymentService, 'bulk-payments'>;
  readonly status?: TransactionStatus;
}

function decimal(minor: bigint): string {
  return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
}

/**
 * One payment written straight into the payment table (as batch-bank.ts seeds them): an NDCT
 * order checked by the payment rules, to a creditor outside the bank. A periodic one also gets a
 * start date and a frequency in its body; the runner must never execute it anyway.
 */
export async function insertPayment(db: Db, payment: InsertedPayment): Promise<string> {
  const id = payment.id ?? randomUUID();
  const body = ndctBody(payment.debtor, {
    instructedAmount: { currency: 'NOK', amount: decimal(payment.amountMinor) },
    creditorAccount: { bban: accountNumber().bban },
  });
  const order = checkSinglePayment(NDCT, body as unknown as SinglePaymentBody, {
    today: osloDay(),
    maxDaysAhead: 365,
    nokRates: DEFAULT_NOK_RATES,
  });
  const periodic = payment.service === 'periodic-payments';
  await paymentRepository.insert(db, {
    id,
    tppId: payment.tppId,
    ...(periodic
      ? { service: 'periodic-payments', body: { ...order.body, startDate: osloDay(), frequency: 'Monthly' } }
      : { service: 'payments', body: order.body }),
    product: NDCT,
    status: payment.status ?? 'ACTC',
    requestId: randomUUID(),
    psuId: payment.debtor.customerNumber,
    psuCorporateId: undefined,
    debtorAccountId: payment.debtor.id,
    currency: order.amount.currency,
    amountMinor: order.amount.minor,
    requestedExecutionDate: periodic ? undefined : order.requestedExecutionDate,
    logicalKey: order.logicalKey,
    requestContext: NO_HEADERS,
    createdAt: payment.createdAt ?? new Date().toISOString(),
  });
  return id;
}

/** A batch_run row left open, as by a server killed in the middle of a run. */
export async function openBatchRun(db: Db, run: { id: string; trigger: BatchTrigger; tppId?: string; startedAt?: string }): Promise<void> {
  await db
    .insertInto('batch_run')
    .values({
      id: run.id,
      trigger: run.trigger,
      tpp_id: run.tppId ?? null,
      started_at: run.startedAt ?? new Date(Date.now() - 60_000).toISOString(),
      finished_at: null,
      counts: null,
    })
    .execute();
}

export interface BatchRunRow {
  readonly id: string;
  readonly trigger: string;
  readonly tpp_id: string | null;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly counts: Record<string, unknown> | null;
}

/** The batch_run rows, oldest first, counts parsed. */
export async function batchRunRows(db: Db): Promise<BatchRunRow[]> {
  const rows = await db.selectFrom('batch_run').selectAll().orderBy('started_at').execute();
  return rows.map((row) => ({ ...row, counts: row.counts === null ? null : (JSON.parse(row.counts) as Record<string, unknown>) }));
}

export function counts(partial: Partial<Record<string, number>> = {}): Record<string, number> {
  return { executed: 0, partiallyExecuted: 0, awaitingFunds: 0, rejected: 0, skipped: 0, failed: 0, ...partial };
}

/** The schema the test database's connections use (its search path). */
export async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]!.schema;
}

/**
 * Another connection pool on the same PostgreSQL schema, as a second server process has, named
 * `applicationName` in pg_stat_activity (so the test sees when its connections are gone).
 */
export function otherPool(schema: string, applicationName: string, poolSize = 5): Db {
  const pool = new pg.Pool({
    connectionString: process.env['TEST_POSTGRES_URL'],
    max: poolSize,
    options: `-c search_path=${schema}`,
    application_name: applicationName,
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** The deadlocks PostgreSQL has detected in this database so far (pg_stat_database). */
export async function deadlocksSoFar(db: Db): Promise<number> {
  const { rows } = await sql<{ deadlocks: string }>`
    select cast(deadlocks as text) as deadlocks from pg_stat_database where datname = current_database()
  `.execute(db);
  return Number(rows[0]!.deadlocks);
}

/**
 * Takes the row lock of one payment in a transaction of its own connection (`select … for
 * update`), as a TPP's cancellation or another run would hold it, until `release()` commits.
 */
export async function holdPaymentLock(schema: string, paymentId: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env['TEST_POSTGRES_URL'], options: `-c search_path=${schema}` });
  await client.connect();
  await client.query('begin');
  const locked = await client.query('select id from payment where id = $1 for update', [paymentId]);
  if (locked.rowCount !== 1) throw new Error(`payment ${paymentId} not found to lock`);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query('commit');
      await client.end();
    },
  };
}

/**
 * The exactly-once rules over the seeded banks: every payment is executed in full (ACSC, one
 * ledger transaction with the right legs, ACTC>ACSP ACSP>ACSC audited) or, in `partial` mode,
 * untouched (ACTC, nothing posted or audited) or submitted with its outcome not yet recorded (ACTC
 * in flight, at most one ledger transaction, nothing audited); a limited debtor's payments may instead lack funds
 * (ACCP, or RJCT after the bank day's last run; nothing posted); every balance is opening ± what
 * was executed; the ledger is balanced. With `wholeDatabase` (the process test, whose database
 * holds the seeded banks only), also: exactly the seeded payments are stored, none is left in
 * ACSP, no ledger transaction is of another payment, and fundsAvailable says whether the funds
 * were there. The problems found (the first 20), so a failure says what is wrong.
 */
export function exactlyOnceProblems(
  state: BankState,
  banks: readonly SeededBank[],
  mode: 'partial' | 'complete',
  options: { readonly wholeDatabase?: boolean } = {},
): string[] {
  const whole = options.wholeDatabase ?? false;
  const problems: string[] = [];
  const expected = new Map<string, bigint>();
  const add = (account: string, amount: bigint) => expected.set(account, (expected.get(account) ?? 0n) + amount);
  if (whole) {
    const seeded = banks.reduce((sum, bank) => sum + bank.payments.length, 0);
    if (state.payments.size !== seeded) problems.push(`${state.payments.size} payments stored, ${seeded} seeded`);
    if ([...state.payments.values()].some((payment) => payment.status === 'ACSP')) problems.push('a payment is left in ACSP');
    if (mode === 'complete' && state.inFlight.size > 0) problems.push(`${state.inFlight.size} payments left in flight`);
  }
  for (const bank of banks) {
    const accounts = [...bank.debtors, ...bank.creditors, ...(bank.limited ? [bank.limited] : [])];
    for (const account of accounts) add(account.id, account.openingMinor);
    add(bank.clearing, 0n);
    for (const payment of bank.payments) {
      const stored = state.payments.get(payment.id);
      const postings = state.postings.get(payment.id) ?? [];
      const changes = (state.statusChanges.get(payment.id) ?? []).join(' ');
      const what = `payment ${payment.id} (${stored?.status ?? 'missing'})`;
      if (stored?.status === 'ACSC') {
        const credited = payment.creditorAccountId ?? bank.clearing;
        const legs = JSON.stringify(
          [`${payment.debtorAccountId} NOK ${-payment.amountMinor}`, `${credited} NOK ${payment.amountMinor}`].sort(),
        );
        if (postings.length !== 1) problems.push(`${what}: ${postings.length} ledger transactions payment:${payment.id}`);
        for (const posting of postings) {
          const actual = JSON.stringify(posting.map((leg) => `${leg.accountId} ${leg.currency} ${leg.amountMinor}`).sort());
          if (actual !== legs) problems.push(`${what}: legs ${actual}, expected ${legs}`);
        }
        if (changes !== 'ACTC>ACSP ACSP>ACSC') problems.push(`${what}: audited changes "${changes}"`);
        if (whole && stored.fundsAvailable !== true) problems.push(`${what}: fundsAvailable ${String(stored.fundsAvailable)}`);
        add(payment.debtorAccountId, -payment.amountMinor);
        add(credited, payment.amountMinor);
      } else if (stored?.status === 'ACTC' && mode === 'partial' && state.inFlight.has(payment.id)) {
        // Submitted, its outcome not recorded (the server stopped between the two): the bank
        // executed it once or not yet; the next run submits it again and records the outcome.
        if (postings.length > 1) problems.push(`${what}: ${postings.length} ledger transactions payment:${payment.id}`);
        if (changes !== '') problems.push(`${what}: audited changes "${changes}"`);
        if (postings.length === 1) {
          const credited = payment.creditorAccountId ?? bank.clearing;
          add(payment.debtorAccountId, -payment.amountMinor);
          add(credited, payment.amountMinor);
        }
      } else if (stored?.status === 'ACTC' && mode === 'partial') {
        if (postings.length !== 0) problems.push(`${what}: ${postings.length} ledger transactions, but not executed`);
        if (changes !== '') problems.push(`${what}: audited changes "${changes}"`);
      } else if (payment.debtorAccountId === bank.limited?.id && (stored?.status === 'ACCP' || stored?.status === 'RJCT')) {
        // Lacking funds: waiting for them (ACCP) or, after the bank day's last run, rejected.
        if (postings.length !== 0) problems.push(`${what}: ${postings.length} ledger transactions, but lacking funds`);
        if (whole && stored.fundsAvailable !== false) problems.push(`${what}: fundsAvailable ${String(stored.fundsAvailable)}`);
        if (!['ACTC>ACCP', 'ACTC>RJCT', 'ACTC>ACCP ACCP>RJCT'].includes(changes)) problems.push(`${what}: audited changes "${changes}"`);
      } else {
        problems.push(`${what}: not expected after a ${mode} run`);
      }
    }
  }
  if (whole) {
    const strays = [...state.postings.keys()].filter((id) => !state.payments.has(id));
    if (strays.length > 0) problems.push(`ledger transactions of no payment: ${strays.slice(0, 3).join(', ')}`);
  }
  for (const [account, balance] of expected) {
    const actual = state.balances.get(account) ?? 0n;
    if (actual !== balance) problems.push(`account ${account}: balance ${actual}, expected ${balance}`);
  }
  problems.push(...state.balanceDrift);
  for (const [currency, sum] of state.currencySums) if (sum !== 0n) problems.push(`the ${currency} entries sum to ${sum}, not 0`);
  return problems.slice(0, 20);
}
