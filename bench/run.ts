/**
 * `npm run bench`: measures docs/design.md §9's budgets in one run on this machine.
 *
 * 1. starts the real server (`node dist/bundle/main.js serve`, LOG_LEVEL=info, fresh data dir and
 *    SQLite file) and times spawn -> /health/ready 200 (cold start);
 * 2. issues a QSealC from the sandbox CA the server created and starts the baseline server;
 * 3. for each scenario: pre-signs a pool of distinct requests, checks one answers 2xx, warms up,
 *    then measures with autocannon while sampling the target's RSS and CPU (its child processes
 *    included); no request is sent twice: a phase ends early rather than repeat one;
 * 4. runs the subject again on `serve --workers 2`, on PostgreSQL (a fresh database) and against
 *    a Prism 5 mock of the Berlin Group file, then the batch runs;
 * 5. prints a table with CPU µs per request and every budget (met, MISSED or not measured) and
 *    writes bench/results/latest.json.
 *
 * Exit status is non-zero only when the bench itself failed; a missed budget or a flagged run is
 * reported, not fatal. To add an operation, add a Scenario in `scenarios()`.
 *
 * Environment (all optional): BENCH_CONNECTIONS (50), BENCH_WARMUP (3 s), BENCH_DURATION (10 s),
 * BENCH_POOL_SIZE (4000: the warm-up pool; the measured pool is sized from the warm-up's rate);
 * BENCH_SCENARIOS (only these, e.g. "b" or "a,b,batch"); BENCH_BATCH_SIZES (10000,100000); BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test,
 * for (j) and the batch runs; skipped when it does not answer); BENCH_SERVER_NODE_ARGS /
 * BENCH_BASELINE_NODE_ARGS (extra node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", see
 * bench/README.md); BENCH_PROFILE_FROM / _REQUESTS / _DIR (passed to the server, for
 * bench/profile-window.ts); BENCH_SERVER_ENTRY (another build's cli/main.js, to compare it in the same
 * harness); TMPDIR (where the temp dir goes).
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchBatchRuns, printBatchRuns } from './batch.js';
import { runPhase, sendOnce, type LoadResult } from './load.js';
import { TppClient } from '../src/client/tpp-client.js';
import {
  basketPaymentBody,
  contactBody,
  issueBenchTpp,
  ndctBody,
  signedPool,
  signedPoolInParallel,
  type BenchTpp,
  type PoolSpec,
  type PreparedRequest,
} from './pools.js';
import {
  treeCpuSeconds,
  freePort,
  machineBusySeconds,
  killAllChildrenSync,
  sampleRss,
  startChild,
  stopAllChildren,
  stopChild,
  waitForHttp,
  type Child,
} from './processes.js';
import {
  evaluateBudgets,
  flaggedScenarios,
  printReport,
  writeJson,
  type BenchReport,
  type BudgetRole,
  type ScenarioResult,
} from './report.js';
import { accountReadSetup, balancesPath, transactionsPagePath, ACCOUNT_TRANSACTIONS, type AccountReadSetup } from './account-reads.js';
import { createBenchDatabase, postgresReachable, type BenchDatabase } from './postgres.js';
import { prismAvailable, startPrism, PRISM_EXTRA_HEADERS, PRISM_PAYMENT_PATH } from './prism.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** BENCH_SERVER_ENTRY points at another build (e.g. a patched copy of dist/) to compare it in the same harness. */
const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY ?? join(REPO, 'dist/bundle/main.js');
const BASELINE_ENTRY = join(REPO, 'bench/baseline-server.ts');
const RESULTS_FILE = join(REPO, 'bench/results/latest.json');
const PARTIAL_RESULTS_FILE = join(REPO, 'bench/results/partial.json');
const TPP_ORG_ID = 'PSDNO-FSA-123456789';
const LOG_LEVEL = 'info';

interface Settings {
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly poolSize: number;
}

/** A process under test, reachable on 127.0.0.1. */
interface Target {
  readonly child: Child;
  readonly baseUrl: string;
}

/** One operation to load: who serves it, and how to build its pool of ready-to-send requests. */
interface Scenario {
  readonly id: string;
  readonly label: string;
  /**
   * What docs/design.md §9 compares it with: the subject (signed NDCT initiation) and the account
   * reads with the baseline, the subject with Prism and its PostgreSQL run; other scenarios are
   * reported without budgets.
   */
  readonly budgetRole?: BudgetRole;
  /**
   * A rate (req/s) the measured pool is sized for when the warm-up saw less, e.g. for (e) twice
   * the one-process rate: a pool sized from a cold warm-up alone ran out.
   */
  readonly expectedRate?: () => number;
  readonly target: Target;
  /** Called right before each phase runs, so Date headers are fresh. */
  readonly buildPool: (size: number) => Promise<PreparedRequest[]>;
  /**
   * Shorter phases for a scenario whose requests are costly to prepare (a basket needs ten fresh
   * payments, created through the API before its phase); the defaults are the run's settings.
   */
  readonly phases?: {
    readonly warmupSeconds: number;
    readonly durationSeconds: number;
    readonly warmupPoolSize: number;
    /** A bound on the measured pool (its preparation is what costs, or a slow operation needs few). */
    readonly maxPoolSize?: number;
    /** A request not answered within this many seconds counts as a timeout (default 10). */
    readonly timeoutSeconds?: number;
  };
}

function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const number = (name: string, fallback: number, min: number) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name}=${text}: must be a number >= ${min}`);
    return value;
  };
  return {
    connections: Math.round(number('BENCH_CONNECTIONS', 50, 1)),
    warmupSeconds: number('BENCH_WARMUP', 3, 0),
    durationSeconds: number('BENCH_DURATION', 10, 1),
    poolSize: Math.round(number('BENCH_POOL_SIZE', 4_000, 1)),
  };
}

function log(message: string): void {
  process.stdout.write(`[bench] ${message}\n`);
}

/**
 * Children get a small, explicit environment: a developer's DATABASE_URL, XS2A_* or NODE_OPTIONS
 * must not change what is measured.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  // The settings of bench/profile-window.ts, for a server that loads it.
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('BENCH_PROFILE_')) env[name] = value;
  }
  return { ...env, NODE_ENV: 'production', ...extra };
}

/** Starts the real server on a fresh data dir and SQLite file and times spawn -> ready. */
async function startServer(
  workDir: string,
  settings: Settings,
  { name = 'server', workers = 1, databaseUrl }: { name?: string; workers?: number; databaseUrl?: string } = {},
): Promise<Target & { dataDir: string; coldStartMs: number }> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run "npm run build" (npm run bench does)`);
  const dataDir = join(workDir, `${name}-data`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Pools are signed right before their scenario, so their Date headers age by at most warm-up +
  // run; widen the accepted clock skew only if a long BENCH_DURATION would exceed the default 300 s.
  const skew = Math.max(300, Math.ceil(settings.warmupSeconds + settings.durationSeconds + 120));
  const env = childEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl ?? `sqlite:${join(dataDir, 'xs2a.db')}`,
    XS2A_DATA_DIR: dataDir,
    XS2A_MODE: 'sandbox',
    XS2A_REQUIRE_SIGNATURE: 'true',
    XS2A_MAX_CLOCK_SKEW_SECONDS: String(skew),
    LOG_LEVEL,
  });
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load
  // (BENCH_BASELINE_NODE_ARGS does the same for the baseline).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const serveArgs = workers > 1 ? ['serve', '--workers', String(workers)] : ['serve'];
  const child = startChild(name, process.execPath, [...nodeArgs, SERVER_ENTRY, ...serveArgs], {
    env,
    cwd: REPO,
    logFile: join(workDir, `${name}.log`),
  });
  await waitForHttp(child, `${baseUrl}/health/ready`, (status) => status === 200, 15_000);
  const coldStartMs = performance.now() - started;
  return { child, baseUrl, dataDir, coldStartMs };
}

/** Starts baseline (a), verifying signatures with the bench TPP's public key. */
async function startBaseline(workDir: string, tpp: BenchTpp): Promise<Target> {
  const keyFile = join(workDir, 'tpp-public-key.pem');
  writeFileSync(keyFile, tpp.publicKey.export({ type: 'spki', format: 'pem' }));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = childEnv({ PORT: String(port), BASELINE_DB: join(workDir, 'baseline.db'), BASELINE_PUBLIC_KEY_FILE: keyFile });
  const nodeArgs = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = startChild('baseline', process.execPath, [...nodeArgs, '--import', 'tsx', BASELINE_ENTRY], {
    env,
    cwd: REPO,
    logFile: join(workDir, 'baseline.log'),
  });
  // Any HTTP answer (Fastify's 404 for GET /) means it listens; its database is opened before that.
  await waitForHttp(child, `${baseUrl}/`, () => true, 15_000);
  return { child, baseUrl };
}

/**
 * A pool builder whose bodies are numbered across all pools it builds: a payment body sent in the
 * warm-up and again in the measured run would be a logical duplicate, refused by the server.
 */
function numberedPool(
  tpp: BenchTpp,
  spec: Omit<PoolSpec, 'size' | 'path'> & { path: string },
): (size: number) => Promise<PreparedRequest[]> {
  let issued = 0;
  return (size) => {
    const offset = issued;
    issued += size;
    const numbered = { ...spec, size, body: (n: number) => spec.body(offset + n) };
    return size <= 2_000
      ? Promise.resolve(signedPool({ ...numbered, path: () => spec.path }, tpp.credentials))
      : signedPoolInParallel(numbered, tpp.credentials);
  };
}

/** The subject's requests: NDCT initiations from the bench PSU's account, each with its own body. */
function paymentSpec(debtorBban: string) {
  return { method: 'POST' as const, body: ndctBody(debtorBban), headers: { 'psu-id': BENCH_PSU_ID } as Record<string, string> };
}

/** The subject, (b), on another server (e, j): its own TPP from that server's CA and its own seeded sandbox. */
async function subjectOn(
  target: Target & { dataDir: string },
  scenario: Pick<Scenario, 'id' | 'label' | 'budgetRole' | 'expectedRate'>,
): Promise<Scenario> {
  const tpp = await issueBenchTpp(target.dataDir, TPP_ORG_ID, ['PSP_PI', 'PSP_AI']);
  const debtorBban = await seedSandbox(target, tpp);
  return {
    ...scenario,
    target,
    buildPool: numberedPool(tpp, { ...paymentSpec(debtorBban), path: '/v1/payments/norwegian-domestic-credit-transfers' }),
  };
}

function scenarios(settings: Settings, baseline: Target, server: Target, tpp: BenchTpp, debtorBban: string): Scenario[] {
  const pool = (spec: Omit<PoolSpec, 'size' | 'path'> & { path: string }) => numberedPool(tpp, spec);
  const payment = paymentSpec(debtorBban);
  return [
    {
      id: 'a',
      label: 'baseline: bare Fastify POST, async RSA verify + 1 INSERT',
      budgetRole: 'baseline',
      target: baseline,
      buildPool: pool({ ...payment, path: `/baseline/${tpp.pathId}` }),
    },
    {
      id: 'b',
      label: 'signed NDCT initiation POST /v1/payments/norwegian-domestic-credit-transfers',
      budgetRole: 'subject',
      target: server,
      buildPool: pool({ ...payment, path: '/v1/payments/norwegian-domestic-credit-transfers' }),
    },
    {
      id: 'c',
      label: 'signed PUT /v1/tpps/{id}/contact-information',
      target: server,
      buildPool: pool({ method: 'PUT', body: contactBody, path: `/v1/tpps/${tpp.pathId}/contact-information` }),
    },
    {
      id: 'd',
      label: `signed POST /v1/signing-baskets, ${BASKET_SIZE} payments each (1 s warm-up, 2 s measured)`,
      target: server,
      buildPool: basketPool(server, tpp, debtorBban),
      // A warm-up pool no faster run exhausts in 1 s, so the rate that sizes the measured pool is
      // that of real creations, not of replays.
      phases: { warmupSeconds: 1, durationSeconds: 2, warmupPoolSize: 600, maxPoolSize: 4_500 },
    },
    {
      id: 'f',
      label: 'signed GET /v1/payments/…/{id}/status (a read: its X-Request-ID is recorded against replay)',
      target: server,
      buildPool: statusReadPool(server, tpp, debtorBban),
    },
    {
      id: 'g',
      label: 'signed GET /v1/accounts/{id}/balances (valid consent, PSU present)',
      budgetRole: 'balances',
      target: server,
      buildPool: accountReadPool(server, tpp, balancesPath),
    },
    {
      id: 'h',
      label: `signed GET /v1/accounts/{id}/transactions, a page of 200 of ${ACCOUNT_TRANSACTIONS.toLocaleString('en-US')} (valid consent, PSU present)`,
      budgetRole: 'transactions',
      target: server,
      buildPool: accountReadPool(server, tpp, transactionsPagePath),
      // A page once took the server hundreds of ms, and 50 connections waited seconds for an
      // answer: no warm-up (its abandoned requests would still load the measured run), a longer
      // run, and a timeout above any such wait, so the figure is the server's rate, not timeouts.
      // Its pool (no warm-up sizes it) lasts the run at up to 1 000 pages/s; 2 000 ran out in 5–7 s,
      // 10 000 after 16 s at 628 pages/s.
      phases: {
        warmupSeconds: 0,
        durationSeconds: Math.max(settings.durationSeconds, 20),
        warmupPoolSize: 1,
        maxPoolSize: 20_000,
        timeoutSeconds: 120,
      },
    },
  ];
}

/**
 * Pools of signed reads of one account under an approved consent: the account, its transactions
 * and the consent are set up through the API once, before the first pool of (g) or (h). The reads
 * carry PSU-IP-Address (the PSU is present), so the consent's frequencyPerDay does not apply.
 */
let accountReads: Promise<AccountReadSetup> | undefined;
function accountReadPool(
  server: Target,
  tpp: BenchTpp,
  pathOf: (setup: AccountReadSetup) => string,
): (size: number) => Promise<PreparedRequest[]> {
  return async (size) => {
    accountReads ??= accountReadSetup(server.baseUrl, tpp.credentials, log);
    const setup = await accountReads;
    const spec = {
      method: 'GET' as const,
      path: pathOf(setup),
      body: () => undefined,
      size,
      headers: { 'consent-id': setup.consentId, 'psu-ip-address': setup.psuIpAddress },
    };
    return size <= 2_000 ? signedPool({ ...spec, path: () => spec.path }, tpp.credentials) : signedPoolInParallel(spec, tpp.credentials);
  };
}

/**
 * Pools of status reads of one payment, created through the API before the first pool: each read
 * has its own X-Request-ID, so each writes one replay record (docs/design.md §5), the cost a read pays.
 */
function statusReadPool(server: Target, tpp: BenchTpp, debtorBban: string): (size: number) => Promise<PreparedRequest[]> {
  let paymentPath: string | undefined;
  return async (size) => {
    if (!paymentPath) {
      const body = { ...ndctBody(debtorBban)(0), creditorName: 'Bench Lesing AS', remittanceInformationUnstructured: 'Lesing' };
      const created = await new TppClient(server.baseUrl, tpp.credentials).post<{ paymentId: string }>(
        '/v1/payments/norwegian-domestic-credit-transfers',
        body,
        { headers: { 'psu-id': BENCH_PSU_ID } },
      );
      if (created.status !== 201) throw new Error(`(f) could not create the payment to read: ${created.status} ${created.text}`);
      paymentPath = `/v1/payments/norwegian-domestic-credit-transfers/${created.body.paymentId}/status`;
    }
    const spec = { method: 'GET' as const, path: paymentPath, body: () => undefined, size };
    return size <= 2_000 ? signedPool({ ...spec, path: () => spec.path }, tpp.credentials) : signedPoolInParallel(spec, tpp.credentials);
  };
}

/**
 * BENCH_SCENARIOS=a,b runs only those scenarios (ids as in the table; `batch` for the batch runs),
 * e.g. to profile one operation (bench/README.md); unset, everything runs.
 */
const SELECTED = (process.env.BENCH_SCENARIOS ?? '')
  .split(',')
  .map((id) => id.trim())
  .filter(Boolean);
const selected = (id: string) => SELECTED.length === 0 || SELECTED.includes(id);

/** Workers of scenarios (e) and (k). */
const WORKERS = 2;

/** Approved payments per measured batch run (BENCH_BATCH_SIZES, comma-separated). */
const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** PostgreSQL for the batch runs (skipped when it does not answer). */
const BATCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Payments per basket in scenario (d): the requirement's maximum. */
const BASKET_SIZE = 10;

/**
 * Pools of basket creations: before each phase, the payments the baskets name are created through
 * the API (explicit authorisation, as a TPP collecting a basket does), 50 at a time; each basket
 * request then names ten of them that no other request names.
 */
function basketPool(server: Target, tpp: BenchTpp, debtorBban: string): (size: number) => Promise<PreparedRequest[]> {
  let issued = 0;
  const body = basketPaymentBody(debtorBban);
  return async (size) => {
    const count = size * BASKET_SIZE;
    const offset = issued;
    issued += count;
    const payments = await signedPoolInParallel(
      {
        size: count,
        method: 'POST',
        path: '/v1/payments/norwegian-domestic-credit-transfers',
        body: (n) => body(offset + n),
        headers: { 'psu-id': BENCH_PSU_ID, 'tpp-explicit-authorisation-preferred': 'true' },
      },
      tpp.credentials,
    );
    const ids: string[] = new Array<string>(count);
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < count) {
          const n = next++;
          const answer = await sendOnce(server.baseUrl, payments[n]!);
          if (answer.status !== 201) throw new Error(`payment for a basket answered ${answer.status}: ${answer.body}`);
          ids[n] = (JSON.parse(answer.body) as { paymentId: string }).paymentId;
        }
      }),
    );
    return signedPool(
      {
        size,
        method: 'POST',
        path: () => '/v1/signing-baskets',
        body: (n) => ({ paymentIds: ids.slice(n * BASKET_SIZE, (n + 1) * BASKET_SIZE) }),
        headers: { 'psu-id': BENCH_PSU_ID },
      },
      tpp.credentials,
    );
  };
}

/** The seeded private customer whose account the bench's payments are drawn on. */
const BENCH_PSU_ID = '13039319955';

/** Seeds the bench TPP's sandbox (POST /v1/sandbox/initialize) and returns the PSU's NOK account. */
async function seedSandbox(server: Target, tpp: BenchTpp): Promise<string> {
  const client = new TppClient(server.baseUrl, tpp.credentials);
  const seeded = await client.post('/v1/sandbox/initialize', {});
  if (seeded.status !== 200) throw new Error(`sandbox initialize answered ${seeded.status}: ${seeded.text}`);
  const accounts = await client.get<{ accounts: { bban: string; currency: string; customerNumber: string }[] }>('/v1/sandbox/accounts');
  const account = accounts.body.accounts.find((a) => a.currency === 'NOK' && a.customerNumber === BENCH_PSU_ID);
  if (!account) throw new Error(`no NOK account of ${BENCH_PSU_ID} in the seeded sandbox: ${accounts.text}`);
  return account.bban;
}

/**
 * The measured pool holds this many times what the expected rate sends in the measured time: a
 * warm-up starts cold, and the baseline ran 2.3x its warm-up rate once warm.
 */
const POOL_MARGIN = 3;

async function runScenario(scenario: Scenario, settings: Settings): Promise<ScenarioResult> {
  const { target } = scenario;
  const signingStarted = performance.now();
  const phases = scenario.phases ?? { ...settings, warmupPoolSize: settings.poolSize };
  const warmupPool = await scenario.buildPool(phases.warmupPoolSize);
  log(`(${scenario.id}) signed a warm-up pool of ${warmupPool.length} requests in ${Math.round(performance.now() - signingStarted)} ms`);

  // Every X-Request-ID this scenario sends, probe, warm-up and measured run: none is sent twice.
  const sent = new Set<string>();
  // One request first: a broken setup shows its error body instead of 10 s of 401s.
  const [probeRequest, ...warmupRest] = warmupPool;
  const probe = await sendOnce(target.baseUrl, probeRequest!);
  sent.add(probeRequest!.headers['x-request-id'] ?? '');
  if (probe.status < 200 || probe.status > 299) {
    throw new Error(`(${scenario.id}) probe ${probeRequest!.method} ${probeRequest!.path} answered ${probe.status}: ${probe.body}`);
  }

  const rss = sampleRss(target.child.pid);
  let warmupRate = 0;
  if (phases.warmupSeconds > 0 && warmupRest.length > 0) {
    log(`(${scenario.id}) warm-up ${phases.warmupSeconds} s`);
    const warmup = await runPhase(target.baseUrl, warmupRest, settings.connections, phases.warmupSeconds, sent, phases.timeoutSeconds);
    if (warmup.non2xx > 0 || warmup.errors > 0) log(`(${scenario.id}) warm-up had ${warmup.non2xx} non-2xx and ${warmup.errors} errors`);
    warmupRate = warmup.requestsPerSecond;
    // Used up early, the warm-up's pool measured a cold server: the rest of the warm-up time goes on
    // with a pool sized from that rate, and its (warm) rate sizes the measured pool.
    const rest = phases.warmupSeconds - warmup.durationSeconds;
    if (warmup.poolExhausted && rest >= 0.5) {
      const more = await scenario.buildPool(Math.ceil(warmupRate * rest * POOL_MARGIN));
      log(
        `(${scenario.id}) warm-up used its pool after ${warmup.durationSeconds} s; ${rest.toFixed(1)} s more with ${more.length} requests`,
      );
      const second = await runPhase(target.baseUrl, more, settings.connections, rest, sent, phases.timeoutSeconds);
      warmupRate = Math.max(warmupRate, second.requestsPerSecond);
    }
  }
  // The measured run sends every request once (a repeated X-Request-ID would be answered from the
  // idempotency store, a cheaper path than the one being measured) and ends early if its pool runs
  // out; the pool is sized so that it does not.
  // Without a warm-up nothing says how fast it goes: the pool is then as large as maxPoolSize allows.
  const expectedRate = Math.max(warmupRate, scenario.expectedRate?.() ?? 0, phases.warmupSeconds > 0 ? 0 : 25_000);
  const wanted = Math.max(phases.warmupPoolSize, Math.ceil(expectedRate * phases.durationSeconds * POOL_MARGIN));
  const measuredSize = 'maxPoolSize' in phases && phases.maxPoolSize !== undefined ? Math.min(wanted, phases.maxPoolSize) : wanted;
  const measuredSigning = performance.now();
  const pool = await scenario.buildPool(measuredSize);
  log(
    `(${scenario.id}) signed ${pool.length} distinct requests for the measured run in ${Math.round(performance.now() - measuredSigning)} ms`,
  );
  log(`(${scenario.id}) measuring ${phases.durationSeconds} s`);
  const cpuBefore = treeCpuSeconds(target.child.pid);
  const ownCpuBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const load: LoadResult = await runPhase(target.baseUrl, pool, settings.connections, phases.durationSeconds, sent, phases.timeoutSeconds);
  const machineAfter = machineBusySeconds();
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const cpuAfter = treeCpuSeconds(target.child.pid);
  const rssPeakKb = rss.stop();
  if (load.poolExhausted) {
    log(`(${scenario.id}) the measured pool was used up after ${load.durationSeconds} s: the figures are over that time`);
  }
  const perSecond = (seconds: number) => seconds / load.durationSeconds;
  const targetCpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const targetCpu = targetCpuSeconds === undefined ? undefined : perSecond(targetCpuSeconds);
  const ownCpuCores = perSecond((ownCpu.user + ownCpu.system) / 1e6);
  return {
    id: scenario.id,
    label: scenario.label,
    budgetRole: scenario.budgetRole,
    load,
    rssPeakMb: rssPeakKb === undefined ? undefined : rssPeakKb / 1024,
    targetCpuCores: targetCpu,
    cpuMicrosPerRequest: targetCpuSeconds === undefined || load.total === 0 ? undefined : (targetCpuSeconds * 1e6) / load.total,
    loadGeneratorCpuCores: ownCpuCores,
    otherCpuCores:
      machineBefore === undefined || machineAfter === undefined || targetCpu === undefined
        ? undefined
        : Math.max(0, perSecond(machineAfter - machineBefore) - targetCpu - ownCpuCores),
    targetExited: target.child.process.exitCode ?? target.child.process.signalCode ?? undefined,
  };
}

function countLines(file: string): number {
  try {
    const text = readFileSync(file, 'utf8');
    return text.length === 0 ? 0 : text.split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

async function bench(workDir: string, settings: Settings): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = loadavg()[0] ?? 0;
  const server = await startServer(workDir, settings);
  log(
    `server ready on ${server.baseUrl} after ${Math.round(server.coldStartMs)} ms (pid ${server.child.pid}, logs: ${server.child.logFile})`,
  );
  const tpp = await issueBenchTpp(server.dataDir, TPP_ORG_ID, ['PSP_PI', 'PSP_AI']);
  const baseline = await startBaseline(workDir, tpp);
  log(`baseline ready on ${baseline.baseUrl} (pid ${baseline.child.pid})`);

  const debtorBban = await seedSandbox(server, tpp);
  const planned = scenarios(settings, baseline, server, tpp, debtorBban).filter((scenario) => selected(scenario.id));
  // Scenario (d) first creates its baskets' payments through the API, (g) books 10 000 transactions,
  // Prism parses a 0.5 MB file: up to a few minutes on a slow machine. Three more scenarios follow.
  armWatchdog((planned.length + 3) * (settings.warmupSeconds + settings.durationSeconds + 15) + 600);
  const results: ScenarioResult[] = [];
  for (const scenario of planned) {
    results.push(await runScenario(scenario, settings));
  }
  const resultOf = (role: BudgetRole) => results.find((result) => result.budgetRole === role);
  const subjectRate = () => resultOf('subject')?.load.requestsPerSecond ?? 0;

  // Stop the server before counting its log lines: it flushes its async log on the way out.
  await stopChild(server.child);

  // (e) the subject again, on `serve --workers 2` (its own data dir, CA and TPP), after the
  // single-process server stopped so the two do not share the cores.
  if (selected('e')) {
    const cluster = await startServer(workDir, settings, { name: 'workers', workers: WORKERS });
    log(`serve --workers ${WORKERS} ready on ${cluster.baseUrl} after ${Math.round(cluster.coldStartMs)} ms`);
    results.push(
      await runScenario(
        await subjectOn(cluster, {
          id: 'e',
          label: `(b) on serve --workers ${WORKERS} (RSS and CPU: primary and workers)`,
          budgetRole: 'workers',
          // Up to WORKERS times the one-process rate: a pool sized from its cold warm-up alone ran out.
          expectedRate: () => subjectRate() * WORKERS,
        }),
        settings,
      ),
    );
    await stopChild(cluster.child);
  }

  // (j) the subject on PostgreSQL: a fresh database on BENCH_POSTGRES_URL, one process; then
  // (k) on `serve --workers 2` on another fresh database (§9's workers budget is on PostgreSQL).
  let postgresNote: string | undefined;
  if (!selected('j') && !selected('k')) {
    postgresNote = 'not selected (BENCH_SCENARIOS)';
  } else if (await postgresReachable(BATCH_POSTGRES_URL)) {
    const onePostgresRate = () => resultOf('postgres')?.load.requestsPerSecond ?? subjectRate();
    const onFreshPostgres = async (
      name: string,
      workers: number,
      scenario: Pick<Scenario, 'id' | 'label' | 'budgetRole' | 'expectedRate'>,
    ) => {
      const database: BenchDatabase = await createBenchDatabase(BATCH_POSTGRES_URL);
      try {
        const server = await startServer(workDir, settings, { name, workers, databaseUrl: database.url });
        log(`${scenario.label} ready on ${server.baseUrl} after ${Math.round(server.coldStartMs)} ms`);
        results.push(await runScenario(await subjectOn(server, scenario), settings));
        await stopChild(server.child);
      } finally {
        await database.drop();
      }
    };
    if (selected('j')) {
      await onFreshPostgres('postgres', 1, { id: 'j', label: '(b) on PostgreSQL', budgetRole: 'postgres', expectedRate: subjectRate });
    }
    if (selected('k')) {
      await onFreshPostgres('workers-postgres', WORKERS, {
        id: 'k',
        label: `(b) on PostgreSQL, serve --workers ${WORKERS} (RSS and CPU: primary and workers)`,
        budgetRole: 'workersPostgres',
        expectedRate: () => onePostgresRate() * WORKERS,
      });
    }
  } else {
    postgresNote = `PostgreSQL not reachable at ${BATCH_POSTGRES_URL}`;
    log(`(j) skipped: ${postgresNote}`);
  }

  // (i) Prism 5 on the Berlin Group file, the same bodies and load, after our servers stopped.
  let prismNote: string | undefined;
  if (!selected('i')) {
    prismNote = 'not selected (BENCH_SCENARIOS)';
  } else if (prismAvailable(REPO)) {
    const prism = await startPrism(REPO, workDir, childEnv({}));
    prismNote = `${prism.args.join(' ')} (ready after ${prism.startMs} ms)`;
    log(`prism ready on ${prism.baseUrl} after ${prism.startMs} ms`);
    const target: Target = { child: prism.child, baseUrl: prism.baseUrl };
    results.push(
      await runScenario(
        {
          id: 'i',
          label: `Prism 5 mock of the same initiation (POST ${PRISM_PAYMENT_PATH}, same bodies)`,
          budgetRole: 'prism',
          target,
          buildPool: numberedPool(tpp, {
            ...paymentSpec(debtorBban),
            path: PRISM_PAYMENT_PATH,
            headers: { ...paymentSpec(debtorBban).headers, ...PRISM_EXTRA_HEADERS },
          }),
        },
        settings,
      ),
    );
    await stopChild(prism.child);
  } else {
    prismNote = 'not installed (npm install -D @stoplight/prism-cli@^5)';
    log(`(i) skipped: Prism ${prismNote}`);
  }
  await stopChild(baseline.child);

  const batchRuns = selected('batch') ? await benchBatchRuns(BATCH_SIZES, BATCH_POSTGRES_URL, log) : [];

  const budgets = evaluateBudgets(results, server.coldStartMs, batchRuns);
  const report: BenchReport = {
    startedAt,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAverageAtStart,
    },
    settings,
    server: {
      logLevel: LOG_LEVEL,
      logDestination: 'a file in the temp dir (deleted afterwards)',
      logLines: countLines(server.child.logFile),
      coldStartMs: server.coldStartMs,
    },
    notes: { postgres: postgresNote ?? 'fresh database on BENCH_POSTGRES_URL, dropped afterwards', prism: prismNote },
    scenarios: results,
    budgets,
    flagged: flaggedScenarios(results),
  };
  printBatchRuns(batchRuns);
  printReport(report);
  // A run of some scenarios only (BENCH_SCENARIOS) does not replace the full run's figures.
  const resultsFile = SELECTED.length === 0 ? RESULTS_FILE : PARTIAL_RESULTS_FILE;
  writeJson(resultsFile, { ...report, selectedScenarios: SELECTED, batchRuns });
  log(`results written to ${resultsFile}`);
}

/** Stops the children and exits; the 'exit' handler then removes the temp dir. */
function abort(why: string, code: number): void {
  process.stderr.write(`\n[bench] ${why}: stopping child processes\n`);
  void stopAllChildren().finally(() => process.exit(code));
}

let watchdog: NodeJS.Timeout | undefined;

/** A last bound on the whole run, should a child or autocannon hang despite their own timeouts. */
function armWatchdog(seconds: number): void {
  watchdog = setTimeout(() => abort(`watchdog: the bench ran longer than ${seconds} s`, 1), seconds * 1_000);
  watchdog.unref();
}

/** The end of each child's output, because the temp dir holding it is about to be deleted. */
function printLogTails(workDir: string): void {
  for (const name of ['server.log', 'baseline.log']) {
    const file = join(workDir, name);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-15);
    process.stderr.write(`[bench] last lines of ${name}:\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
  }
}

async function main(): Promise<void> {
  const settings = readSettings();
  const workDir = mkdtempSync(join(tmpdir(), 'nordic-xs2a-bench-'));
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });

  // Whatever happens (error, Ctrl-C, watchdog), no child outlives the bench and the temp dir goes.
  process.on('exit', () => {
    killAllChildrenSync();
    removeWorkDir();
  });
  process.once('SIGINT', () => abort('SIGINT', 130));
  process.once('SIGTERM', () => abort('SIGTERM', 143));

  try {
    await bench(workDir, settings);
  } catch (error) {
    process.stderr.write(`[bench] FAILED: ${(error as Error).stack ?? String(error)}\n`);
    await stopAllChildren();
    printLogTails(workDir);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await stopAllChildren();
    removeWorkDir();
  }
}

await main();
