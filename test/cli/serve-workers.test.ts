/**
 * `nordic-xs2a serve --workers N` (node:cluster), run from the compiled CLI on SQLite:
 * - the primary migrates and creates the sandbox CA once, then N workers share the port and the
 *   SQLite file; one "listening" line says how many workers;
 * - `/metrics` on any worker answers the aggregate of all workers (requests summed, payments by
 *   status counted once, not N times);
 * - a worker that dies is replaced, in its role (the batch-schedule one included);
 * - SIGTERM to the primary stops every worker, and the primary exits 0;
 * - migrate calls that meet an already migrated database are no-ops, also concurrently;
 * - a bad --workers is a usage error.
 * The file builds dist/ first when it is missing or older than src/.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { TppClient } from '../../src/client/tpp-client.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { created, initiate, NDCT, ndctBody, privatePsu } from '../support/payments.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import {
  ensureBuilt,
  killStartedServers,
  runCli,
  startServerProcess,
  until,
  type LogLine,
  type ServerProcess,
} from '../support/server-process.js';

/**
 * A GET on a connection of its own: the cluster primary hands each new connection to the next
 * worker in turn, so consecutive calls reach different workers.
 */
function getFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The log lines of the cluster's primary and workers. */
interface WorkerLogLine extends LogLine {
  readonly method?: string;
  readonly operation?: string;
  readonly status?: number;
  readonly worker?: number;
  readonly workerRole?: string;
  readonly workers?: number[];
}

const tempDirs: string[] = [];

beforeAll(() => ensureBuilt(), 180_000);

afterAll(() => {
  // Only what this file started, by handle (the workers end with their primary).
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('serve --workers 2 on SQLite', () => {
  let dir: string;
  let server: ServerProcess;
  let url: string;
  const logs = () => server.logs() as WorkerLogLine[];
  /** The pid of each worker that said it was ready, with its role. */
  const readyWorkers = () => new Map(logs().flatMap((line) => (line.msg === 'ready' && line.pid ? [[line.pid, line.role]] : [])));
  const scrape = async () => parseExposition((await getFresh(`${url}/metrics`)).body);
  /** The pids whose request log lines show `count` requests of this operation (waits for the lines). */
  const answeredBy = (operation: string, count: number) =>
    until(`${count} log lines of ${operation}`, () => {
      const lines = logs().filter((line) => line.msg === 'request' && line.operation === operation);
      return lines.length >= count ? new Set(lines.map((line) => line.pid)) : undefined;
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xs2a-workers-'));
    tempDirs.push(dir);
    server = await startServerProcess({ cwd: dir, args: ['--workers', '2'], env: { XS2A_DATA_DIR: join(dir, 'data') } });
    url = server.url;
    // Signed calls from this file: no keep-alive either, so they too are spread over the workers.
    setGlobalDispatcher(new Agent({ pipelining: 0 }));
  }, 40_000);

  it('prints one listening line that says how many workers, after both are ready', async () => {
    const listening = server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('listening on'));
    expect(listening).toEqual([`nordic-xs2a sandbox listening on ${url} with 2 workers (docs: ${url}/docs)`]);
    // A worker tells the primary it is ready by IPC and logs it on its own output: the log line
    // may reach this process after the primary's listening line.
    const workers = await until('both workers ready in the log', () => (readyWorkers().size >= 2 ? readyWorkers() : undefined));
    expect([...workers.values()].sort()).toEqual(['batch-schedule', 'requests']);
    expect(
      logs()
        .find((line) => line.msg === 'workers ready')
        ?.workers?.sort(),
    ).toEqual([...workers.keys()].sort());
    expect(server.stderr()).toBe('');
    // Prepared once by the primary.
    expect(existsSync(join(dir, 'data', 'xs2a.db'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'sandbox-ca', 'ca-certificate.pem'))).toBe(true);
  });

  it('warns once, from the primary, that workers on one SQLite file add no throughput', () => {
    const warnings = logs().filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ role: 'primary', database: 'sqlite', workers: 2 });
    expect(warnings[0]?.msg).toContain('answer fewer payments per second than one process: on SQLite, run one');
  });

  it('signs notifications with one seal in both workers: the one the first start kept in the data directory', async () => {
    const served = new Set<string>();
    for (let n = 0; n < 10; n++) served.add((await getFresh(`${url}/notification-seal-certificate`)).body);
    expect((await answeredBy('/notification-seal-certificate', 10)).size).toBe(2);
    expect([...served]).toEqual([readFileSync(join(dir, 'data', 'notification-seal', 'seal-certificate.pem'), 'utf8')]);
  });

  it('answers /metrics on any worker with the sum over all workers', async () => {
    for (let n = 0; n < 10; n++) expect((await getFresh(`${url}/health/live`)).status).toBe(200);
    for (let n = 0; n < 2; n++) expect((await getFresh(`${url}/no-such-route/${n}`)).status).toBe(404);
    expect((await answeredBy('/health/live', 10)).size).toBe(2);
    // Four scrapes, on fresh connections: both workers answer some, all answer the same totals.
    for (let n = 0; n < 4; n++) {
      const samples = await scrape();
      expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'GET', route: '/health/live', status: '200' })).toBe(10);
      expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    }
  });

  it('writes to the one SQLite file from both workers and counts the payments once, not once per worker', async () => {
    const ca = await SandboxCa.open(join(dir, 'data'));
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issued = await ca.issueQsealc({
      organizationIdentifier: 'PSDNO-FSA-123456789',
      name: 'Worker TPP AS',
      roles: ['PSP_PI'],
      publicKey,
    });
    const client = new TppClient(
      url,
      credentialsFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), issued.certificatePem),
    );
    const psu = await privatePsu(client);
    for (let n = 0; n < 4; n++) {
      await created(initiate(client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    }
    expect((await answeredBy('initiatePayment_NDCT', 4)).size).toBe(2);
    const samples = await scrape();
    expect(sampleValue(samples, 'xs2a_payments', { status: 'RCVD' })).toBe(4);
    expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'POST', route: `/v1/payments/${NDCT}`, status: '201' })).toBe(4);
  });

  it('replaces a worker that dies, in its role, and both workers had served', async () => {
    const before = readyWorkers();
    const [batchWorker] = [...before].find(([, role]) => role === 'batch-schedule')!;
    process.kill(batchWorker, 'SIGKILL');
    const replacement = await until('a replacement worker', () =>
      logs().find((line) => line.msg === 'replacement worker ready' && line.worker !== undefined && !before.has(line.worker)),
    );
    expect(replacement.workerRole).toBe('batch-schedule');
    expect(await until('its ready line', () => readyWorkers().get(replacement.worker!))).toBe('batch-schedule');
    expect(logs()).toContainEqual(
      expect.objectContaining({
        msg: 'worker exited unexpectedly; starting a replacement',
        worker: batchWorker,
        workerRole: 'batch-schedule',
      }),
    );
    expect(isAlive(batchWorker)).toBe(false);
    expect((await getFresh(`${url}/health/live`)).status).toBe(200);
    // The killed worker's counts went with it: what is left is the survivor's share (plus the
    // one call just now), so each of the two had answered some of the ten calls.
    const left = sampleValue(await scrape(), 'xs2a_http_requests_total', { method: 'GET', route: '/health/live', status: '200' })!;
    expect(left).toBeGreaterThan(1);
    expect(left).toBeLessThan(10);
  });

  it('stops every worker on SIGTERM and exits 0', async () => {
    const workers = [...readyWorkers().keys()].filter(isAlive);
    expect(workers).toHaveLength(2);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    for (const pid of workers) expect(isAlive(pid)).toBe(false);
    await expect(getFresh(`${url}/health/live`)).rejects.toThrow();
    expect(
      logs()
        .filter((line) => line.msg === 'shutting down')
        .map((line) => line.pid)
        .sort(),
    ).toEqual(workers.sort());
  });
});

describe('what the workers share', () => {
  it('migrate is a no-op on a migrated SQLite file, also when several processes run it at once', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'xs2a-migrate-'));
    tempDirs.push(cwd);
    const env = { DATABASE_URL: `sqlite:${join(cwd, 'xs2a.db')}` };
    expect((await runCli(['migrate'], { cwd, env, timeoutMs: 30_000 })).code).toBe(0);
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => runCli(['migrate'], { cwd, env, timeoutMs: 30_000 })));
    for (const outcome of outcomes) {
      expect(outcome).toEqual({ code: 0, stdout: 'database is up to date\n', stderr: '' });
    }
  });
});

describe('serve --workers usage', () => {
  it.each(['0', '65', 'two', '1.5', ''])('refuses --workers %j with exit code 2 and the usage of serve', async (workers) => {
    const cwd = mkdtempSync(join(tmpdir(), 'xs2a-usage-'));
    tempDirs.push(cwd);
    const outcome = await runCli(['serve', '--workers', workers], { cwd, timeoutMs: 30_000 });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.split('\n')[0]).toBe(`nordic-xs2a: --workers takes a whole number from 1 to 64, not "${workers}"`);
    expect(outcome.stderr).toContain('nordic-xs2a serve [--workers N]');
    expect(outcome.stderr).not.toContain('nordic-xs2a tpp call'); // serve's usage, not every command's
    expect(readdirSync(cwd)).toEqual([]); // refused before anything was opened
  });
});
