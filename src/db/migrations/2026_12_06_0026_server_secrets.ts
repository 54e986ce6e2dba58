import type { Kysely } from 'kysely';

/**
 * Secrets of the server itself (src/security/server-secret.ts): one row per purpose, made on first
 * use. Kept in the database, not in a process or a data directory, so every instance sharing the
 * database, and the same one after a restart, checks what any of them issued.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_secret')
    .addColumn('purpose', 'text', (col) => col.primaryKey())
    .addColumn('secret', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_secret').execute();
}
