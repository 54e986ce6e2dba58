/**
 * Idempotency survives a crash (docs/design.md §2: nothing accepted is lost or applied twice), against
 * the compiled server as a real process killed with SIGKILL in the middle of a stream of POSTs:
 * - sandbox account creations (a POST whose answer is stored after its transaction) and payment
 *   initiations (whose answer commits with the payment) are sent with their own X-Request-IDs,
 *   many at once, and the server is killed while they are in flight;
 * - the restarted server, past XS2A_REQUEST_LEASE_SECONDS, answers every retry of every request
 *   (same X-Request-ID, same body, a fresh signature): the stored answer when there was one (the
 *   same body the first server sent, when it got through), a first run when the request had not
 *   committed, or 409 REQUEST_ANSWER_LOST when it had committed and its answer had not been
 *   stored; never "in progress" for good, never a 5xx;
 * - every request is carried out exactly once: one account per request, one payment per request.
 * SQLite, and PostgreSQL when TEST_POSTGRES_URL is set. Builds dist/ first when it is stale.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningCredentials } from '../../src/client/request-signer.js';
import type { TppResponse } from '../../src/client/tpp-client.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { openProcessDatabase } from '../support/batch-bank.js';
import { DIALECTS, type TestDatabase } from '../support/databases.js';
import { accountNumber, identityNumber } from '../support/sandbox.js';
import {
  clientOf,
  ensureBuilt,
  killStartedServers,
  sandboxTppCredentials,
  startServerProcess,
  until,
  type ServerProcess,
} from '../support/server-process.js';

const TPP = 'PSDNO-FSA-123456789';
const REQUESTS = 400;
const AT_ONCE = 25;
const LEASE_SECONDS = 1;

interface Sent {
  readonly requestId: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** What the first server answered, when the answer got through before the kill. */
  first?: TppResponse<any>;
}

const tempDirs: string[] = [];
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(DIALECTS)('POSTs in flight when the server is killed (%s)', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let credentials: SigningCredentials;
  let restarted: ServerProcess | undefined;

  beforeAll(async () => {
    const opened = await openProcessDatabase(dialect);
    database = opened.database;
    const dataDir = mkdtempSync(join(tmpdir(), 'xs2a-idempotency-crash-'));
    tempDirs.push(dataDir);
    env = {
      XS2A_DATA_DIR: dataDir,
      DATABASE_URL: opened.urlFor(`xs2a-idempotency-crash-${randomUUID().slice(0, 8)}`),
      XS2A_BATCH_SCHEDULE: 'false',
      XS2A_REQUEST_LEASE_SECONDS: String(LEASE_SECONDS),
      LOG_LEVEL: 'warn',
    };
    credentials = await sandboxTppCredentials(await SandboxCa.open(dataDir), TPP);
  }, 60_000);

  afterAll(async () => {
    await restarted?.stop();
    await database?.dispose();
  });

  it('answers every retry after a restart, and carries out every request exactly once', async () => {
    const first = await startServerProcess({ env });
    const client = clientOf(first, credentials);
    const customerNumber = identityNumber();
    expect(
      (await client.post('/v1/sandbox/customers', { customerNumber, customerType: 'PRIVATE', customerName: 'Krasj Test' })).status,
    ).toBe(201);
    const debtor = await client.post<any>('/v1/sandbox/accounts', { customerNumber, name: 'Debtor' });
    expect(debtor.status).toBe(201);

    const sent = Array.from({ length: REQUESTS }, (_, i): Sent =>
      i % 2 === 0
        ? { requestId: randomUUID(), path: '/v1/sandbox/accounts', body: { customerNumber, name: `crash-${i}` }, headers: {} }
        : {
            requestId: randomUUID(),
            path: '/v1/payments/norwegian-domestic-credit-transfers',
            body: {
              debtorAccount: { bban: debtor.body.bban },
              instructedAmount: { currency: 'NOK', amount: '10.00' },
              creditorAccount: { bban: accountNumber().bban },
              creditorName: `crash-${i}`,
            },
            headers: { 'psu-id': customerNumber },
          },
    );
    const send = (server: ServerProcess, request: Sent) =>
      clientOf(server, credentials).post<any>(request.path, request.body, {
        headers: { ...request.headers, 'x-request-id': request.requestId },
      });

    // Many at once; the kill lands when a third has been answered, with the rest in flight.
    let next = 0;
    let answered = 0;
    const lanes = Array.from({ length: AT_ONCE }, async () => {
      while (next < sent.length) {
        const request = sent[next++]!;
        try {
          request.first = await send(first, request);
          answered++;
        } catch {
          return; // the server is gone
        }
      }
    });
    await until('a third of the requests answered', () => (answered >= REQUESTS / 3 ? true : undefined), 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(lanes);
    const unanswered = sent.filter((request) => !request.first).length;
    expect(unanswered).toBeGreaterThan(0);

    restarted = await startServerProcess({ env });
    await new Promise((resolve) => setTimeout(resolve, (LEASE_SECONDS + 1) * 1000));
    const outcomes: Record<string, number> = {};
    for (const request of sent) {
      const retry = await send(restarted, request);
      const outcome = `${retry.status}${retry.status === 201 ? '' : ` ${retry.body.code}`}`;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      expect(['201', '409 REQUEST_ANSWER_LOST'], `${request.path} ${retry.text}`).toContain(outcome);
      if (request.first) {
        // A first answer that got through is replayed as it was (a refusal is never stored).
        expect(request.first.status, request.first.text).toBe(201);
        expect(retry.body).toEqual(request.first.body);
      }
      // A second retry gets the same answer.
      const again = await send(restarted, request);
      expect(again.status).toBe(retry.status);
    }

    // Exactly once: one account and one payment per request.
    const accounts = await database.db.selectFrom('sandbox_account').select('name').where('name', 'like', 'crash-%').execute();
    const payments = await database.db.selectFrom('payment').select('id').where('tpp_id', '=', TPP).execute();
    expect(new Set(accounts.map((row) => row.name)).size).toBe(REQUESTS / 2);
    expect(accounts).toHaveLength(REQUESTS / 2);
    expect(payments).toHaveLength(REQUESTS / 2);
    console.info(`after the kill (${dialect}): ${unanswered} of ${REQUESTS} unanswered; retries: ${JSON.stringify(outcomes)}`);
  }, 180_000);
});
