import type { Compilable, CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.js';
import { assertDeferrable, deferrable } from './deferred-writes.js';
import { directAccessNow } from './direct-sqlite.js';

/** Where a value named `name` goes: what the builder sees in place of each value while compiling. */
class Slot {
  constructor(readonly name: string) {}
}

/** The SQL of one dialect, and for each of its parameters the value's name (or a constant). */
interface Compiled<R> {
  readonly query: CompiledQuery<R>;
  readonly names: readonly (string | undefined)[];
}

/** A query built and compiled once per database, run many times with new values. */
export interface PreparedQuery<V, R> {
  /** Runs the query with these values, on the database or inside the transaction given. */
  run(db: Kysely<Database>, values: V): Promise<QueryResult<R>>;
}

/**
 * A query for the request path: Kysely builds and compiles it once per database, instead of on
 * every request, where building and compiling cost more than SQLite takes to run the statement
 * (bench/README.md). `build` is the ordinary typed Kysely query, written with `values`' fields; on
 * the first run it is given stand-ins for them, and each run binds the values it is given in
 * their place. So `build` passes the fields on as they are: a field tested or computed with in
 * `build` would be a stand-in, and the query fixed for every run.
 *
 * On SQLite the statement runs on the connection directly when it may (direct-sqlite.ts), past
 * Kysely's driver and so past any Kysely plugin (the databases have none).
 *
 * Its shape is fixed on the first run: every field of `values` is a bound parameter (one the
 * SQL does not bind is an error), so none may be `undefined` (Kysely would leave such a column
 * out; here it is an error: give `null`) or missing from the first run's values (it would never
 * be bound), and a list (`in`) must be of constants, since its length is part of the SQL. A
 * select names its columns: PostgreSQL fixes a prepared statement's columns when it prepares it,
 * and a `select *` fails there once a column is added.
 *
 * `deferrable`: a write whose callers read nothing from its result (no RETURNING, no count). On
 * PostgreSQL, inside a transaction, it then travels with the transaction's next statement
 * (deferred-writes.ts): its `run` answers no rows at once, and an error of the write (a
 * constraint) is raised by the statement that carries it, not by `run`.
 */
export function preparedQuery<V extends object, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
  options: { readonly deferrable?: boolean } = {},
): PreparedQuery<V, R> {
  // Per database (its adapter): the dialects compile differently, and each opened database once.
  const compiled = new WeakMap<DialectAdapter, Compiled<R>>();
  return {
    async run(db, values) {
      const adapter = db.getExecutor().adapter;
      let prepared = compiled.get(adapter);
      if (prepared === undefined) {
        prepared = compile(db, build, values);
        if (options.deferrable) assertDeferrable(prepared.query);
        compiled.set(adapter, prepared);
      }
      const { query, names } = prepared;
      const parameters = new Array<unknown>(names.length);
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (name === undefined) {
          parameters[i] = query.parameters[i];
        } else {
          const value = (values as Record<string, unknown>)[name];
          if (value === undefined) throw new Error(`a prepared query was run without a value for ${name}`);
          parameters[i] = value;
        }
      }
      const direct = directAccessNow(db);
      if (direct !== undefined) return direct.execute<R>(query.sql, parameters);
      const compiledQuery = { query: query.query, queryId: query.queryId, sql: query.sql, parameters };
      return db.executeQuery<R>(options.deferrable ? deferrable(compiledQuery) : compiledQuery);
    },
  };
}

/**
 * The SQL texts of prepared queries, with a name each: PostgreSQL connections run them as named
 * statements (create-db.ts), parsed and planned once per connection instead of on every run.
 */
const statementNames = new Map<string, string>();

/** Statements made of prepared queries' SQL that are named, at most {@link COMPOSED_NAMES}. */
let composedNames = 0;
/** The distinct compositions are few (an initiation's writes with the statement that carries them). */
const COMPOSED_NAMES = 200;

/**
 * Names a statement made of prepared queries' SQL (deferred-writes.ts: held-back writes with the
 * statement that carries them), so that it too is prepared once per connection; a bounded number
 * of them, since compositions of other SQL could be many.
 */
export function nameComposedStatement(sql: string, parts: readonly string[]): void {
  if (statementNames.has(sql) || composedNames >= COMPOSED_NAMES) return;
  if (!parts.every((part) => statementNames.has(part))) return;
  statementNames.set(sql, `xs2a_composed_${++composedNames}`);
}

/** The name a prepared query's SQL runs under as a named statement; undefined for any other SQL. */
export function statementNameOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

function compile<V extends object, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
  values: V,
): Compiled<R> {
  const slots: Record<string, Slot> = {};
  for (const name of Object.keys(values)) slots[name] = new Slot(name);
  const query = build(db, slots as V).compile();
  const names = query.parameters.map((parameter) => (parameter instanceof Slot ? parameter.name : undefined));
  // A field the SQL does not bind was tested or computed with in `build`, and fixed for every run.
  const unbound = Object.keys(slots).filter((name) => !names.includes(name));
  if (unbound.length > 0) throw new Error(`a prepared query does not bind ${unbound.join(', ')}: pass each field to the query as it is`);
  if (!statementNames.has(query.sql)) statementNames.set(query.sql, `xs2a_prepared_${statementNames.size + 1}`);
  return { query, names };
}
