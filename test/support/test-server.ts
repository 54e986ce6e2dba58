import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../../src/app.js';
import type { CoreBanking } from '../../src/bank/core-banking.port.js';
import type { PsuAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import { createSandboxCoreBanking, type SandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import type { SigningCredentials } from '../../src/client/request-signer.js';
import { TppClient } from '../../src/client/tpp-client.js';
import type { Config } from '../../src/config/config.schema.js';
import { loadConfig } from '../../src/config/load-config.js';
import { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import type { Psd2Role } from '../../src/security/tpp-identity.js';
import { openTestDatabase, type TestDatabase } from './databases.js';
import { createBankAdapter } from './in-memory-bank-adapter.js';
import { freePort } from './server-process.js';

export interface TestServer {
  readonly baseUrl: string;
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly database: TestDatabase;
  readonly ca: SandboxCa;
  /** A client signing as the default TPP PSDNO-FSA-123456789 (PSP_PI, PSP_AI). */
  readonly client: TppClient;
  /** A client with no credentials: sends unsigned requests. */
  readonly anonymous: TppClient;
  /** Issues sandbox credentials for another TPP. */
  newTpp(
    organizationIdentifier: string,
    roles?: readonly Psd2Role[],
    /** Host names or IP addresses the certificate secures (subjectAltName). */
    domains?: readonly string[],
  ): Promise<{ credentials: SigningCredentials; client: TppClient }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly dialect?: 'sqlite' | 'postgres';
  readonly now?: () => Date;
  readonly trustStore?: (ca: SandboxCa) => TrustStore;
  readonly extraV1Routes?: AppDependencies['extraV1Routes'];
  /** Wraps the sandbox's core-banking port (e.g. to make it fail on demand). */
  readonly coreBanking?: (sandbox: SandboxCoreBanking) => CoreBanking;
  /** Another bank's adapter instead of the sandbox (no sandbox core banking is made). */
  readonly bank?: CoreBanking;
  readonly psuAuthenticator?: PsuAuthenticator;
  /** As AppDependencies.runsBatchSchedule (default true). */
  readonly runsBatchSchedule?: boolean;
  /** The server's log (test/support/captured-log.ts); without it the server logs nothing. */
  readonly logger?: AppDependencies['logger'];
  /** As AppDependencies.requestTimeoutMs. */
  readonly requestTimeoutMs?: number;
  /** As AppDependencies.shutdownGraceMs. */
  readonly shutdownGraceMs?: number;
}

/** `env` of a server in production mode (XS2A_MODE=production). */
export const PRODUCTION_ENV = {
  XS2A_MODE: 'production',
  // Production runs on a bank's adapter: the test server passes the in-memory bank itself
  // (options.bank, or the adapter below with its demo customer) rather than loading this file.
  XS2A_BANK_ADAPTER: fileURLToPath(new URL('./in-memory-bank-adapter.ts', import.meta.url)),
  // The configuration must name a CA bundle in production; the test server passes its trust store itself.
  XS2A_TRUSTED_CA_FILES: fileURLToPath(new URL('../fixtures/certs/generated/test-ca.pem', import.meta.url)),
} as const;

/** The in-memory bank adapter's settings for a production test server given no bank of its own. */
export const IN_MEMORY_BANK_ENV = { IN_MEMORY_BANK_PSU_ID: '13039319955', IN_MEMORY_BANK_BBAN: '97109900013' } as const;

/**
 * The real app on a real socket (port 0), with a fresh database, its own sandbox CA in a temp
 * directory and a signed TPP client: API tests talk to it exactly as a TPP would.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xs2a-server-'));
  // Links handed out (scaRedirect above all) must reach this very server: listen on a known port.
  const port = await freePort();
  // No scheduled batch runs unless a test asks: a run at 09:30 must not move a test's payments.
  const config = loadConfig({
    XS2A_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    XS2A_BATCH_SCHEDULE: 'false',
    // The tests of a file share their PSUs and type many wrong codes on purpose: the per-PSU lock
    // (5 by default) is out of their way. Its own tests set XS2A_SCA_CODE_LOCK_ATTEMPTS.
    XS2A_SCA_CODE_LOCK_ATTEMPTS: '100',
    ...options.env,
  });
  const database = await openTestDatabase(options.dialect ?? 'sqlite');
  const ca = await SandboxCa.open(dataDir);
  const productionBank =
    config.mode === 'production' && !options.bank
      ? await createBankAdapter({ publicUrl: config.publicUrl, env: IN_MEMORY_BANK_ENV, log: { info() {}, warn() {}, error() {} } })
      : undefined;
  const app = await buildApp(config, {
    database,
    trustStore: options.trustStore ? options.trustStore(ca) : new TrustStore([ca.trustAnchor()]),
    sandboxCa: ca,
    now: options.now,
    extraV1Routes: options.extraV1Routes,
    psuAuthenticator: options.psuAuthenticator ?? productionBank?.psuAuthenticator,
    runsBatchSchedule: options.runsBatchSchedule,
    logger: options.logger,
    requestTimeoutMs: options.requestTimeoutMs,
    shutdownGraceMs: options.shutdownGraceMs,
    coreBanking:
      options.bank ??
      productionBank?.coreBanking ??
      (options.coreBanking &&
        options.coreBanking(
          createSandboxCoreBanking(
            database.db,
            createLedger(options.now ?? (() => new Date())),
            options.now ?? (() => new Date()),
            config.nokRates,
          ),
        )),
  });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const newTpp = async (organizationIdentifier: string, roles: readonly Psd2Role[] = ['PSP_PI', 'PSP_AI'], domains?: readonly string[]) => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issued = await ca.issueQsealc({ organizationIdentifier, name: `${organizationIdentifier} AS`, roles, publicKey, domains });
    const credentials = credentialsFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), issued.certificatePem);
    return { credentials, client: new TppClient(baseUrl, credentials) };
  };
  const defaultTpp = await newTpp('PSDNO-FSA-123456789');

  return {
    baseUrl,
    app,
    config,
    database,
    ca,
    client: defaultTpp.client,
    anonymous: new TppClient(baseUrl, undefined),
    newTpp,
    close: async () => {
      await app.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
