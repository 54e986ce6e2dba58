import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../../src/db/create-db.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';

/**
 * The databases the database-tier tests run on: SQLite always, PostgreSQL when
 * TEST_POSTGRES_URL is set (`.ci/run` sets it to the machine's PostgreSQL).
 */
export const DIALECTS: readonly ('sqlite' | 'postgres')[] = process.env['TEST_POSTGRES_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DatabaseHandle {
  /** Drops what the test created: the SQLite file, or the PostgreSQL schema. */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database of one dialect. On PostgreSQL each test database is its own schema,
 * so test files run in parallel without seeing each other's rows. `upTo` stops after that
 * migration: a database as an older server left it (the test migrates the rest itself).
 */
export async function openTestDatabase(
  dialect: 'sqlite' | 'postgres',
  options: { upTo?: string; /** PostgreSQL: the pool's size (5). */ poolSize?: number } = {},
): Promise<TestDatabase> {
  const migrate = (handle: DatabaseHandle) =>
    options.upTo === undefined ? migrateToLatest(handle.db) : migrateTo(handle.db, options.upTo);
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'xs2a-test-'));
    const handle = createDatabase({ dialect: 'sqlite', path: join(dir, 'test.db') });
    await migrate(handle);
    return {
      ...handle,
      dispose: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env['TEST_POSTGRES_URL'];
  if (!url) {
    throw new Error('TEST_POSTGRES_URL is not set');
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = createDatabase({ dialect: 'postgres', url }, { poolSize: options.poolSize ?? 5, searchPath: schema });
  await migrate(handle);
  return {
    ...handle,
    dispose: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}
