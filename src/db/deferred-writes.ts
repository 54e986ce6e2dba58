import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { withDriver } from './wrapped-driver.js';

/**
 * PostgreSQL: writes that travel with their transaction's next statement. Each statement is a
 * round trip to the server, and under load the round trips, not the statements' work, are what
 * an initiation's CPU goes on (bench/README.md). A write whose caller needs no answer from it (an
 * insert without RETURNING, whose count no one reads) is marked deferrable ({@link deferrable});
 * inside a transaction it is held back, and sent as a data-modifying `WITH` part of the next
 * statement, or on its own just before the commit:
 *
 *   with "deferred_1" as (insert into payment …), "deferred_2" as (insert into audit_event …)
 *   update idempotency_record set … where …
 *
 * The parts of one statement see the same snapshot, so a held-back write is carried only by a
 * statement that does not touch its tables (it could not see the write); any other statement, a
 * statement that cannot be read (raw SQL), a savepoint, its release and the commit first send what
 * is held on its own. PostgreSQL runs the parts of a statement in no set order, so at most one
 * write per table is held (a second one first sends the first): a table's rows are written in the
 * order of the calls, as its identity column shows. A rollback drops what is held, as does a
 * rollback to a savepoint (what is held was written after the savepoint: the savepoint sent what
 * was held before it). An error of a held-back write (a constraint) is raised by the statement
 * that carries it, in the same transaction and savepoint, which then rolls back as it would have.
 * Outside a transaction, and on SQLite (its statements are calls, not round trips), a deferrable
 * write runs at once.
 *
 * Tables are read from Kysely's operation node: the schema has no triggers, views or functions
 * through which a statement could touch a table it does not name. A migration that adds one must
 * keep the tables it touches out of deferrable writes.
 */

/** The compiled writes that may be held back (prepared-query.ts marks them). */
const deferrableQueries = new WeakSet<CompiledQuery>();

/** Marks a compiled write as one whose caller reads nothing from its result ({@link assertDeferrable}). */
export function deferrable<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  deferrableQueries.add(query);
  return query;
}

/** A deferrable write is an insert, update or delete without RETURNING: nothing in its result to wait for. */
export function assertDeferrable(query: CompiledQuery): void {
  const root = query.query as { kind?: string; returning?: unknown };
  if (!WRITES.has(root.kind ?? '') || root.returning !== undefined) {
    throw new Error('only an insert, update or delete without RETURNING can be deferrable');
  }
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/** PostgreSQL takes at most this many parameters in one statement. */
const MAX_PARAMETERS = 65_535;
/** What held-back writes may bind together, leaving room for the statement that carries them. */
const HELD_PARAMETERS = 30_000;

/** The `$n` placeholders of PostgreSQL's compiled SQL. */
const PLACEHOLDER = /\$(\d+)/g;

interface Held {
  readonly query: CompiledQuery;
  readonly tables: ReadonlySet<string>;
}

/** A dialect whose driver holds back deferrable writes inside transactions (PostgreSQL). */
export function deferringDialect(inner: Dialect, nameOf: (sql: string, parts: readonly string[]) => void): Dialect {
  const composed = new ComposedStatements(nameOf);
  return withDriver(inner, (driver) => deferringDriver(driver, composed));
}

/** A connection that holds back deferrable writes while its transaction is open. */
class DeferringConnection implements DatabaseConnection {
  inTransaction = false;
  held: Held[] = [];

  constructor(
    readonly inner: DatabaseConnection,
    private readonly composed: ComposedStatements,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction && deferrableQueries.has(query)) {
      const tables = tablesOf(query);
      if (tables !== undefined && placeholdersCounted(query)) {
        // One held write per table, and a bound on the parameters: else what is held goes first.
        const parameters = this.held.reduce((sum, write) => sum + write.query.parameters.length, query.parameters.length);
        if (parameters > HELD_PARAMETERS || !this.held.every((write) => disjoint(write.tables, tables))) await this.flush();
        this.held.push({ query, tables });
        // A result of its own each time: nothing to read, and nothing shared to change.
        return { rows: [] };
      }
    }
    if (this.held.length === 0) return this.inner.executeQuery<R>(query);
    const held = this.held;
    this.held = [];
    const tables = tablesOf(query);
    if (
      tables !== undefined &&
      placeholdersCounted(query) &&
      !/^with recursive /i.test(query.sql) &&
      held.every((write) => disjoint(write.tables, tables)) &&
      held.reduce((sum, write) => sum + write.query.parameters.length, query.parameters.length) <= MAX_PARAMETERS
    ) {
      return this.inner.executeQuery<R>(this.carried(held, query));
    }
    await this.sendHeld(held);
    return this.inner.executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    await this.flush();
    yield* this.inner.streamQuery<R>(query, chunkSize);
  }

  /** Sends what is held back, alone (before a commit, a savepoint, or a statement that cannot carry it). */
  async flush(): Promise<void> {
    const held = this.held;
    this.held = [];
    await this.sendHeld(held);
  }

  private async sendHeld(held: readonly Held[]): Promise<void> {
    if (held.length === 0) return;
    await this.inner.executeQuery(this.carried(held.slice(0, -1), held[held.length - 1]!.query));
  }

  /** `carrier` with the held-back writes as `WITH` parts before it, their placeholders renumbered. */
  private carried(held: readonly Held[], carrier: CompiledQuery): CompiledQuery {
    if (held.length === 0) return carrier;
    const queries = [...held.map((write) => write.query), carrier];
    const parameters: unknown[] = [];
    for (const query of queries) parameters.push(...query.parameters);
    return CompiledQuery.raw(this.composed.sqlOf(queries), parameters);
  }
}

/** A node of {@link ComposedStatements}: the SQL of the statements on the way to it, composed. */
interface Composed {
  sql?: string;
  readonly next: Map<string, Composed>;
}

/** Sequences of statements composed at most before the memory starts again. */
const MAX_COMPOSED = 1_000;

/**
 * The composed SQL of each sequence of statements met so far, found by their SQL texts one after
 * another: the same few sequences recur on every request, and composing them again (renumbering
 * every placeholder) cost more than the rest of the wrapping. Each is given to `nameOf` once, when
 * first composed. Bounded: SQL built per call (an `in` list of any length) could otherwise grow it
 * without end. One per dialect, so each dialect's `nameOf` hears of every sequence.
 */
class ComposedStatements {
  private root: Composed = { next: new Map() };
  private count = 0;

  constructor(private readonly nameOf: (sql: string, parts: readonly string[]) => void) {}

  sqlOf(queries: readonly CompiledQuery[]): string {
    let node = this.root;
    for (const query of queries) {
      let next = node.next.get(query.sql);
      if (next === undefined) {
        if (++this.count > MAX_COMPOSED) {
          this.root = { next: new Map() };
          this.count = 0;
          return this.sqlOf(queries);
        }
        next = { next: new Map() };
        node.next.set(query.sql, next);
      }
      node = next;
    }
    if (node.sql === undefined) {
      node.sql = compose(queries);
      this.nameOf(
        node.sql,
        queries.map((query) => query.sql),
      );
    }
    return node.sql;
  }
}

/** The last statement with the others as `WITH` parts before it, their placeholders renumbered in order. */
function compose(queries: readonly CompiledQuery[]): string {
  const parts: string[] = [];
  let offset = 0;
  for (const write of queries.slice(0, -1)) {
    parts.push(`"deferred_${parts.length + 1}" as (${renumbered(write.sql, offset)})`);
    offset += write.parameters.length;
  }
  const main = renumbered(queries[queries.length - 1]!.sql, offset);
  // A carrier with its own WITH list continues it.
  return /^with /i.test(main) ? `with ${parts.join(', ')}, ${main.slice(5)}` : `with ${parts.join(', ')} ${main}`;
}

function renumbered(sql: string, offset: number): string {
  return offset === 0 ? sql : sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
}

/** {@link placeholdersCounted}'s finding per SQL text: n for exactly $1…$n and no `$$`, else -1. */
const placeholderCounts = new Map<string, number>();
const MAX_PLACEHOLDER_COUNTS = 1_000;

/**
 * Whether the SQL's placeholders are exactly $1…$n for its n parameters, and it has no
 * dollar-quoted string: a guard for renumbering, which counts on Kysely binding every value as a
 * parameter (a `$k` inside a literal would still pass it; the statements held back have none).
 */
function placeholdersCounted(query: CompiledQuery): boolean {
  let count = placeholderCounts.get(query.sql);
  if (count === undefined) {
    if (placeholderCounts.size >= MAX_PLACEHOLDER_COUNTS) placeholderCounts.clear();
    count = placeholderCount(query.sql);
    placeholderCounts.set(query.sql, count);
  }
  return count === query.parameters.length;
}

function placeholderCount(sql: string): number {
  const seen = new Set<number>();
  for (const match of sql.matchAll(PLACEHOLDER)) seen.add(Number(match[1]));
  for (let n = 1; n <= seen.size; n++) if (!seen.has(n)) return -1;
  return sql.includes('$$') ? -1 : seen.size;
}

/** What {@link tablesOf} found per query node: a prepared query runs the same node every time. */
const tablesByNode = new WeakMap<object, ReadonlySet<string> | null>();

/** The tables a built query names; undefined for raw SQL, whose tables cannot be read. */
function tablesOf(query: CompiledQuery): ReadonlySet<string> | undefined {
  const root = query.query as object | undefined;
  if (!root) return undefined;
  let tables = tablesByNode.get(root);
  if (tables === undefined) {
    tables = tablesNamedIn(root);
    tablesByNode.set(root, tables);
  }
  return tables ?? undefined;
}

function tablesNamedIn(root: object): ReadonlySet<string> | null {
  const tables = new Set<string>();
  let readable = true;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const kind = (node as { kind?: string }).kind;
    // A bound value is data, never a table (and may be a long array). A list of values is walked:
    // an item may be a subquery.
    if (kind === 'ValueNode' || kind === 'PrimitiveValueListNode') return;
    if (kind === 'RawNode') readable = false;
    if (kind === 'TableNode') {
      tables.add((node as { table: { identifier: { name: string } } }).table.identifier.name);
      return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
  return readable ? tables : null;
}

function disjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const table of a) if (b.has(table)) return false;
  return true;
}

function deferringDriver(inner: Driver, composed: ComposedStatements): Driver {
  const innerOf = (connection: DatabaseConnection) => (connection as DeferringConnection).inner;
  const driver: Driver = {
    init: () => inner.init(),
    acquireConnection: async () => new DeferringConnection(await inner.acquireConnection(), composed),
    beginTransaction: async (connection: DatabaseConnection, settings: TransactionSettings) => {
      await inner.beginTransaction(innerOf(connection), settings);
      (connection as DeferringConnection).inTransaction = true;
    },
    commitTransaction: async (connection: DatabaseConnection) => {
      const deferring = connection as DeferringConnection;
      await deferring.flush();
      deferring.inTransaction = false;
      await inner.commitTransaction(deferring.inner);
    },
    rollbackTransaction: async (connection: DatabaseConnection) => {
      const deferring = connection as DeferringConnection;
      deferring.held = [];
      deferring.inTransaction = false;
      await inner.rollbackTransaction(deferring.inner);
    },
    releaseConnection: (connection: DatabaseConnection) => inner.releaseConnection(innerOf(connection)),
    destroy: () => inner.destroy(),
  };
  if (inner.savepoint) {
    const savepoint = inner.savepoint.bind(inner);
    driver.savepoint = async (connection, name, compile) => {
      await (connection as DeferringConnection).flush();
      await savepoint(innerOf(connection), name, compile);
    };
  }
  if (inner.rollbackToSavepoint) {
    const rollbackTo = inner.rollbackToSavepoint.bind(inner);
    driver.rollbackToSavepoint = async (connection, name, compile) => {
      // Held back since the savepoint (what was held before it was sent then): rolled back too.
      (connection as DeferringConnection).held = [];
      await rollbackTo(innerOf(connection), name, compile);
    };
  }
  if (inner.releaseSavepoint) {
    const release = inner.releaseSavepoint.bind(inner);
    driver.releaseSavepoint = async (connection, name, compile) => {
      // A held write that fails must fail inside its savepoint, where the caller handles it.
      await (connection as DeferringConnection).flush();
      await release(innerOf(connection), name, compile);
    };
  }
  return driver;
}
