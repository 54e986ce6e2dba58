/**
 * A separate OS process that posts to the ledger, for the two-process concurrency test:
 * `node --import tsx test/support/ledger-worker.ts <postgres url> <schema> <account> <prefix> <count>`.
 * Prints `done <count>` when all its postings are committed.
 */
import { createDatabase, withTransaction } from '../../src/db/create-db.js';
import { transferLegs } from '../../src/modules/ledger/ledger-posting.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';

const [url, schema, account, prefix, countText] = process.argv.slice(2);
const count = Number(countText);
const database = createDatabase({ dialect: 'postgres', url: url! }, { poolSize: 4, searchPath: schema! });
const ledger = createLedger(() => new Date());

await Promise.all(
  Array.from({ length: count }, (_, i) =>
    withTransaction(database.db, (trx) =>
      ledger.post(trx, {
        idempotencyKey: `${prefix}-${i}`,
        status: 'booked',
        bookingDate: '2026-11-20',
        valueDate: '2026-11-20',
        description: `${prefix} ${i}`,
        legs: transferLegs('system:clearing', account!, 'NOK', 1n),
      }),
    ),
  ),
);
await database.close();
process.stdout.write(`done ${count}\n`);
