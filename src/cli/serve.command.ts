import cluster from 'node:cluster';
import pino from 'pino';
import type { Config } from '../config/config.schema.js';
import { bankSealFiles, sandboxCaFiles } from '../config/data-dir.js';
import { loadConfig } from '../config/load-config.js';
import { joinClusterMetrics } from '../observability/cluster-metrics.js';
import { startRsaKeyPair } from '../security/rsa-key-pairs.js';
import { clusterWorkerRole, superviseWorkers, type WorkerRole } from './serve-cluster.js';
import { parseCommandArgs } from './command-line.js';
import { UsageError } from './usage-error.js';

const MAX_WORKERS = 64;

/**
 * `nordic-xs2a serve [--workers N]`: opens the database, the trust store and the app, and
 * listens. With N > 1 this process becomes a node:cluster primary and N worker processes (this
 * same command, forked) share the port. The server's modules are imported only once the keys a
 * first start makes have been begun (startKeysAhead), so the two overlap.
 */
export async function serveCommand(args: readonly string[]): Promise<number> {
  const workers = parseWorkers(args);
  const config = loadConfig();
  const role = clusterWorkerRole();
  if (role) {
    // The primary made the CA; each worker opens the seal.
    startKeysAhead(config, { ca: false, seal: true });
    return serveWorker(config, role);
  }
  if (workers > 1) {
    // The primary makes the CA the workers share; it never opens the seal.
    startKeysAhead(config, { ca: true, seal: false });
    return servePrimary(config, workers);
  }
  startKeysAhead(config, { ca: true, seal: true });
  return serveProcess(config);
}

/**
 * Begins the RSA keys a first start makes (the sandbox CA's, and the generated notification
 * seal's), by the same conditions as the modules that open them: each takes 0.2 to 0.6 s, now on
 * the thread pool while the server's modules load (security/rsa-key-pairs.ts).
 */
function startKeysAhead(config: Config, which: { readonly ca: boolean; readonly seal: boolean }): void {
  if (which.ca && config.mode === 'sandbox') startRsaKeyPair(sandboxCaFiles(config.dataDir).privateKey);
  const sealGenerated = config.notificationSealKeyFile === undefined || config.notificationSealCertificateFile === undefined;
  if (which.seal && config.notifications && sealGenerated) startRsaKeyPair(bankSealFiles(config.dataDir).privateKey);
}

function parseWorkers(args: readonly string[]): number {
  const { values } = parseCommandArgs('serve', args, { options: { workers: { type: 'string', default: '1' } } });
  const workers = /^[0-9]{1,2}$/.test(values.workers) ? Number(values.workers) : Number.NaN;
  if (!(workers >= 1 && workers <= MAX_WORKERS)) {
    throw new UsageError(`--workers takes a whole number from 1 to ${MAX_WORKERS}, not "${values.workers}"`, { commands: ['serve'] });
  }
  return workers;
}

/** The single-process server (no --workers). */
async function serveProcess(config: Config): Promise<number> {
  // Asynchronous logging keeps request logs off the hot path.
  const destination = pino.destination({ sync: false, minLength: 4096 });
  const logger = pino({ level: config.logLevel, base: { service: config.systemName } }, destination);
  const port = await listen(config, logger, {});
  destination.flushSync();
  process.stdout.write(`nordic-xs2a ${config.mode} listening on http://${config.host}:${port.number} (docs: ${config.publicUrl}/docs)\n`);
  // As before: the first signal stops gracefully, a second one (default action) ends at once.
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      port.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  destination.flushSync();
  return 0;
}

/** A worker forked by {@link servePrimary}: the same server, told whether it runs the batch schedule. */
async function serveWorker(config: Config, role: WorkerRole): Promise<number> {
  // Workers share the primary's stdout: one write per line keeps their lines whole.
  const destination = pino.destination({ sync: true });
  const logger = pino({ level: config.logLevel, base: { service: config.systemName, pid: process.pid, role } }, destination);
  try {
    joinClusterMetrics();
    const port = await listen(config, logger, { runsBatchSchedule: role === 'batch-schedule', sharesDatabase: true });
    await new Promise<void>((resolve) => {
      let stopping = false;
      // Kept for the worker's whole life: Ctrl-C signals the workers and then the primary signals
      // them again; a second signal must not end a worker that is finishing its requests.
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        port.close().then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  } finally {
    // The IPC channel (metrics requests) would keep the process alive; a disconnect the worker
    // asks for is not taken as the primary's death.
    cluster.worker?.disconnect();
  }
}

/**
 * The primary: prepares what the workers share (the migrated database, the sandbox CA) so they
 * do not race to create it, then runs them. Prints the one "listening" line.
 */
async function servePrimary(config: Config, workers: number): Promise<number> {
  const destination = pino.destination({ sync: true });
  const logger = pino({ level: config.logLevel, base: { service: config.systemName, pid: process.pid, role: 'primary' } }, destination);
  const [{ createDatabase }, { migrateToLatest }, { SandboxCa }] = await Promise.all([
    import('../db/create-db.js'),
    import('../db/migrate.js'),
    import('../security/certificates/sandbox-ca.js'),
  ]);
  const database = createDatabase(config.database);
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  if (config.mode === 'sandbox') {
    await SandboxCa.open(config.dataDir);
  }
  if (config.database.dialect === 'sqlite') {
    // Said once at start: an operator adding workers expects more throughput, and on one SQLite
    // file the workers' commits wait for each other's write lock instead (README, bench (e) and (b)).
    logger.warn(
      { database: 'sqlite', workers },
      'several workers on one SQLite file take turns at its write lock and answer fewer payments per second than one process: on SQLite, run one; workers share the load only on PostgreSQL, on a machine with cores to spare for them and the database',
    );
  }
  return superviseWorkers({
    workers,
    logger,
    onReady: (port) => {
      process.stdout.write(
        `nordic-xs2a ${config.mode} listening on http://${config.host}:${port} with ${workers} workers (docs: ${config.publicUrl}/docs)\n`,
      );
    },
  });
}

interface Listening {
  readonly number: number;
  close(): Promise<void>;
}

async function listen(
  config: Config,
  logger: pino.Logger,
  options: { runsBatchSchedule?: boolean; sharesDatabase?: boolean },
): Promise<Listening> {
  // The bank's adapter reads its own settings from the environment the server was started with.
  const { openServer } = await import('../server.js');
  const server = await openServer(config, { logger, env: process.env, ...options });
  try {
    await server.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A port already taken: release the database too, so the process can end.
    await server.close();
    throw error;
  }
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Fastify has logged the address; this adds what was started.
  logger.info({ mode: config.mode, database: config.database.dialect, publicUrl: config.publicUrl }, 'ready');
  return { number: port, close: () => server.close() };
}
