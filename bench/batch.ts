/**
 * The batch-run figures of `npm run bench` (docs/design.md §9: "a batch run of 100 000
 * authorised payments in well under a minute on SQLite"): a run over N approved NDCT payments,
 * in-process against a fresh database, on SQLite and (when reachable) PostgreSQL, at two sizes so
 * the growth from 10 000 to 100 000 shows.
 *
 * The payments are inserted directly (approved, ACTC): creating 100 000 through the API and SCA
 * would measure the API, not the run. Their debtor accounts are real sandbox accounts of one TPP
 * with enough money, spread over four TPPs' sandboxes; every second payment goes to an account of
 * the same bank (debit and credit), the others leave the bank (debit and clearing). The runner is
 * configured as the server configures it (PostgreSQL: four TPPs at once).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createSandboxCoreBanking } from '../src/modules/sandbox/sandbox-core-banking.js';
import { createDatabase, withTransaction, type DatabaseHandle, type Db } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { checkBatchTimes, DEFAULT_BATCH_TIMES } from '../src/domain/batch-schedule.js';
import { DEFAULT_NOK_RATES } from '../src/domain/regulatory-reporting.js';
import { createBankClock } from '../src/modules/clock/bank-clock.js';
import { createBatchRunner } from '../src/modules/execution/batch-runner.js';
import { createPaymentExecutor } from '../src/modules/execution/payment-executor.js';
import { createLedger } from '../src/modules/ledger/ledger.service.js';
import { writePaymentDocument } from '../src/modules/payments/payment-document.js';
import { createSandboxBank } from '../src/modules/sandbox/sandbox-bank.service.js';

export interface BatchBenchResult {
  readonly dialect: 'sqlite' | 'postgres';
  readonly payments: number;
  readonly seconds: number;
  /** CPU seconds this process spent in the run (on SQLite the database's work too): a figure a busy machine distorts less. */
  readonly cpuSeconds: number;
  readonly paymentsPerSecond: number;
  readonly executed: number;
}

/** Sandbox tenants the payments are spread over (a shared sandbox); PostgreSQL runs several at once. */
const TPPS = ['PSDNO-FSA-987654321', 'PSDNO-FSA-987654322', 'PSDNO-FSA-987654323', 'PSDNO-FSA-987654324'];
/** A valid Norwegian BBAN of no sandbox account: payments to it leave the bank. */
const EXTERNAL_CREDITOR = '86011117947';
const INSERT_SLICE = 500;

async function openDatabase(dialect: 'sqlite' | 'postgres', postgresUrl: string | undefined) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'xs2a-bench-batch-'));
    // As in the server (server.ts): the log is checkpointed on a thread of its own.
    const handle = createDatabase(
      { dialect: 'sqlite', path: join(dir, 'bench.db') },
      { checkpointInBackground: { onError: (message) => console.error(`[bench] checkpoint: ${message}`) } },
    );
    return { handle, dispose: async () => (await handle.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = createDatabase({ dialect: 'postgres', url: postgresUrl! }, { poolSize: 5, searchPath: schema });
  return {
    handle,
    dispose: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: postgresUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

interface BenchAccount {
  readonly tppId: string;
  readonly id: string;
  readonly bban: string;
}

/** Each tenant's seeded NOK accounts, each given a balance far above what the run debits. */
async function seedAccounts(db: Db): Promise<BenchAccount[][]> {
  const now = () => new Date();
  const bank = createSandboxBank(db, createLedger(now), createBankClock(db, now, true));
  const tenants: BenchAccount[][] = [];
  for (const tppId of TPPS) {
    const caller = { tppId };
    await bank.initializer.initialize(caller);
    const accounts = (await bank.accounts.list(caller)).filter((account) => account.account.currency === 'NOK');
    for (const { account } of accounts) {
      await bank.accounts.setBalance(caller, account.id, { balanceAmount: { currency: 'NOK', amount: '1000000000.00' } });
    }
    tenants.push(accounts.map(({ account }) => ({ tppId, id: account.id, bban: account.bban })));
  }
  return tenants;
}

async function insertApprovedPayments(db: Db, count: number, tenants: readonly (readonly BenchAccount[])[]): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < count; start += INSERT_SLICE) {
    const rows = Array.from({ length: Math.min(INSERT_SLICE, count - start) }, (_, offset) => {
      const n = start + offset;
      const accounts = tenants[n % tenants.length]!;
      const k = Math.floor(n / tenants.length);
      const debtor = accounts[k % accounts.length]!;
      const creditor = k % 2 === 0 ? accounts[(k + 1) % accounts.length]!.bban : EXTERNAL_CREDITOR;
      const body = {
        debtorAccount: { bban: debtor.bban },
        instructedAmount: { currency: 'NOK', amount: `${1 + (n % 900)}.${String(n % 100).padStart(2, '0')}` },
        creditorAccount: { bban: creditor },
        creditorName: 'Bench Creditor AS',
        remittanceInformationUnstructured: `Invoice ${n}`,
      };
      return {
        id: randomUUID(),
        tpp_id: debtor.tppId,
        service: 'payments' as const,
        product: 'norwegian-domestic-credit-transfers' as const,
        status: 'ACTC' as const,
        status_reason: null,
        funds_available: null,
        request_id: randomUUID(),
        psu_id: null,
        psu_corporate_id: null,
        debtor_account_id: debtor.id,
        currency: 'NOK',
        amount_minor: BigInt(Math.round(Number(body.instructedAmount.amount) * 100)),
        requested_execution_date: null,
        logical_key: null,
        ...writePaymentDocument({ service: 'payments', body }),
        request_context: '{}',
        created_at: at,
        status_changed_at: at,
        basket_id: null,
        awaiting_funds_since: null,
      };
    });
    await withTransaction(db, (trx) => trx.insertInto('payment').values(rows).execute());
  }
}

async function measure(dialect: 'sqlite' | 'postgres', count: number, postgresUrl: string | undefined): Promise<BatchBenchResult> {
  const { handle, dispose } = await openDatabase(dialect, postgresUrl);
  try {
    await migrateToLatest(handle.db);
    const accounts = await seedAccounts(handle.db);
    await insertApprovedPayments(handle.db, count, accounts);
    const result = await run(handle, count);
    return { dialect, ...result };
  } finally {
    await dispose();
  }
}

async function run(handle: DatabaseHandle, count: number) {
  const now = () => new Date();
  const times = checkBatchTimes(DEFAULT_BATCH_TIMES);
  if (!times.ok) throw new Error('default batch times');
  const runner = createBatchRunner({
    db: handle.db,
    clock: createBankClock(handle.db, now, true),
    executor: createPaymentExecutor(handle.db, createSandboxCoreBanking(handle.db, createLedger(now), now, DEFAULT_NOK_RATES)),
    batchTimes: times.value,
    parallelTenants: handle.dialect === 'postgres' ? 4 : 1,
  });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const report = await runner.run('requested');
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (report.counts.executed !== count) {
    throw new Error(`the batch run executed ${report.counts.executed} of ${count} payments: ${JSON.stringify(report.counts)}`);
  }
  return { payments: count, seconds, cpuSeconds, paymentsPerSecond: count / seconds, executed: report.counts.executed };
}

/** Whether PostgreSQL answers at `url` (the bench then measures it too). */
async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Every size on SQLite, then on PostgreSQL when reachable; `log` tells progress. */
export async function benchBatchRuns(
  sizes: readonly number[],
  postgresUrl: string,
  log: (line: string) => void,
): Promise<BatchBenchResult[]> {
  // BENCH_BATCH_DIALECTS (comma-separated, e.g. `sqlite`) narrows the run to some databases.
  const wanted = (process.env.BENCH_BATCH_DIALECTS ?? 'sqlite,postgres').split(',').map((name) => name.trim());
  const dialects: ('sqlite' | 'postgres')[] = wanted.includes('sqlite') ? ['sqlite'] : [];
  if (wanted.includes('postgres')) {
    if (await reachable(postgresUrl)) dialects.push('postgres');
    else log(`batch run: PostgreSQL not reachable at ${postgresUrl}; SQLite only`);
  }
  const results: BatchBenchResult[] = [];
  for (const dialect of dialects) {
    for (const size of sizes) {
      log(`batch run: ${size.toLocaleString('en-US')} approved payments on ${dialect}`);
      const result = await measure(dialect, size, postgresUrl);
      log(
        `batch run: ${dialect} ${size}: ${result.seconds.toFixed(1)} s (${result.cpuSeconds.toFixed(1)} s CPU in this process), ${Math.round(result.paymentsPerSecond)} payments/s`,
      );
      results.push(result);
    }
  }
  return results;
}

/** The batch table of `npm run bench` with the growth per size (its budgets are in the budget table). */
export function printBatchRuns(results: readonly BatchBenchResult[]): void {
  const out = [
    '',
    'batch runs (in-process, approved NDCT payments over four TPP sandboxes; each payment debited, half credited in the bank):',
  ];
  for (const result of results) {
    const smallest = results.find((other) => other.dialect === result.dialect);
    const growth =
      smallest && smallest !== result
        ? `  (${(result.payments / smallest.payments).toFixed(0)}x the payments: ${(result.seconds / smallest.seconds).toFixed(1)}x the time)`
        : '';
    out.push(
      `  ${result.dialect.padEnd(8)} ${result.payments.toLocaleString('en-US').padStart(7)} payments  ${result.seconds.toFixed(1).padStart(6)} s  ${Math.round(result.paymentsPerSecond).toLocaleString('en-US').padStart(6)} payments/s${growth}`,
    );
  }
  process.stdout.write(out.join('\n') + '\n');
}

// `npx tsx bench/batch.ts [sizes…]`: the batch figures alone (BENCH_BATCH_DIALECTS=sqlite: one database).
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const url = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  benchBatchRuns(sizes.length > 0 ? sizes : [10_000], url, (line) => process.stdout.write(`[bench] ${line}\n`)).then(
    (results) => printBatchRuns(results),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
