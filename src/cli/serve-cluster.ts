import cluster, { type Address, type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { serveClusterMetrics } from '../observability/cluster-metrics.js';

/**
 * The primary of `serve --workers N`: forks the workers, replaces one that dies, and stops them
 * all on SIGINT or SIGTERM. Each worker runs the single-process serve on the shared port.
 */

/** Set by the primary on each worker it forks: which part the worker plays. */
const ROLE_VARIABLE = 'NORDIC_XS2A_WORKER';

/** Exactly one worker runs the batch schedule; the others only answer requests. */
export type WorkerRole = 'batch-schedule' | 'requests';

/** How long stopping workers get to finish their requests before they are killed. */
const STOP_GRACE_MS = 30_000;
/** The longest wait before another try at a replacement that keeps dying before it listens. */
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * This process's role when our primary forked it; undefined otherwise (also under another
 * process manager's cluster, which sets no role).
 */
export function clusterWorkerRole(): WorkerRole | undefined {
  if (!cluster.isWorker) return undefined;
  const role = process.env[ROLE_VARIABLE];
  return role === 'batch-schedule' || role === 'requests' ? role : undefined;
}

export interface Supervision {
  readonly workers: number;
  readonly logger: Logger;
  /** Called once, when every worker listens, with the port they share. */
  readonly onReady: (port: number) => void;
}

/**
 * Runs the workers until a signal, and answers with the exit code: 0 after SIGINT or SIGTERM;
 * the failing worker's code when a worker dies before all have started (it has printed why).
 * The batch-schedule worker starts first, alone: a start that fails (port taken, unreadable
 * trust files) then fails once, with one message, instead of N times.
 */
export function superviseWorkers({ workers: count, logger, onReady }: Supervision): Promise<number> {
  return new Promise<number>((resolve) => {
    const roles = new Map<Worker, WorkerRole>();
    const ready = new Set<Worker>();
    const pendingForks = new Set<NodeJS.Timeout>();
    let started = false;
    let stopping = false;
    let exitCode = 0;
    /** Replacements in a row that died before listening: they back off. */
    let failedStarts = 0;
    let killTimer: NodeJS.Timeout | undefined;
    const stopAnsweringMetrics = serveClusterMetrics();

    const fork = (role: WorkerRole) => {
      const worker = cluster.fork({ [ROLE_VARIABLE]: role });
      roles.set(worker, role);
    };

    const finishWhenAllGone = () => {
      if (!stopping || roles.size > 0) return;
      clearTimeout(killTimer);
      cluster.off('listening', onListening);
      cluster.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stopAnsweringMetrics();
      resolve(exitCode);
    };

    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      for (const timer of pendingForks) clearTimeout(timer);
      pendingForks.clear();
      // Each worker closes its server on SIGTERM: in-flight requests finish first.
      for (const worker of roles.keys()) worker.process.kill('SIGTERM');
      killTimer = setTimeout(() => {
        for (const worker of roles.keys()) {
          logger.warn({ worker: worker.process.pid }, 'worker did not stop in time; killing it');
          worker.process.kill('SIGKILL');
        }
      }, STOP_GRACE_MS);
      finishWhenAllGone();
    };

    const onListening = (worker: Worker, address: Address) => {
      if (stopping) return;
      ready.add(worker);
      failedStarts = 0;
      if (started) {
        logger.info({ worker: worker.process.pid, workerRole: roles.get(worker) }, 'replacement worker ready');
        return;
      }
      if (ready.size === 1) {
        for (let n = 1; n < count; n++) fork('requests');
      }
      if (ready.size === count) {
        started = true;
        logger.info({ workers: [...ready].map((each) => each.process.pid) }, 'workers ready');
        onReady(address.port);
      }
    };

    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      const role = roles.get(worker) ?? 'requests';
      roles.delete(worker);
      const wasReady = ready.delete(worker);
      if (stopping) {
        finishWhenAllGone();
        return;
      }
      if (!started) {
        logger.error({ worker: worker.process.pid, code, signal }, 'a worker could not start; stopping');
        stop(code !== null && code > 0 ? code : 1);
        return;
      }
      failedStarts = wasReady ? 0 : failedStarts + 1;
      const delay = failedStarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (failedStarts - 1));
      logger.warn(
        { worker: worker.process.pid, workerRole: role, code, signal, restartInMs: delay },
        'worker exited unexpectedly; starting a replacement',
      );
      const timer = setTimeout(() => {
        pendingForks.delete(timer);
        fork(role);
      }, delay);
      pendingForks.add(timer);
    };

    const onSignal = (signal: NodeJS.Signals) => {
      // A second signal (Ctrl-C reaches the workers too, then the primary) changes nothing.
      logger.info({ signal }, 'shutting down the workers');
      stop(0);
    };

    cluster.on('listening', onListening);
    cluster.on('exit', onExit);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    fork('batch-schedule');
  });
}
