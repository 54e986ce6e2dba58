/**
 * Migrating on PostgreSQL while other schemas of the same database come and go (another
 * application, or another test file dropping its schema): the migrator looks at its own schema
 * only, so a schema dropped meanwhile does not fail it. Kysely's own introspector looked every
 * schema up again by name and failed with "schema … does not exist" within the first few of these
 * migrations in every trial.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/create-db.js';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';

const url = process.env['TEST_POSTGRES_URL'];

/** Creates and drops schemas, each with a table and a serial column, until `stop` is set. */
async function churnSchemas(stop: { done: boolean }): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let dropped = 0;
  try {
    while (!stop.done) {
      const name = `churn_${randomBytes(6).toString('hex')}`;
      await client.query(`create schema ${name}`);
      await client.query(`create table ${name}.t (id serial primary key, a text, b text, c text)`);
      await client.query(`drop schema ${name} cascade`);
      dropped++;
    }
  } finally {
    await client.end();
  }
  return dropped;
}

describe.skipIf(!url)('migrations on PostgreSQL beside schemas being dropped', () => {
  it('migrate every fresh schema while others are created and dropped', async () => {
    const stop = { done: false };
    const churners = [churnSchemas(stop), churnSchemas(stop)];
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const schemas: string[] = [];
    let dropped = 0;
    try {
      for (let run = 0; run < 10; run++) {
        const schema = `migrate_${randomBytes(6).toString('hex')}`;
        schemas.push(schema);
        await admin.query(`create schema ${schema}`);
        const handle = createDatabase({ dialect: 'postgres', url: url! }, { poolSize: 2, searchPath: schema });
        try {
          const result = await migrateToLatest(handle.db);
          expect(result.results?.map((applied) => applied.status)).toEqual(MIGRATION_NAMES.map(() => 'Success'));
        } finally {
          await handle.close();
        }
      }
    } finally {
      stop.done = true;
      dropped = (await Promise.all(churners)).reduce((sum, count) => sum + count, 0);
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    // The churn ran all along: many schemas came and went beside the migrations.
    expect(dropped).toBeGreaterThan(20);
  }, 120_000);
});
