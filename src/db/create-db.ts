import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely';
import type { DatabaseTarget } from '../config/config.schema.js';
import type { Database } from './database.js';
import { beforeCommit, committed } from './transaction-scope.js';
import { BACKSTOP_CHECKPOINT_PAGES, startWalCheckpointer, type CheckpointEvents } from './wal-checkpointer.js';
import { guardedDialect, insideTransaction } from './transaction-guard.js';
import { nameComposedStatement, statementNameOf } from './prepared-query.js';
import { deferringDialect } from './deferred-writes.js';
import { directSqliteDialect, holdingConnection, servedDirectly } from './direct-sqlite.js';
import { commitGroupDialect, NO_COMMIT_GROUPS } from './sqlite-commit-groups.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either a database handle or a transaction: repositories accept both. */
export type DbOrTx = Db | Tx;

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: DatabaseTarget['dialect'];
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is first opened: the embedded default
 * (SQLite) does not pay for loading it at start.
 */
async function postgresDriver(): Promise<typeof pg> {
  const { default: pg } = await import('pg');
  // PostgreSQL hands timestamptz back as Date and int8 as text; the repositories see ISO strings
  // on both dialects, so one code path serves SQLite and PostgreSQL.
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => new Date(value).toISOString());
  return pg;
}

/** SQLite's own default: a commit that fills the log past this many pages checkpoints it. */
const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1000;

export interface DatabaseOptions {
  /** PostgreSQL: the pool's size. */
  readonly poolSize?: number;
  /** PostgreSQL: the schema searched first (tests and the bench use one each). */
  readonly searchPath?: string;
  /**
   * SQLite in a file: checkpoint the log on a thread of its own (wal-checkpointer.ts) instead of
   * in the commits of requests; told what went wrong there. The server sets it.
   */
  readonly checkpointInBackground?: Pick<CheckpointEvents, 'onError'>;
  /**
   * SQLite: commit the transactions and writes of a turn of the event loop together
   * (sqlite-commit-groups.ts; default true). False when other processes write to the same file.
   */
  readonly commitInGroups?: boolean;
}

/**
 * Opens the database docs/design.md §7 names: SQLite (the embedded default: WAL, synchronous=NORMAL,
 * commits in groups: sqlite-commit-groups.ts) or PostgreSQL. This is the only file that knows which dialect is in use.
 */
export function createDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): DatabaseHandle {
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') {
      mkdirSync(dirname(target.path), { recursive: true });
    }
    const sqlite = new SQLite(target.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    // Each transaction of a commit group is a savepoint, and SQLite keeps a copy of every page a
    // savepoint changes so that it can be undone. With temporary files on disk those copies go,
    // past 64 KiB, to a file: about 40 page writes per signed initiation (bench/README.md). A
    // member's copies are dropped at its release, so memory holds one transaction's pages at most.
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const background = target.path !== ':memory:' ? options.checkpointInBackground : undefined;
    const checkpointer =
      background &&
      startWalCheckpointer(target.path, {
        onError: background.onError,
        onStopped: () => {
          // Without the thread, commits checkpoint as SQLite's default has them do.
          if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
          background.onError('the checkpoint thread stopped; commits checkpoint the log themselves again');
        },
      });
    if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    const connection = withStatementCache(sqlite);
    const dialect = new SqliteDialect({ database: connection });
    const grouped =
      options.commitInGroups === false
        ? { dialect, groups: NO_COMMIT_GROUPS }
        : commitGroupDialect(dialect, {
            get inTransaction() {
              return sqlite.inTransaction;
            },
            prepare: (text) => connection.prepare(text),
          });
    const direct = directSqliteDialect(grouped.dialect, (text) => connection.prepare(text), grouped.groups);
    const db = new Kysely<Database>({ dialect: guardedDialect(direct.dialect) });
    servedDirectly(db, direct.sqlite);
    return {
      db,
      dialect: 'sqlite',
      close: async () => {
        await checkpointer?.close();
        await db.destroy();
      },
    };
  }
  const pool = async () => {
    const pool = new (await postgresDriver()).Pool({
      connectionString: target.url,
      max: options.poolSize ?? 20,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    pool.on('connect', runsPreparedQueriesNamed);
    return pool;
  };
  const db = new Kysely<Database>({ dialect: guardedDialect(deferringDialect(new PostgresDialect({ pool }), nameComposedStatement)) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * Makes a PostgreSQL connection run the SQL of prepared queries (prepared-query.ts) as named
 * statements: the server parses and plans each once per connection, not on every request. Kysely
 * runs every query as `query(text, values)`; any other SQL is passed on unchanged.
 */
function runsPreparedQueriesNamed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  // Statements this connection prepares again under a new name: the server forgot the old one
  // (26000: a DISCARD, a pooler) or its columns changed (0A000: a migration by a newer instance).
  // The run that finds out fails; the next one on this connection prepares the statement afresh.
  const renamed = new Map<string, string>();
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const named = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? statementNameOf(text) : undefined;
    if (named === undefined) return query(...args);
    const name = renamed.get(text as string) ?? named;
    return query({ name, text, values }).catch((error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === '26000' || code === '0A000') renamed.set(text as string, `${named}_${++renames}`);
      throw error;
    });
  }) as typeof client.query;
}

/** Statements prepared again under a new name, over all connections (each name is new). */
let renames = 0;

/** Prepared statements kept per SQL text; the repositories' queries are few and fixed. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; on better-sqlite3 that costs more than running it. Statements
 * are reused by SQL text (safe: better-sqlite3 is synchronous and Kysely serialises use of the
 * connection), and the cache is bounded so generated SQL cannot grow it without limit.
 */
function withStatementCache(sqlite: SQLite.Database): Omit<SqliteDatabase, 'prepare'> & { prepare(text: string): SQLite.Statement } {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      // Kysely begins with a deferred BEGIN. With several processes on one file (`serve --workers
      // N`) a deferred transaction that reads, then writes, fails at once (SQLITE_BUSY) when
      // another process wrote meanwhile; IMMEDIATE takes the write lock up front, and the busy
      // timeout lets the other process finish first. One process sees no difference.
      if (text === 'begin') text = 'begin immediate';
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.clear();
        }
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Runs `work` in one transaction; services use it, repositories take the `trx` it passes. Inside
 * a transaction scope (transaction-scope.ts) the scope's pending work, told the value `work`
 * returned, commits with it.
 */
export async function withTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  let scope: Awaited<ReturnType<typeof beforeCommit>> = undefined;
  const result = await db.transaction().execute((trx) =>
    insideTransaction(async () => {
      const release = holdingConnection(db, trx);
      try {
        const value = await work(trx);
        scope = await beforeCommit(trx, value);
        return value;
      } finally {
        release();
      }
    }),
  );
  committed(scope);
  return result;
}
