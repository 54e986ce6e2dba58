/**
 * A bank's adapter as a bank's integration team deploys it: `nordic-xs2a serve` in production
 * mode, started as a process with `XS2A_BANK_ADAPTER` naming a module file (the in-memory bank of
 * test/support/in-memory-bank-adapter.ts, loaded through tsx as a TypeScript adapter would be).
 * A TPP with a QSealC of the configured CA runs a payment from initiation through the PSU's SCA
 * pages to executed, and nothing of the sandbox is there: no mock-data API, no certificate desk.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TppClient } from '../../src/client/tpp-client.js';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { ndctBody, NDCT } from '../support/payments.js';
import { createPayment, paymentStatusOf, startAuthorisation, walk } from '../support/sca.js';
import { ensureBuilt, killStartedServers, startServerProcess, until, type ServerProcess } from '../support/server-process.js';

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/certs/generated/${path}`, import.meta.url));
const PSU = '13039319955';
const BBAN = '97109900013';
const CODE = '654321';
const BLOCKED_BBAN = '97109900048';

describe('a production server on a bank adapter named by XS2A_BANK_ADAPTER', () => {
  let dir: string;
  let server: ServerProcess;
  let client: TppClient;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'xs2a-adapter-'));
    server = await startServerProcess({
      nodeArgs: ['--import', 'tsx'],
      env: {
        XS2A_MODE: 'production',
        XS2A_TRUSTED_CA_FILES: fixture('test-ca.pem'),
        XS2A_BANK_ADAPTER: fileURLToPath(new URL('../support/in-memory-bank-adapter.ts', import.meta.url)),
        XS2A_DATA_DIR: dir,
        XS2A_BATCH_SCHEDULE: 'true',
        IN_MEMORY_BANK_PSU_ID: PSU,
        IN_MEMORY_BANK_BBAN: BBAN,
        IN_MEMORY_BANK_CODE: CODE,
        IN_MEMORY_BANK_BLOCKED_BBAN: BLOCKED_BBAN,
      },
    });
    client = new TppClient(
      server.url,
      credentialsFromPem(readFileSync(fixture('test-leaf-qsealc.key.pem'), 'utf8'), readFileSync(fixture('test-leaf-qsealc.pem'), 'utf8')),
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    killStartedServers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the adapter from its file and hands it its own settings', () => {
    expect(server.logs().find((line) => line.msg === 'in-memory bank ready')).toMatchObject({ psuId: PSU, bban: BBAN });
  });

  it('runs a payment from initiation through SCA to executed by the bank', async () => {
    const headers = { 'psu-id': PSU };
    const payment = await createPayment(client, 'payments', NDCT, ndctBody({ bban: BBAN }), headers);
    const { scaRedirect } = await startAuthorisation(client, payment.path, headers);
    // The adapter's authenticator takes its own code, not the sandbox's.
    await walk(scaRedirect, { codes: [CODE] });
    const status = await until('the bank to execute the payment', async () => {
      const read = await paymentStatusOf(client, payment.path);
      return read.transactionStatus === 'ACSC' ? read : undefined;
    });
    expect(status).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
  });

  it("refuses a debtor account the bank does not have, in the project's error body", async () => {
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody({ bban: '97109900021' }), { headers: { 'psu-id': PSU } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body.tppMessages[0].code).toEqual(expect.any(String));
  });

  // The adapter's BankError is its own copy of the class (loaded from src/ through tsx, as a bank's
  // adapter brings the package's), not the server's in dist/: the server knows it all the same.
  it("answers the adapter's refusal as 403 SERVICE_BLOCKED with the bank's words, not a bare 500", async () => {
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody({ bban: BLOCKED_BBAN }), { headers: { 'psu-id': PSU } });
    expect(response.status).toBe(403);
    expect(response.body.tppMessages).toEqual([
      expect.objectContaining({
        category: 'ERROR',
        code: 'SERVICE_BLOCKED',
        text: expect.stringContaining('The account is blocked by the bank'),
      }),
    ]);
  });

  it('wires nothing of the sandbox', async () => {
    expect((await client.get<any>('/v1/sandbox/customers')).status).toBe(404);
    expect((await client.post<any>('/sandbox/tpp-certificates', {})).status).toBe(404);
  });
});
