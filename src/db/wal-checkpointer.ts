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
 * The thread's code, evaluated as a script (`eval`), so the same file serves the built server and
 * the TypeScript sources under test. It takes its modules through `process.getBuiltinModule`,
 * which works whether Node evaluates it as CommonJS or, under `--input-type=module` in
 * NODE_OPTIONS, as a module. A PASSIVE checkpoint neither waits for nor blocks the writer or the
 * readers; with another checkpoint running (another process of `serve --workers N` on the same
 * file) it does what it can and the rest is copied next time. An error is reported once, not every
 * 200 ms, until another one comes.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const load = process.getBuiltinModule('node:module').createRequire(workerData.driver);
const Database = load(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
let reported;
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    reported = undefined;
  } catch (error) {
    const code = String(error.code);
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return;
    const message = String(error.message);
    if (message !== reported) parentPort.postMessage(message);
    reported = message;
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

export interface CheckpointEvents {
  /** A checkpoint failed (told once per distinct error), or the thread could not start. */
  readonly onError: (message: string) => void;
  /** The thread ended without being closed: the serving connection must checkpoint again itself. */
  readonly onStopped: () => void;
}

/**
 * Copies SQLite's write-ahead log back into the database file on a thread of its own.
 *
 * With the log's default checkpoint, the commit that fills it past 1 000 pages copies them all
 * back, and syncs, while a request waits for it: about half the cost of a commit, measured on
 * inserts like a payment's (bench/sqlite-commit-cost.ts). Here the serving connection only appends
 * to the log and the copying runs beside it, on whichever core is free. Commits reach the log as
 * before (WAL, synchronous=NORMAL); the thread's checkpoints sync as SQLite's own do.
 */
export function startWalCheckpointer(path: string, events: CheckpointEvents): WalCheckpointer {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    // Not the process's command-line flags: `--cpu-prof` would profile the thread into a file of
    // its own.
    execArgv: [],
    workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  let closing = false;
  worker.on('message', (message: string) => events.onError(message));
  worker.on('error', (error) => events.onError(error.message));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!closing) events.onStopped();
      resolve();
    }),
  );
  return {
    async close() {
      closing = true;
      // Unref'd so it never holds a process open; held again while it is being closed, or the
      // process could end with this wait pending.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
