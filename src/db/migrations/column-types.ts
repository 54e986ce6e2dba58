import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Column types that differ by dialect. Timestamps are `timestamptz` on PostgreSQL and ISO-8601
 * UTC text on SQLite; both read back as ISO strings (see create-db.ts).
 */
export function timestampColumn(db: Kysely<any>): 'timestamptz' | 'text' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'timestamptz' : 'text';
}
