import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the thread copies the log back into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;

/**
 * The log size (pages) at which a commit on the serving connection checkpoints by itself: a
 * backstop for a thread that falls behind, far above what it lets the log reach.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 16_000;

/**
 * The thread's code. It runs as a CommonJS script (`eval`), so the same file serves the built
 * server and the TypeScript sources under test. A PASSIVE checkpoint neither waits for nor blocks
 * the writer or the readers; one that finds another checkpoint running (another process of
 * `serve --workers N` on the same file) is skipped and tried again next time.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') parentPort.postMessage(String(error.message));
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the thread and closes its connection; the serving connection then closes last. */
  close(): Promise<void>;
}

/**
 * Copies SQLite's write-ahead log back into the database file on a thread of its own.
 *
 * With the log's default checkpoint, the commit that fills it past 1 000 pages copies them all
 * back, and syncs, while a request waits for it: about half the cost of a commit, measured on
 * inserts like a payment's. Here the serving connection only appends to the log, and the copying
 * runs beside it on the other core. Nothing about durability changes: commits reach the log as
 * before (WAL, synchronous=NORMAL), and a checkpoint syncs as SQLite's own does.
 */
export function startWalCheckpointer(path: string, onError: (message: string) => void): WalCheckpointer {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    // Not the process's flags: `--input-type=module` would make the source a module (no
    // `require`), and `--cpu-prof` would profile the thread into a file of its own.
    execArgv: [],
    workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  worker.on('message', (message: string) => onError(message));
  worker.on('error', (error) => onError(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async close() {
      // Unref'd so it never holds a process open; held again while it is being closed, or the
      // process could end with this wait pending.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
