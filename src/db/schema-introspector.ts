import { sql, type DatabaseIntrospector, type DatabaseMetadata, type TableMetadata } from 'kysely';
import type { Db } from './create-db.js';

/**
 * What Kysely's migrator asks of a PostgreSQL catalogue (does the schema exist, which tables does
 * it hold), answered for the one schema the server works in.
 *
 * Kysely's own introspector reads every schema's columns and looks each schema and table up again
 * by name (`has_schema_privilege`, `pg_get_serial_sequence`). A schema dropped while that runs,
 * by another application sharing the database or by another test file, fails the server's start
 * with "schema … does not exist". These queries read the catalogue tables alone, which show one
 * consistent snapshot whatever is dropped meanwhile, and only the rows of this schema.
 */
export function schemaIntrospector(db: Db, schema: string): DatabaseIntrospector {
  async function getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(db);
    // The migrator needs names only; columns are left out rather than read.
    return rows.map((row) => ({ name: row.name, schema, isView: row.kind === 'v', columns: [] }));
  }
  return {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables,
    async getMetadata(): Promise<DatabaseMetadata> {
      return { tables: await getTables() };
    },
  };
}

/**
 * `db` with `introspector` as its `introspection`; everything else is `db` itself. Kysely keeps
 * its state in private fields, so methods are called on `db`, not on the stand-in.
 */
export function withIntrospector(db: Db, introspector: DatabaseIntrospector): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspector;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
