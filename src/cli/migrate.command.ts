import type { Config } from '../config/config.schema.js';
import { createDatabase } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

/** `nordic-xs2a migrate`: brings the configured database to the latest schema version. */
export async function migrateCommand(config: Config): Promise<number> {
  // It may run beside servers on the same SQLite file: each statement commits by itself, so the
  // file's write lock is not held through the whole run (Kysely migrates SQLite on one connection,
  // not in a transaction).
  const database = createDatabase(config.database, { commitInGroups: false });
  try {
    const result = await migrateToLatest(database.db);
    const applied = result.results ?? [];
    if (applied.length === 0) {
      process.stdout.write('database is up to date\n');
    }
    for (const migration of applied) {
      process.stdout.write(`${migration.status === 'Success' ? 'applied' : migration.status}: ${migration.migrationName}\n`);
    }
    return 0;
  } finally {
    await database.close();
  }
}
