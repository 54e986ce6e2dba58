import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { withDriver } from './wrapped-driver.js';

/**
 * Group commit on SQLite's one connection. A commit costs about as much as a request's inserts
 * (bench/README.md), and most of it is writing the pages the transaction touched to the log; the
 * requests of one turn of the event loop touch the same few pages (the last leaf of each table and
 * index). So the writes of a turn share one transaction, the group, and one commit:
 *
 * - The first write opens the group (BEGIN IMMEDIATE) and schedules its commit for the end of the
 *   turn (`setImmediate`), or, if the connection is held then, for when it is given back.
 * - Each Kysely transaction is a savepoint inside the group: its rollback undoes its own work
 *   alone, and it sees the work of the transactions before it, as if they had committed.
 * - Every statement run while a group is open is part of it, reads included.
 *
 * Nothing is answered before it is durable: a transaction, and any statement that ran in an open
 * group, settles only once the group committed, and fails with it if the commit fails (or SQLite
 * rolled the group back on an I/O error). A read that saw another member's uncommitted write
 * therefore never answers with it unless it committed; a process killed before the commit loses
 * the group's work and has answered none of it. A statement that fails in a group also waits: its
 * error may come from another member's work (a duplicate key).
 *
 * Reads outside any group run at once, as before, and see only committed data.
 *
 * Kysely's `db.connection().execute(work)` and `stream()` hold the connection: their statements join
 * the group and `work` sees their results at once; the call itself answers after the commit.
 */
export interface CommitGroups {
  /**
   * For one statement about to run on the free connection outside any transaction (direct-sqlite.ts):
   * the commit it must wait for before answering, opening a group for a write; undefined for a read
   * while no group is open.
   */
  statementAlone(writes: boolean): Promise<void> | undefined;
  /** After a statement failed: a group SQLite rolled back (an I/O error, a full disk) fails. */
  afterError(): void;
}

/** Each transaction and write commits by itself: Kysely's own SQLite driver, not wrapped. */
export const NO_COMMIT_GROUPS: CommitGroups = {
  statementAlone: () => undefined,
  afterError: () => {},
};

/** SQLite's connection, as the groups use it: better-sqlite3's, with its statement cache. */
export interface GroupedSqlite {
  readonly inTransaction: boolean;
  prepare(sql: string): { readonly reader: boolean; run(...parameters: unknown[]): unknown };
}

/** The savepoint each Kysely transaction is inside the group; transactions run one at a time. */
const MEMBER = 'xs2a_commit_group_member';

interface Group {
  readonly committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A group whose members all failed before its commit has no one waiting for it.
  committed.catch(() => {});
  return { committed, resolve, reject };
}

/** A connection as Kysely holds it here: whether a transaction is open on it, and the group it joined. */
class HeldConnection implements DatabaseConnection {
  inTransaction = false;
  member: Promise<void> | undefined;
  /** Given back to the driver (by its transaction's end, or by Kysely). */
  given = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly groups: Groups,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.inTransaction) this.member ??= this.groups.statementAlone(this.groups.writes(query.sql));
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      this.groups.afterError();
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.inTransaction) this.member ??= this.groups.statementAlone(this.groups.writes(query.sql));
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class Groups implements CommitGroups {
  #open: Group | undefined;
  /** Kysely holds the connection (a transaction, or a statement waiting its turn). */
  #held = false;
  /** The open group's turn ended while the connection was held: commit when it is given back. */
  #due = false;
  /** A transaction's savepoint is open in the group (transactions run one at a time). */
  #memberOpen = false;

  constructor(private readonly sqlite: GroupedSqlite) {}

  writes(sql: string): boolean {
    return !this.sqlite.prepare(sql).reader;
  }

  statementAlone(writes: boolean): Promise<void> | undefined {
    this.afterError();
    if (this.#open) return this.#open.committed;
    return writes ? this.openGroup().committed : undefined;
  }

  afterError(): void {
    const open = this.#open;
    if (open && !this.sqlite.inTransaction) {
      this.#open = undefined;
      this.#due = false;
      open.reject(new Error('SQLite rolled back the open commit group; its transactions are lost'));
    }
  }

  connectionTaken(): void {
    this.#held = true;
  }

  /** The connection was given back: commits a group whose turn ended while it was held. */
  connectionGiven(): void {
    this.#held = false;
    if (this.#due) this.commit();
  }

  beginMember(): Promise<void> {
    this.afterError();
    const group = this.#open ?? this.openGroup();
    this.run(`savepoint ${MEMBER}`);
    this.#memberOpen = true;
    return group.committed;
  }

  commitMember(): void {
    this.#memberOpen = false;
    this.run(`release ${MEMBER}`);
  }

  rollbackMember(): void {
    if (!this.#memberOpen) return;
    this.#memberOpen = false;
    if (this.sqlite.inTransaction) {
      this.run(`rollback to ${MEMBER}`);
      this.run(`release ${MEMBER}`);
    }
    this.afterError();
  }

  /**
   * Commits the open group now (closing the database). A transaction still running is undone
   * first: its work is half done, and its later statements fail on the closed database.
   */
  commitOpen(): void {
    if (this.#open === undefined) return;
    if (this.#memberOpen) this.rollbackMember();
    this.commit();
  }

  private openGroup(): Group {
    this.run('begin immediate');
    const group = newGroup();
    this.#open = group;
    setImmediate(() => {
      if (this.#open !== group) return;
      if (this.#held) this.#due = true;
      else this.commit();
    });
    return group;
  }

  private commit(): void {
    const group = this.#open;
    this.#open = undefined;
    this.#due = false;
    if (group === undefined) return;
    try {
      if (!this.sqlite.inTransaction) throw new Error('SQLite rolled back the open commit group; its transactions are lost');
      this.run('commit');
      group.resolve();
    } catch (error) {
      if (this.sqlite.inTransaction) {
        try {
          this.run('rollback');
        } catch {
          // The commit's error is the one to report.
        }
      }
      group.reject(error);
    }
  }

  private run(sql: string): void {
    this.sqlite.prepare(sql).run();
  }
}

/**
 * Whether Kysely's connection was given back to the driver already: a transaction's commit or
 * rollback gives it back at once and then waits for its group, before Kysely releases it.
 */
export function givenBack(connection: DatabaseConnection): boolean {
  return connection instanceof HeldConnection && connection.given;
}

/**
 * Wraps a SQLite dialect (its one connection is `sqlite`) so that its transactions and writes
 * commit in groups: returns the dialect to give Kysely and the groups, for the statements run on
 * the connection directly (direct-sqlite.ts).
 */
export function commitGroupDialect(inner: Dialect, sqlite: GroupedSqlite): { dialect: Dialect; groups: CommitGroups } {
  const groups = new Groups(sqlite);
  const groupedDriver = (driver: Driver): Driver => {
    /** Gives a held connection back, once. */
    const giveBack = async (held: HeldConnection): Promise<void> => {
      if (held.given) return;
      held.given = true;
      if (held.inTransaction) {
        // Kysely commits or rolls back before it gives a connection back; if not, nothing half done stays.
        held.inTransaction = false;
        groups.rollbackMember();
      }
      groups.connectionGiven();
      await driver.releaseConnection(held.inner);
    };
    return {
      init: () => driver.init(),
      acquireConnection: async () => {
        const connection = await driver.acquireConnection();
        groups.connectionTaken();
        return new HeldConnection(connection, groups);
      },
      beginTransaction: async (connection: DatabaseConnection, _settings: TransactionSettings) => {
        const held = connection as HeldConnection;
        held.member = groups.beginMember();
        held.inTransaction = true;
      },
      // A transaction's commit (and rollback) gives the connection back at once, so that others can
      // join the group, and answers once the group committed: `db.transaction().execute()` and a
      // controlled transaction's `commit()` alike (Kysely does not wait for the latter's release).
      commitTransaction: async (connection: DatabaseConnection) => {
        const held = connection as HeldConnection;
        held.inTransaction = false;
        groups.commitMember();
        await giveBack(held);
        await held.member;
      },
      rollbackTransaction: async (connection: DatabaseConnection) => {
        const held = connection as HeldConnection;
        // Given back already: the group's commit failed after this transaction's own commit.
        if (held.given) return;
        held.inTransaction = false;
        groups.rollbackMember();
        await giveBack(held);
        await held.member;
      },
      savepoint: (connection, name, compile) => driver.savepoint!((connection as HeldConnection).inner, name, compile),
      rollbackToSavepoint: (connection, name, compile) => driver.rollbackToSavepoint!((connection as HeldConnection).inner, name, compile),
      releaseSavepoint: (connection, name, compile) => driver.releaseSavepoint!((connection as HeldConnection).inner, name, compile),
      releaseConnection: async (connection: DatabaseConnection) => {
        const held = connection as HeldConnection;
        await giveBack(held);
        await held.member;
      },
      destroy: async () => {
        groups.commitOpen();
        await driver.destroy();
      },
    };
  };
  return {
    dialect: withDriver(inner, groupedDriver),
    groups,
  };
}
