import type { DatabaseConnection, Dialect, Driver, Kysely, QueryResult } from 'kysely';
import { inOpenTransaction } from './transaction-guard.js';
import { givenBack, type CommitGroups } from './sqlite-commit-groups.js';
import { driverChanging, withDriver } from './wrapped-driver.js';

/**
 * SQLite's one connection, for statements run at once instead of through Kysely's driver. Kysely
 * queues every statement behind a mutex of promises (about twenty per statement), which costs a
 * request more than SQLite's work on its short statements (bench/README.md). better-sqlite3 runs
 * a statement synchronously, so a statement run while no one holds or waits for the connection
 * is alone on it, exactly as if it had taken the mutex and given it back.
 */
export interface DirectSqlite {
  /** No transaction or statement holds the connection, and none waits for it. */
  isFree(): boolean;
  /**
   * Runs one statement now, answering as Kysely's SQLite driver does; once its commit group
   * committed (sqlite-commit-groups.ts) when it ran in one.
   */
  execute<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> | Promise<QueryResult<R>>;
  /** Runs one select now, answering each row as an array of its columns, in the select list's order. */
  selectArrays(sql: string, parameters: readonly unknown[]): unknown[][] | Promise<unknown[][]>;
}

/** A statement as better-sqlite3 prepares it (the part used here). */
interface Statement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  /** Rows as arrays (true) or as objects (false) from now on. */
  raw(toggle: boolean): unknown;
  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}

/** The connection as served directly: to a transaction that holds it, and to a statement alone. */
interface DirectAccess {
  /** Inside the transaction holding the connection: its statements are part of it. */
  readonly inTransaction: DirectSqlite;
  /** A statement alone on the free connection: part of the open commit group, if any. */
  readonly alone: DirectSqlite;
}

interface Access {
  readonly sqlite: DirectAccess;
  /** A transaction's handle while its work runs: it holds the connection. */
  readonly holdsConnection: boolean;
}

/** The database handles, and the transactions while their work runs, that SQLite can serve directly. */
const handles = new WeakMap<object, Access>();

function execute<R>(statement: Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

function selectArrays(statement: Statement, parameters: readonly unknown[]): unknown[][] {
  // The statement is shared by SQL text with Kysely's driver, which wants objects: arrays for
  // this run only (synchronous, so no other run comes between).
  statement.raw(true);
  try {
    return statement.all(parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
}

/**
 * Runs a statement alone on the free connection: at once, or, inside an open commit group or as
 * a write that opens one, answered (result or error) once the group committed.
 */
function alone<T>(groups: CommitGroups, statement: Statement, run: () => T): T | Promise<T> {
  const committed = groups.statementAlone(!statement.reader);
  if (committed === undefined) return run();
  let result: T;
  try {
    result = run();
  } catch (error) {
    groups.afterError();
    return committed.then(() => {
      throw error;
    });
  }
  return committed.then(() => result);
}

/**
 * Wraps a SQLite dialect so that its connection can also be used directly: returns the dialect
 * to give Kysely, and the direct access, which knows from the driver whether the connection is
 * held or awaited. `prepare` is the connection's own (cached) statement preparation; `groups` the
 * commit groups the dialect's driver commits in.
 */
export function directSqliteDialect(
  inner: Dialect,
  prepare: (sql: string) => Statement,
  groups: CommitGroups,
): { dialect: Dialect; sqlite: DirectAccess } {
  // Connections asked for and not yet given, and connections given and not yet released.
  let waiting = 0;
  let held = 0;
  const isFree = () => waiting === 0 && held === 0;
  const sqlite: DirectAccess = {
    inTransaction: {
      isFree,
      execute: (sql, parameters) => execute(prepare(sql), parameters),
      selectArrays: (sql, parameters) => selectArrays(prepare(sql), parameters),
    },
    alone: {
      isFree,
      execute(sql, parameters) {
        const statement = prepare(sql);
        return alone(groups, statement, () => execute(statement, parameters));
      },
      selectArrays(sql, parameters) {
        const statement = prepare(sql);
        return alone(groups, statement, () => selectArrays(statement, parameters));
      },
    },
  };
  // Connections a transaction's end gave back (commit groups) before Kysely releases them: the
  // transaction waits for its group's commit, and the connection is free for others meanwhile.
  // Weak: a controlled transaction whose group failed to commit may never be released.
  const freedEarly = new WeakSet<DatabaseConnection>();
  const ended = (connection: DatabaseConnection, ending: Promise<void>): Promise<void> => {
    // The give-back happens synchronously in the call, when the member's savepoint was released.
    if (!freedEarly.has(connection) && givenBack(connection)) {
      freedEarly.add(connection);
      held--;
    }
    return ending;
  };
  const countingDriver = (driver: Driver): Driver =>
    driverChanging(driver, {
      acquireConnection: async () => {
        waiting++;
        try {
          const connection = await driver.acquireConnection();
          held++;
          return connection;
        } finally {
          waiting--;
        }
      },
      commitTransaction: (connection: DatabaseConnection) => ended(connection, driver.commitTransaction(connection)),
      rollbackTransaction: (connection: DatabaseConnection) => ended(connection, driver.rollbackTransaction(connection)),
      releaseConnection: async (connection: DatabaseConnection) => {
        if (!freedEarly.delete(connection)) held--;
        await driver.releaseConnection(connection);
      },
    });
  return {
    dialect: withDriver(inner, countingDriver),
    sqlite,
  };
}

/** Tells that this database handle is served by `sqlite` (create-db.ts, for SQLite). */
export function servedDirectly(db: object, sqlite: DirectAccess): void {
  handles.set(db, { sqlite, holdsConnection: false });
}

/**
 * Marks a transaction's handle as holding the connection while its work runs (withTransaction):
 * its statements run directly until the returned function is called, before the commit. Nothing
 * when the database is not served directly.
 */
export function holdingConnection(db: object, trx: object): () => void {
  const access = handles.get(db);
  if (access === undefined) return () => {};
  handles.set(trx, { sqlite: access.sqlite, holdsConnection: true });
  return () => handles.delete(trx);
}

/**
 * The direct access for a statement on this handle now: a transaction while its work runs, or
 * the database while its connection is free. Undefined: go through Kysely (PostgreSQL, a busy
 * connection, a transaction that ended).
 */
export function directAccessNow(db: object): DirectSqlite | undefined {
  const access = handles.get(db);
  if (access === undefined) return undefined;
  if (access.holdsConnection) return access.sqlite.inTransaction;
  // The database handle inside a transaction's work goes through Kysely, whose guard refuses it
  // (transaction-guard.ts), even when the connection is free: another database's transaction.
  return access.sqlite.alone.isFree() && !inOpenTransaction() ? access.sqlite.alone : undefined;
}

/**
 * The direct access for a statement on this database handle once the connection is free: the
 * connection is taken through Kysely (in turn with everything else waiting for it) and `run` is
 * served directly while it is held, as a statement alone. For long reads on a busy server, where
 * {@link directAccessNow} mostly finds the connection taken. Undefined where that cannot be: not
 * SQLite, a transaction's handle, or a database handle used inside a transaction's work.
 */
export function directAccessInTurn<T>(db: Kysely<any>, run: (sqlite: DirectSqlite) => T | Promise<T>): Promise<T> | undefined {
  const access = handles.get(db);
  if (access === undefined || access.holdsConnection || inOpenTransaction()) return undefined;
  // Answered once the connection is given back: a statement run in an open commit group answers
  // after the group's commit, which needs the connection.
  return db
    .connection()
    .execute(async () => ({ answer: run(access.sqlite.alone) }))
    .then(({ answer }) => answer);
}
