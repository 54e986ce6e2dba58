/**
 * The server's own secrets (src/security/server-secret.ts, migration 0026), on each dialect of
 * DIALECTS: made once in the shared database, so instances sharing it, and one started again,
 * use the same secret; each purpose has its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecrets } from '../../src/security/server-secret.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

describe.each(DIALECTS)('server secrets (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it('is one secret for every instance on the database, also when they make it at the same moment, and after a restart', async () => {
    // Each serverSecrets() is what one server process holds.
    const instances = Array.from({ length: 4 }, () => serverSecrets(database.db));
    const secrets = await Promise.all(instances.map((secretOf) => secretOf('transaction-snapshot')));
    expect(secrets[0]!.length).toBe(32);
    for (const secret of secrets) expect(secret.equals(secrets[0]!)).toBe(true);
    const restarted = await serverSecrets(database.db)('transaction-snapshot');
    expect(restarted.equals(secrets[0]!)).toBe(true);
    const rows = await database.db.selectFrom('server_secret').selectAll().execute();
    expect(rows).toHaveLength(1);
  });
});
