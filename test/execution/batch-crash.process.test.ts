/**
 * Batch runs against the compiled server, `node dist/bundle/main.js serve`, as real
 * processes that are killed and run side by side:
 * - SIGKILL in the middle of a run over thousands of approved payments (SQLite, and PostgreSQL
 *   when TEST_POSTGRES_URL is set), at a moment when payments have been submitted to the bank
 *   and executed there but their outcome is not committed: right after the kill every payment
 *   is either executed in full (ACSC, one ledger transaction `payment:<id>` with the right legs,
 *   its two audited status changes), untouched (ACTC, nothing posted, nothing audited), or
 *   submitted and not recorded (ACTC marked in flight, at most one ledger transaction, nothing
 *   audited, and some with their money moved); nothing is left in ACSP; every
 *   ledger_balance row equals the sum of its entries and the ledger is balanced. The restarted
 *   server (XS2A_BATCH_SCHEDULE=true) finishes the interrupted run at its start and closes the
 *   open batch_run row; a further requested run finds nothing: every payment executed exactly
 *   once, every balance exactly opening − payments (debtors) or + payments (creditors).
 * - Two servers on one PostgreSQL schema run the batch at the same moment, for two TPPs: the
 *   executed counts of each TPP's two runs add up to its payments, what one run skipped the other
 *   executed, every payment is executed once, a debtor whose funds cover only some of its
 *   payments is not overdrawn, and each server's /metrics counts its own runs.
 * - `serve --workers 2` (SQLite, and PostgreSQL when set), with several batch-run requests at
 *   once landing on both workers: the same exactly-once result, and no run fails a payment
 *   because another worker's run was writing at the same time.
 * The payments are validated by the payment rules and inserted in status ACTC (approved) with
 * the payment repository; the TPPs' accounts are made by the sandbox bank's services
 * (test/support/batch-bank.ts). The file builds dist/ first when it is missing or older than src/.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningCredentials } from '../../src/client/request-signer.js';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { connectionsOf, openProcessDatabase, readBankState, seedBank, statusCounts, type SeededBank } from '../support/batch-bank.js';
import { batchRunRows, counts, exactlyOnceProblems } from '../support/batch-runner.js';
import { DIALECTS, type TestDatabase } from '../support/databases.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import {
  clientOf,
  ensureBuilt,
  killStartedServers,
  sandboxTppCredentials,
  startServerProcess,
  until,
  type LogLine,
  type ServerProcess,
} from '../support/server-process.js';

const POSTGRES = Boolean(process.env['TEST_POSTGRES_URL']);
const TPP = 'PSDNO-FSA-123456789';
const OTHER_TPP = 'PSDNO-FSA-987654321';
/** Enough that a run lasts seconds on either database, so the kill lands in its middle. */
const KILL_PAYMENTS = 3000;
/** Per TPP, in the two-servers case. */
const CONCURRENT_PAYMENTS = 400;
const WORKER_PAYMENTS = 600;
const SQLITE_WORKER_PAYMENTS = 1500;
const RICH = 100_000_000n; // NOK 1 000 000.00: far more than any debtor's payments
const COUNT_NAMES = ['executed', 'partiallyExecuted', 'awaitingFunds', 'rejected', 'skipped', 'failed'] as const;
type Counts = Record<(typeof COUNT_NAMES)[number], number>;

interface RunAnswer {
  readonly batchRunId: string;
  readonly counts: Counts;
}

type RunLine = LogLine & Counts & { readonly batchRunId: string; readonly due: number; readonly trigger: string };

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-batch-crash-'));
  tempDirs.push(dir);
  return dir;
}

beforeAll(() => ensureBuilt(), 180_000);

afterAll(() => {
  // Only what this file started, by handle.
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** Payments in flight (submitted, outcome not recorded, still ACTC) whose money the bank has moved. */
async function submittedNotRecorded(db: TestDatabase['db']): Promise<number> {
  const rows = await db
    .selectFrom('payment_submission as s')
    .innerJoin('payment as p', 'p.id', 's.payment_id')
    .innerJoin('ledger_transaction as t', (join) => join.on(sql<boolean>`t.idempotency_key = 'payment:' || s.payment_id`))
    .select('s.payment_id')
    .where('s.outcome', 'is', null)
    .where('p.status', '=', 'ACTC')
    .execute();
  return rows.length;
}

const sumOf = (run: Counts) => COUNT_NAMES.reduce((sum, name) => sum + run[name], 0);

/** A unique application_name, by which the test sees a server's PostgreSQL connections. */
function applicationName(label: string): string {
  return `xs2a-batch-${label}-${randomBytes(4).toString('hex')}`;
}

function serverEnv(dataDir: string, databaseUrl: string, batchSchedule: boolean): Record<string, string> {
  return { XS2A_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, XS2A_BATCH_SCHEDULE: String(batchSchedule) };
}

function postBatchRun(server: ServerProcess, credentials: SigningCredentials): Promise<TppResponse<RunAnswer>> {
  return clientOf(server, credentials).post<RunAnswer>('/v1/sandbox/batch-runs', undefined);
}

/** The "batch run" log lines of a server (with `due`: how many payments the run found due). */
function batchRunLines(server: ServerProcess): RunLine[] {
  return server.logs().filter((line) => line.msg === 'batch run') as RunLine[];
}

/** Log lines at level error or above. */
function errorLines(server: ServerProcess): LogLine[] {
  return server.logs().filter((line) => (line.level ?? 0) >= 50);
}

describe.each(DIALECTS)('a batch run killed with SIGKILL in its middle (%s)', (dialect) => {
  let database: TestDatabase;
  let urlFor: (name: string) => string;
  let dataDir: string;
  let credentials: SigningCredentials;
  let bank: SeededBank;
  /** How many payments the killed run left (ACTC). */
  let left = 0;
  let first: ServerProcess;
  const firstName = applicationName('killed');
  let restarted: ServerProcess | undefined;

  beforeAll(async () => {
    ({ database, urlFor } = await openProcessDatabase(dialect));
    dataDir = tempDir();
    credentials = await sandboxTppCredentials(await SandboxCa.open(dataDir), TPP);
    // The server starts (no schedule: it runs nothing unasked) while the bank is seeded.
    [bank, first] = await Promise.all([
      seedBank(database.db, { tppId: TPP, payments: KILL_PAYMENTS, debtors: 10, debtorOpeningMinor: RICH, inBankCreditors: 3 }),
      startServerProcess({ env: serverEnv(dataDir, urlFor(firstName), false) }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await restarted?.stop();
    await database?.dispose();
  });

  it('leaves every payment executed in full or untouched', async () => {
    const server = first;
    // The request never gets its answer: its server is killed first.
    const answer = postBatchRun(server, credentials).then(
      (response) => response,
      (error: unknown) => error,
    );
    // Killed between the bank's answer and the commit of the outcome: some payment is submitted
    // (marked in flight) and its money has moved in the bank, but its status is not recorded.
    const atKill = await until(
      'a fifth of the payments executed and one executed by the bank but not recorded',
      async () => {
        const byStatus = await statusCounts(database.db);
        if ((byStatus['ACSC'] ?? 0) < KILL_PAYMENTS / 5) return undefined;
        return (await submittedNotRecorded(database.db)) > 0 ? byStatus : undefined;
      },
      60_000,
      2,
    );
    if (dialect === 'postgres') expect(await connectionsOf(database.db, firstName)).toBeGreaterThan(0);
    server.child.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await answer).toBeInstanceOf(Error);
    if (dialect === 'postgres') {
      // A COMMIT the server sent just before it died may still be applied: read once its connections are gone.
      await until(
        'the killed server’s connections to close',
        async () => ((await connectionsOf(database.db, firstName)) === 0 ? true : undefined),
        10_000,
      );
    }
    const byStatus = await statusCounts(database.db);
    // The kill landed in the middle of the run: some payments executed, the others not.
    expect(Object.keys(byStatus).sort()).toEqual(['ACSC', 'ACTC']);
    expect(byStatus['ACSC']).toBeGreaterThanOrEqual(atKill['ACSC']!);
    expect(byStatus['ACTC']).toBeGreaterThan(0);
    left = byStatus['ACTC']!;
    // The bank executed them once; the restarted server submits them again and records the outcome.
    expect(await submittedNotRecorded(database.db)).toBeGreaterThan(0);
    expect(exactlyOnceProblems(await readBankState(database.db), [bank], 'partial', { wholeDatabase: true })).toEqual([]);
    // The run's row is still open: nobody finished it.
    expect(await batchRunRows(database.db)).toEqual([
      expect.objectContaining({ trigger: 'requested', tpp_id: TPP, finished_at: null, counts: null }),
    ]);
  }, 90_000);

  it('is finished by the restarted server at its start', async () => {
    expect(left).toBeGreaterThan(0);
    const [interrupted] = await batchRunRows(database.db);
    restarted = await startServerProcess({ env: serverEnv(dataDir, urlFor(applicationName('restarted')), true) });
    // The open run is closed once its payments have been run again.
    const runs = await until(
      'the interrupted run to be closed',
      async () => {
        const rows = await batchRunRows(database.db);
        return rows.find((row) => row.id === interrupted!.id)?.finished_at ? rows : undefined;
      },
      60_000,
      100,
    );
    expect(await statusCounts(database.db)).toEqual({ ACSC: KILL_PAYMENTS });
    expect(runs.find((row) => row.id === interrupted!.id)?.counts).toEqual({ interrupted: true });
    const resumed = runs.filter((row) => row.trigger === 'resumed');
    expect(resumed).toEqual([expect.objectContaining({ tpp_id: TPP, counts: counts({ executed: left }) })]);
    expect(resumed[0]!.finished_at).not.toBeNull();
  }, 90_000);

  it('leaves nothing for another run: every payment executed exactly once', async () => {
    const again = await postBatchRun(restarted!, credentials);
    expect(again.status, again.text).toBe(200);
    expect(again.body.counts).toEqual(counts());
    expect(exactlyOnceProblems(await readBankState(database.db), [bank], 'complete', { wholeDatabase: true })).toEqual([]);
    const server = restarted!;
    restarted = undefined;
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    // (The log is complete once the server has stopped: it writes asynchronously.)
    // (A scheduled run, had the clock struck a batch time meanwhile, would have found nothing either.)
    const lines = batchRunLines(server).filter((line) => line.trigger !== 'scheduled');
    expect(lines.map((line) => [line.trigger, line.due, line.executed])).toEqual([
      ['resumed', left, left],
      ['requested', 0, 0],
    ]);
    expect(errorLines(server)).toEqual([]);
  }, 60_000);
});

describe.runIf(POSTGRES)('two servers running the batch at the same moment on one PostgreSQL', () => {
  let database: TestDatabase;
  let banks: SeededBank[] = [];
  let servers: ServerProcess[] = [];
  /** Per TPP, the answers of its run on server one and on server two. */
  let answers: TppResponse<RunAnswer>[][] = [];
  // NOK 1 000 for 30 payments of NOK 100: exactly 10 can be paid.
  const LIMITED = { openingMinor: 100_000n, payments: 30, amountMinor: 10_000n };

  beforeAll(async () => {
    const opened = await openProcessDatabase('postgres');
    database = opened.database;
    const dataDir = tempDir();
    const ca = await SandboxCa.open(dataDir);
    const credentials = [await sandboxTppCredentials(ca, TPP), await sandboxTppCredentials(ca, OTHER_TPP)];
    // The servers start (no schedule: they run nothing unasked) while the banks are seeded.
    const starting = Promise.all(
      ['one', 'two'].map((label) => startServerProcess({ env: serverEnv(dataDir, opened.urlFor(applicationName(label)), false) })),
    );
    banks = [
      await seedBank(database.db, {
        tppId: TPP,
        payments: CONCURRENT_PAYMENTS,
        debtors: 5,
        debtorOpeningMinor: RICH,
        inBankCreditors: 3,
        limited: LIMITED,
      }),
      await seedBank(database.db, {
        tppId: OTHER_TPP,
        payments: CONCURRENT_PAYMENTS,
        debtors: 5,
        debtorOpeningMinor: RICH,
        inBankCreditors: 2,
      }),
    ];
    servers = await starting;
    // A first signed request to each server for each TPP, so that neither server's first run
    // starts late (its certificate parsed, its pool connected): a run that began after the other
    // had finished would have nothing left to take.
    for (const server of servers) {
      for (const tpp of credentials) expect((await clientOf(server, tpp).get('/v1/sandbox/clock')).status).toBe(200);
    }
    // Four runs at once: each TPP's batch on both servers.
    answers = await Promise.all(credentials.map((tpp) => Promise.all(servers.map((server) => postBatchRun(server, tpp)))));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.dispose();
  });

  it('has each run execute what the other did not take: every payment once', async () => {
    for (const answer of answers.flat()) expect(answer.status, answer.text).toBe(200);
    for (const [n, [one, two]] of answers.map((pair) => pair.map((answer) => answer.body.counts)).entries()) {
      const payable = CONCURRENT_PAYMENTS + (n === 0 ? 10 : 0);
      expect(one!.executed + two!.executed).toBe(payable);
      // Both took part, and what one skipped the other had taken.
      expect(one!.executed).toBeGreaterThan(0);
      expect(two!.executed).toBeGreaterThan(0);
      expect(one!.skipped + two!.skipped).toBeGreaterThan(0);
      expect(one!.skipped).toBeLessThanOrEqual(two!.executed + two!.awaitingFunds + two!.rejected);
      expect(two!.skipped).toBeLessThanOrEqual(one!.executed + one!.awaitingFunds + one!.rejected);
      for (const run of [one!, two!]) expect([run.failed, run.partiallyExecuted]).toEqual([0, 0]);
    }
    expect(exactlyOnceProblems(await readBankState(database.db), banks, 'complete', { wholeDatabase: true })).toEqual([]);
  });

  it('does not overdraw the debtor whose funds cover only some of its payments', async () => {
    const state = await readBankState(database.db);
    const limited = banks[0]!.limited!;
    const ofLimited = banks[0]!.payments.filter((payment) => payment.debtorAccountId === limited.id);
    const executed = ofLimited.filter((payment) => state.payments.get(payment.id)?.status === 'ACSC');
    expect(ofLimited).toHaveLength(LIMITED.payments);
    expect(executed).toHaveLength(10);
    const balance = state.balances.get(limited.id) ?? 0n;
    expect(balance).toBe(0n);
    expect(balance).toBe(limited.openingMinor - executed.reduce((sum, payment) => sum + payment.amountMinor, 0n));
  });

  it('counts the runs of each server in its /metrics', async () => {
    for (const [n, server] of servers.entries()) {
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(200);
      const samples = parseExposition(await response.text());
      const ofServer = answers.map((pair) => pair[n]!.body.counts);
      expect(sampleValue(samples, 'xs2a_batch_runs_total', { trigger: 'requested' })).toBe(2);
      expect(sampleValue(samples, 'xs2a_batch_run_payments_total', { outcome: 'executed' })).toBe(
        ofServer.reduce((sum, run) => sum + run.executed, 0),
      );
    }
  });

  it('records every run as finished with the counts it answered, and logged what each found due', async () => {
    const runs = await batchRunRows(database.db);
    const answered = answers.flat().map((answer) => answer.body);
    expect(runs.map((run) => run.id).sort()).toEqual(answered.map((answer) => answer.batchRunId).sort());
    for (const answer of answered) {
      expect(runs.find((run) => run.id === answer.batchRunId)).toMatchObject({ trigger: 'requested', counts: answer.counts });
    }
    expect(await Promise.all(servers.map((server) => server.stop()))).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    for (const server of servers) {
      const lines = batchRunLines(server);
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        // Each payment a run found due it executed, found taken or changed (skipped), or found lacking funds.
        const answer = answered.find((each) => each.batchRunId === line.batchRunId)!;
        expect(line.due).toBe(sumOf(answer.counts));
        expect(line.due).toBeLessThanOrEqual(CONCURRENT_PAYMENTS + LIMITED.payments);
      }
      expect(errorLines(server)).toEqual([]);
    }
  });
});

describe.each(DIALECTS)('serve --workers 2 on one %s database, with batch runs requested of both workers at once', (dialect) => {
  // SQLite: enough that the two workers' runs overlap in time.
  const payments = dialect === 'sqlite' ? SQLITE_WORKER_PAYMENTS : WORKER_PAYMENTS;
  let database: TestDatabase;
  let bank: SeededBank;
  let server: ServerProcess | undefined;
  let previousDispatcher: Dispatcher | undefined;
  let answers: TppResponse<RunAnswer>[] = [];
  /** A run requested after the concurrent ones: it takes what they left, if anything. */
  let after: TppResponse<RunAnswer>;

  beforeAll(async () => {
    const opened = await openProcessDatabase(dialect);
    database = opened.database;
    const dataDir = tempDir();
    const credentials = await sandboxTppCredentials(await SandboxCa.open(dataDir), TPP);
    const starting = startServerProcess({
      args: ['--workers', '2'],
      env: serverEnv(dataDir, opened.urlFor(applicationName('workers')), false),
    });
    bank = await seedBank(database.db, { tppId: TPP, payments, debtors: 10, debtorOpeningMinor: RICH, inBankCreditors: 3 });
    server = await starting;
    // No keep-alive: the primary hands each new connection to the next worker in turn.
    previousDispatcher = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ pipelining: 0 }));
    answers = await Promise.all(Array.from({ length: 4 }, () => postBatchRun(server!, credentials)));
    after = await postBatchRun(server, credentials);
  }, 120_000);

  afterAll(async () => {
    if (previousDispatcher) setGlobalDispatcher(previousDispatcher);
    await server?.stop();
    await database?.dispose();
  });

  it('executes every payment exactly once over the runs of both workers', async () => {
    for (const answer of [...answers, after]) expect(answer.status, answer.text).toBe(200);
    expect([...answers, after].reduce((sum, answer) => sum + answer.body.counts.executed, 0)).toBe(payments);
    expect(exactlyOnceProblems(await readBankState(database.db), [bank], 'complete', { wholeDatabase: true })).toEqual([]);
  });

  it('ran the requests on both workers, each finding due what it then executed, skipped or failed', async () => {
    // The workers log synchronously: the lines are there once the answers are.
    const lines = await until('the five batch run log lines', () => {
      const found = batchRunLines(server!);
      return found.length >= 5 ? found : undefined;
    });
    expect(lines.map((line) => line.batchRunId).sort()).toEqual([...answers, after].map((answer) => answer.body.batchRunId).sort());
    expect(new Set(lines.map((line) => line.pid)).size).toBe(2);
    for (const line of lines) expect(line.due).toBe(sumOf(line));
  });

  it('fails no payment: concurrent runs leave the payments another run took, they do not fail on them', () => {
    expect(answers.map((answer) => answer.body.counts.failed)).toEqual([0, 0, 0, 0]);
    expect(after.body.counts).toEqual(counts());
    expect(
      errorLines(server!)
        .map((line) => (line['err'] as { message?: string } | undefined)?.message ?? line.msg)
        .slice(0, 3),
    ).toEqual([]);
  });
});
