/**
 * The batch runner in process, over a test database (SQLite, and PostgreSQL when
 * TEST_POSTGRES_URL is set), with thousands of approved payments seeded directly
 * (test/support/batch-bank.ts) and the exactly-once rules checked over readBankState:
 * - a run stopped in its middle (runner.stop() as its 600th payment is taken) ends after the chunk
 *   that payment is in, executed exactly what it took, and leaves its batch_run row open; a new runner's resumeInterrupted()
 *   executes the rest, closes the old row ({"interrupted":true}) and writes a finished 'resumed'
 *   row; every payment is executed once and a further run finds nothing;
 * - a stop from outside the run (a timer, as the server's close on SIGTERM is) cuts it short too;
 * - a resume stopped again leaves the old rows (and its own) open, and does not go on to the
 *   next scope; the next resume finishes everything and closes them all;
 * - a chunk whose set-based step fails (a payment's stored body cannot be read) is taken one
 *   payment at a time: that payment fails alone, the others execute, and the next run executes it;
 * - funds covering one of two payments go to the one created first, whatever the ids' order;
 * - periodic payments are never listed (nor executed), whatever their status;
 * - the app resumes an open run when it is ready, with the schedule off (XS2A_BATCH_SCHEDULE
 *   =false), unless its deps say this process does not run the schedule (runsBatchSchedule
 *   false).
 * PostgreSQL only:
 * - two runners (two connection pools: two processes) run over 4 TPPs at the same moment: none
 *   fails a payment, their executed counts add up to the payments, PostgreSQL detects no
 *   deadlock, and every payment is executed once;
 * - a payment another transaction holds (`select … for update`) when the run reaches it is tried
 *   again at the end of the run, and executed when released meanwhile; still held, it is counted
 *   skipped, stays ACTC, and the next run executes it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import { connectionsOf, readBankState, seedBank, statusCounts, type SeededBank } from '../support/batch-bank.js';
import {
  batchRunRows,
  capturingLogger,
  counts,
  currentSchema,
  deadlocksSoFar,
  exactlyOnceProblems,
  holdPaymentLock,
  insertPayment,
  openBatchRun,
  otherPool,
  testRunner,
} from '../support/batch-runner.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { until } from '../support/server-process.js';

const POSTGRES = Boolean(process.env['TEST_POSTGRES_URL']);
const TPP = 'PSDNO-FSA-123456789';
const OTHER_TPP = 'PSDNO-FSA-987654321';
const RICH = 100_000_000n; // NOK 1 000 000.00: far more than any debtor's payments
const STOP_PAYMENTS = 2000;
/** The payment during whose execution the run is told to stop (past its first chunk). */
const STOP_AT = 600;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function richBank(tppId: string, payments: number): Parameters<typeof seedBank>[1] {
  return { tppId, payments, debtors: 10, debtorOpeningMinor: RICH, inBankCreditors: 3 };
}

describe.each(DIALECTS)('the batch runner over %s', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
  });
  afterEach(() => database?.dispose());

  it('stopped in its middle leaves its run open, and a resume executes the rest, each payment once', async () => {
    const db = database.db;
    const bank = await seedBank(db, richBank(TPP, STOP_PAYMENTS));
    const first = testRunner(db, dialect, {
      onExecute: (n, _payment, runner) => {
        if (n === STOP_AT) runner.stop();
      },
    });
    const report = await first.runner.run('requested');
    // It stopped after the chunk it was executing (that payment's), and committed what it had done.
    const done = report.counts.executed;
    expect(done).toBeGreaterThanOrEqual(STOP_AT);
    expect(done).toBeLessThan(STOP_PAYMENTS);
    expect(report.counts).toEqual(counts({ executed: done }));
    expect(first.executed).toHaveLength(done);
    expect(first.started()).toBe(done);
    expect(await statusCounts(db)).toEqual({ ACSC: done, ACTC: STOP_PAYMENTS - done });
    expect(await batchRunRows(db)).toEqual([
      expect.objectContaining({ id: report.batchRunId, trigger: 'requested', tpp_id: null, finished_at: null, counts: null }),
    ]);
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'partial')).toEqual([]);

    const second = testRunner(db, dialect);
    const resumed = await second.runner.resumeInterrupted();
    expect(resumed.map((run) => [run.trigger, run.tppId, run.counts])).toEqual([
      ['resumed', undefined, counts({ executed: STOP_PAYMENTS - done })],
    ]);
    expect(await statusCounts(db)).toEqual({ ACSC: STOP_PAYMENTS });
    expect(await batchRunRows(db)).toEqual([
      expect.objectContaining({
        id: report.batchRunId,
        trigger: 'requested',
        finished_at: expect.any(String),
        counts: { interrupted: true },
      }),
      expect.objectContaining({
        id: resumed[0]!.batchRunId,
        trigger: 'resumed',
        tpp_id: null,
        finished_at: expect.any(String),
        counts: counts({ executed: STOP_PAYMENTS - done }),
      }),
    ]);
    // The resume took none of what the stopped run had executed.
    expect(new Set([...first.executed, ...second.executed]).size).toBe(STOP_PAYMENTS);
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'complete')).toEqual([]);
    expect((await testRunner(db, dialect).runner.run('requested')).counts).toEqual(counts());
  }, 60_000);

  it('is cut short by a stop from outside the run (a timer, as the server’s close on SIGTERM)', async () => {
    const db = database.db;
    const bank = await seedBank(db, richBank(TPP, STOP_PAYMENTS));
    const { runner, started } = testRunner(db, dialect);
    let ticks = 0;
    let stoppedAfter: number | undefined;
    // What a signal handler or app.close() would do: a macrotask, once some payments are under way.
    const timer = setInterval(() => {
      ticks++;
      if (stoppedAfter === undefined && started() > 0) {
        stoppedAfter = started();
        runner.stop();
      }
    }, 5);
    const begun = performance.now();
    const report = await runner.run('requested').finally(() => clearInterval(timer));
    const ms = Math.round(performance.now() - begun);
    expect(
      stoppedAfter,
      `not stopped: ${ticks} timer ticks during the ${ms} ms run, which executed ${report.counts.executed}` +
        (ticks === 0 ? ' (the run never yields to the event loop: a signal or app.close() cannot reach it)' : ''),
    ).toBeDefined();
    expect(report.counts.executed).toBeLessThan(STOP_PAYMENTS);
    expect(await batchRunRows(db)).toEqual([expect.objectContaining({ id: report.batchRunId, finished_at: null })]);
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'partial')).toEqual([]);
  }, 60_000);

  it('resumed and stopped again, leaves the old runs open for the next start', async () => {
    const db = database.db;
    const bank = await seedBank(db, richBank(TPP, 500));
    const other = await seedBank(db, { ...richBank(OTHER_TPP, 100), debtors: 2, inBankCreditors: 1 });
    // Two runs killed servers left: one a TPP requested, then a scheduled one over every TPP.
    await openBatchRun(db, { id: 'killed-requested', trigger: 'requested', tppId: TPP, startedAt: minutesAgo(2) });
    await openBatchRun(db, { id: 'killed-scheduled', trigger: 'scheduled', startedAt: minutesAgo(1) });
    const stopped = testRunner(db, dialect, {
      onExecute: (n, _payment, runner) => {
        if (n === 100) runner.stop();
      },
    });
    const reports = await stopped.runner.resumeInterrupted();
    // The first scope's resume was stopped (after the chunk holding its 100th payment): the second scope's never started.
    const done = reports[0]!.counts.executed;
    expect(done).toBeGreaterThanOrEqual(100);
    expect(done).toBeLessThan(500);
    expect(reports.map((run) => [run.trigger, run.tppId, run.counts])).toEqual([['resumed', TPP, counts({ executed: done })]]);
    expect(await batchRunRows(db)).toEqual([
      expect.objectContaining({ id: 'killed-requested', finished_at: null, counts: null }),
      expect.objectContaining({ id: 'killed-scheduled', finished_at: null, counts: null }),
      expect.objectContaining({ id: reports[0]!.batchRunId, trigger: 'resumed', tpp_id: TPP, finished_at: null, counts: null }),
    ]);
    expect(await statusCounts(db)).toEqual({ ACSC: done, ACTC: 600 - done });
    expect(exactlyOnceProblems(await readBankState(db), [bank, other], 'partial')).toEqual([]);

    // The next start: each scope once (the TPP's, then every TPP's), then every open row closed.
    const finished = await testRunner(db, dialect).runner.resumeInterrupted();
    expect(finished.map((run) => [run.trigger, run.tppId, run.counts])).toEqual([
      ['resumed', TPP, counts({ executed: 500 - done })],
      ['resumed', undefined, counts({ executed: 100 })],
    ]);
    const rows = await batchRunRows(db);
    expect(rows).toHaveLength(5);
    expect(rows.filter((row) => row.finished_at === null)).toEqual([]);
    for (const id of ['killed-requested', 'killed-scheduled', reports[0]!.batchRunId]) {
      expect(rows.find((row) => row.id === id)?.counts, id).toEqual({ interrupted: true });
    }
    expect(await statusCounts(db)).toEqual({ ACSC: 600 });
    expect(exactlyOnceProblems(await readBankState(db), [bank, other], 'complete')).toEqual([]);
  }, 60_000);

  it('gives funds that cover one of two payments to the one created first, whatever the ids', async () => {
    const db = database.db;
    const { debtors } = await seedBank(db, { tppId: TPP, payments: 0, debtors: 1, debtorOpeningMinor: 10_000n, inBankCreditors: 0 });
    const debtor = debtors[0]!;
    // The later one has the smaller id and is inserted first.
    const later = await insertPayment(db, {
      id: '00000000-0000-4000-8000-000000000000',
      tppId: TPP,
      debtor,
      amountMinor: 10_000n,
      createdAt: minutesAgo(1),
    });
    const earlier = await insertPayment(db, {
      id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
      tppId: TPP,
      debtor,
      amountMinor: 10_000n,
      createdAt: minutesAgo(2),
    });
    expect((await paymentRepository.listExecutable(db)).map((payment) => payment.id)).toEqual([earlier, later]);
    const { runner, executed } = testRunner(db, dialect);
    const report = await runner.run('requested');
    expect(executed).toEqual([earlier, later]);
    expect(report.counts).toEqual(counts({ executed: 1, awaitingFunds: 1 }));
    const state = await readBankState(db);
    expect(state.payments.get(earlier)).toMatchObject({ status: 'ACSC', fundsAvailable: true });
    expect(state.payments.get(later)).toMatchObject({ status: 'ACCP', fundsAvailable: false });
    expect(state.postings.get(later)).toBeUndefined();
    expect(state.balances.get(debtor.id)).toBe(0n);
  });

  it('takes a chunk one payment at a time when it fails as a whole: a payment whose body cannot be read fails alone', async () => {
    const db = database.db;
    const bank = await seedBank(db, richBank(TPP, 300));
    const broken = bank.payments[10]!.id;
    const { body } = await db.selectFrom('payment').select('body').where('id', '=', broken).executeTakeFirstOrThrow();
    // An amount no payment may have: executing it throws, as a row another server version wrote might.
    const unreadable = JSON.stringify({ ...JSON.parse(body), instructedAmount: { currency: 'NOK', amount: '1.234' } });
    await db.updateTable('payment').set({ body: unreadable }).where('id', '=', broken).execute();
    const { logger, lines } = capturingLogger();
    const report = await testRunner(db, dialect, { logger }).runner.run('requested');
    expect(report.counts).toEqual(counts({ executed: 299, failed: 1 }));
    expect(lines.filter((line) => line['msg'] === 'batch run: a chunk failed as a whole; its payments are taken one by one')).toHaveLength(
      1,
    );
    expect(lines.filter((line) => line['msg'] === 'batch run: payment not executed').map((line) => line['paymentId'])).toEqual([broken]);
    expect(await statusCounts(db)).toEqual({ ACSC: 299, ACTC: 1 });
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'partial')).toEqual([]);
    // Readable again, the next run executes it, once.
    await db.updateTable('payment').set({ body }).where('id', '=', broken).execute();
    expect((await testRunner(db, dialect).runner.run('requested')).counts).toEqual(counts({ executed: 1 }));
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'complete')).toEqual([]);
  }, 60_000);

  it('never lists nor executes a periodic payment, whatever its status', async () => {
    const db = database.db;
    const { debtors } = await seedBank(db, { tppId: TPP, payments: 0, debtors: 1, debtorOpeningMinor: RICH, inBankCreditors: 0 });
    const debtor = debtors[0]!;
    const periodic: string[] = [];
    for (const status of ['ACTC', 'PDNG', 'ACCP'] as const) {
      periodic.push(
        await insertPayment(db, {
          tppId: TPP,
          debtor,
          amountMinor: 5_000n,
          service: 'periodic-payments',
          status,
          createdAt: minutesAgo(3),
        }),
      );
    }
    const single = await insertPayment(db, { tppId: TPP, debtor, amountMinor: 5_000n });
    expect((await paymentRepository.listExecutable(db)).map((payment) => payment.id)).toEqual([single]);
    expect((await paymentRepository.listExecutable(db, TPP)).map((payment) => payment.id)).toEqual([single]);
    const { runner, executed } = testRunner(db, dialect);
    expect((await runner.run('requested')).counts).toEqual(counts({ executed: 1 }));
    expect(executed).toEqual([single]);
    const state = await readBankState(db);
    expect(periodic.map((id) => [state.payments.get(id)?.status, state.postings.get(id)])).toEqual([
      ['ACTC', undefined],
      ['PDNG', undefined],
      ['ACCP', undefined],
    ]);
  });
});

describe.each(DIALECTS)('the app at its start over %s', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let bank: SeededBank;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'xs2a-runner-app-'));
    // What a server killed in the middle of a run left: approved payments and the run's open row.
    bank = await seedBank(database.db, { tppId: TPP, payments: 5, debtors: 1, debtorOpeningMinor: RICH, inBankCreditors: 1 });
    await openBatchRun(database.db, { id: 'killed', trigger: 'scheduled' });
  });
  afterEach(async () => {
    await database?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The app as the server builds it, with the schedule off, on the seeded database. */
  async function app(runsBatchSchedule?: boolean) {
    const config = loadConfig({ XS2A_DATA_DIR: dataDir, LOG_LEVEL: 'silent', XS2A_BATCH_SCHEDULE: 'false' });
    expect(config.batchSchedule).toBe(false);
    return buildApp(config, { database, trustStore: new TrustStore([]), runsBatchSchedule });
  }

  it('finishes the run a stopped server left, with XS2A_BATCH_SCHEDULE=false', async () => {
    const server = await app();
    try {
      await server.ready();
      const rows = await until(
        'the killed run to be closed',
        async () => {
          const found = await batchRunRows(database.db);
          return found.find((row) => row.id === 'killed')?.finished_at ? found : undefined;
        },
        10_000,
        20,
      );
      expect(rows).toEqual([
        expect.objectContaining({ id: 'killed', counts: { interrupted: true } }),
        expect.objectContaining({ trigger: 'resumed', tpp_id: null, finished_at: expect.any(String), counts: counts({ executed: 5 }) }),
      ]);
      expect(await statusCounts(database.db)).toEqual({ ACSC: 5 });
      expect(exactlyOnceProblems(await readBankState(database.db), [bank], 'complete')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('resumes nothing when its deps say another process runs the schedule (runsBatchSchedule false)', async () => {
    const server = await app(false);
    try {
      await server.ready();
      await sleep(300);
    } finally {
      await server.close();
    }
    expect(await batchRunRows(database.db)).toEqual([expect.objectContaining({ id: 'killed', finished_at: null, counts: null })]);
    expect(await statusCounts(database.db)).toEqual({ ACTC: 5 });
  });
});

describe.runIf(POSTGRES)('two runners at the same moment on one PostgreSQL schema', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });
  afterAll(() => database?.dispose());

  it('execute every payment of 4 TPPs once: none failed, no deadlock', async () => {
    const db = database.db;
    const banks: SeededBank[] = [];
    for (let n = 0; n < 4; n++) {
      banks.push(await seedBank(db, { ...richBank(`PSDNO-FSA-55500000${n}`, 300), debtors: 5, inBankCreditors: 2 }));
    }
    const total = banks.reduce((sum, bank) => sum + bank.payments.length, 0);
    const schema = await currentSchema(db);
    const names = ['one', 'two'].map((label) => `xs2a-runner-${label}-${randomBytes(4).toString('hex')}`);
    const pools = names.map((name) => otherPool(schema, name));
    const logs = names.map(() => capturingLogger());
    const runners = pools.map((pool, n) => testRunner(pool, 'postgres', { parallelTenants: 4, logger: logs[n]!.logger }));
    const deadlocksBefore = await deadlocksSoFar(db);

    const reports = await Promise.all(runners.map(({ runner }) => runner.run('scheduled')));

    // A backend reports its statistics when it exits at the latest: close the runners' first.
    await Promise.all(pools.map((pool) => pool.destroy()));
    await until(
      'the runners’ connections to close',
      async () => ((await Promise.all(names.map((name) => connectionsOf(db, name)))).every((n) => n === 0) ? true : undefined),
      10_000,
    );
    expect((await deadlocksSoFar(db)) - deadlocksBefore).toBe(0);
    expect(logs.flatMap(({ lines }) => lines.filter((line) => Number(line['level']) >= 50))).toEqual([]);
    for (const report of reports) {
      expect(report.counts).toEqual(counts({ executed: report.counts.executed, skipped: report.counts.skipped }));
      // Both ran at once: each executed some.
      expect(report.counts.executed).toBeGreaterThan(0);
    }
    expect(reports[0]!.counts.executed + reports[1]!.counts.executed).toBe(total);
    const [one, two] = runners;
    expect(new Set([...one!.executed, ...two!.executed]).size).toBe(one!.executed.length + two!.executed.length);
    expect(await statusCounts(db)).toEqual({ ACSC: total });
    expect(exactlyOnceProblems(await readBankState(db), banks, 'complete')).toEqual([]);
    expect((await batchRunRows(db)).map((row) => [row.trigger, row.counts])).toEqual(
      expect.arrayContaining(reports.map((report) => ['scheduled', report.counts])),
    );
  }, 60_000);
});

describe.runIf(POSTGRES)('a payment another transaction holds, on PostgreSQL', () => {
  let database: TestDatabase;
  let schema: string;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    schema = await currentSchema(database.db);
  });
  afterAll(() => database?.dispose());

  it('is tried again at the end of the run, and executed once released meanwhile', async () => {
    const db = database.db;
    // The lock is released once the run has found the payment locked (its chunk's other payments
    // are being prepared), while the rest of the run goes on: the run's last pass takes it.
    const bank = await seedBank(db, richBank(TPP, 400));
    // The first payment the run takes.
    const target = (await paymentRepository.listExecutable(db, TPP))[0]!.id;
    const lock = await holdPaymentLock(schema, target);
    let releasedAt = Infinity;
    let releasing: Promise<void> | undefined;
    const { runner, executed } = testRunner(db, 'postgres', {
      onExecute: (n) => {
        if (n === 1) {
          releasing = lock.release().then(() => {
            releasedAt = performance.now();
          });
        }
      },
    });
    const report = await runner.run('requested', TPP);
    const finishedAt = performance.now();
    expect(releasing).toBeDefined();
    await releasing;
    expect(releasedAt).toBeLessThan(finishedAt);
    expect(report.counts).toEqual(counts({ executed: 400 }));
    // Found locked first, it was executed last: after every other.
    expect(executed).toHaveLength(400);
    expect(executed.at(-1)).toBe(target);
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'complete')).toEqual([]);
  }, 30_000);

  it('is counted skipped and left for the next run while still held at the run’s end', async () => {
    const db = database.db;
    const bank = await seedBank(db, { ...richBank(OTHER_TPP, 50), debtors: 2, inBankCreditors: 1 });
    const target = (await paymentRepository.listExecutable(db, OTHER_TPP))[10]!.id;
    const lock = await holdPaymentLock(schema, target);
    try {
      const report = await testRunner(db, 'postgres').runner.run('requested', OTHER_TPP);
      expect(report.counts).toEqual(counts({ executed: 49, skipped: 1 }));
      expect((await batchRunRows(db)).find((row) => row.id === report.batchRunId)).toMatchObject({
        finished_at: expect.any(String),
        counts: counts({ executed: 49, skipped: 1 }),
      });
    } finally {
      await lock.release();
    }
    const state = await readBankState(db);
    expect(bank.payments.filter((payment) => state.payments.get(payment.id)?.status !== 'ACSC').map((payment) => payment.id)).toEqual([
      target,
    ]);
    expect(exactlyOnceProblems(state, [bank], 'partial')).toEqual([]);
    const { runner, executed } = testRunner(db, 'postgres');
    expect((await runner.run('requested', OTHER_TPP)).counts).toEqual(counts({ executed: 1 }));
    expect(executed).toEqual([target]);
    expect(exactlyOnceProblems(await readBankState(db), [bank], 'complete')).toEqual([]);
  }, 30_000);
});
