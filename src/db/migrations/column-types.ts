import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Column types that differ by dialect. Timestamps are `timestamptz` on PostgreSQL and ISO-8601
 * UTC text on SQLite; both read back as ISO strings (see create-db.ts).
 */
export function timestampColumn(db: Kysely<any>): 'timestamptz' | 'text' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'timestamptz' : 'text';
}

/**
 * An ever-growing integer primary key: an identity column on PostgreSQL, the rowid alias on
 * SQLite (no AUTOINCREMENT, which would add a write to sqlite_sequence on every insert).
 */
export function sequenceKeyColumn<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T>, name: string): CreateTableBuilder<T> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn(name, 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    : table.addColumn(name, 'integer', (col) => col.primaryKey());
}
