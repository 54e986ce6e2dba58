import type { Config } from '../config/config.schema.js';
import { createDatabase } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { parseCommandArgs } from './command-line.js';

/**
 * `nordic-xs2a migrate`: brings the configured database to the latest schema version. It takes no
 * option: anything on its command line is refused before the configuration is read.
 */
export async function migrateCommand(args: readonly string[], config: () => Config): Promise<number> {
  parseCommandArgs('migrate', args, { options: {} });
  // It may run beside servers on the same SQLite file: each statement commits by itself, so the
  // file's write lock is not held through the whole run (Kysely migrates SQLite on one connection,
  // not in a transaction).
  const database = createDatabase(config().database, { commitInGroups: false });
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
