import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bankAdapterProblems, type BankAdapter, type BankAdapterLog, type CreateBankAdapter } from './bank/bank-adapter.js';
import type { Config } from './config/config.schema.js';
import { ConfigError } from './config/load-config.js';
import { createDatabase } from './db/create-db.js';
import { migrateToLatest } from './db/migrate.js';
import type { BatchRunObserver } from './modules/execution/batch-run-report.js';
import { SandboxCa } from './security/certificates/sandbox-ca.js';
import { readPemBundle, readRevocationList, TrustStore } from './security/certificates/trust-store.js';

export interface Server {
  readonly app: FastifyInstance;
  readonly sandboxCa: SandboxCa | undefined;
  close(): Promise<void>;
}

/**
 * Everything the app needs from the outside world, opened in order: the database (migrated to
 * the latest version), the sandbox CA (sandbox mode), the trust store and revocation lists.
 * A file that cannot be read or parsed is a configuration error naming its variable and file.
 */
export interface ServerOptions {
  readonly logger?: FastifyBaseLogger;
  readonly now?: () => Date;
  /**
   * Whether this process runs the scheduled batch runs (default true). With `serve --workers N`
   * one worker does; the others serve requests only.
   */
  readonly runsBatchSchedule?: boolean;
  /**
   * Other processes serve from the same database (`serve --workers N`). On SQLite each transaction
   * then commits by itself: a commit group (src/db/sqlite-commit-groups.ts) holds the file's write
   * lock for a turn of the event loop, and the other processes would wait for it, asleep.
   */
  readonly sharesDatabase?: boolean;
  /** Observes every finished batch run (the metrics). */
  readonly onBatchRun?: BatchRunObserver;
  /** The environment handed to the bank's adapter for its own settings (default: none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function openServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  // The server's own commits only append to the log; a thread copies it back (wal-checkpointer.ts).
  const database = createDatabase(config.database, {
    checkpointInBackground: { onError: (message) => options.logger?.error({ component: 'wal-checkpointer' }, message) },
    commitInGroups: !options.sharesDatabase,
  });
  let bank: BankAdapter | undefined;
  try {
    // On a first start the sandbox CA generates its RSA key on the thread pool: the migrations
    // run meanwhile. Both are settled before anything goes on, so a failure stops nothing half-way.
    const [migrated, caOpened] = await Promise.allSettled([
      migrateToLatest(database.db),
      config.mode === 'sandbox' ? SandboxCa.open(config.dataDir) : undefined,
    ]);
    if (migrated.status === 'rejected') throw migrated.reason;
    if (caOpened.status === 'rejected') throw caOpened.reason;
    const sandboxCa = caOpened.value;
    const authorities = config.trustedCaFiles.flatMap((file) => {
      const certificates = readCertificates(file);
      if (certificates.length === 0) {
        throw new ConfigError([`XS2A_TRUSTED_CA_FILES: ${file} holds no PEM certificate`]);
      }
      return certificates;
    });
    if (sandboxCa) {
      authorities.push(sandboxCa.trustAnchor());
    }
    const revocationLists = await Promise.all(
      config.crlFiles.map((file) =>
        readRevocationList(readConfigFile('XS2A_CRL_FILES', file), authorities).catch((error: unknown) => {
          throw new ConfigError([`XS2A_CRL_FILES: ${file}: ${(error as Error).message}`]);
        }),
      ),
    );
    // The configuration's own files first, then the bank's adapter (which may connect to the core).
    bank = await openBankAdapter(config, options);
    const app = await buildApp(config, {
      database,
      trustStore: new TrustStore(authorities, revocationLists),
      sandboxCa,
      logger: options.logger,
      now: options.now,
      runsBatchSchedule: options.runsBatchSchedule,
      onBatchRun: options.onBatchRun,
      coreBanking: bank?.coreBanking,
      psuAuthenticator: bank?.psuAuthenticator,
    });
    const opened = bank;
    return {
      app,
      sandboxCa,
      close: async () => {
        await app.close();
        await opened?.close?.();
        await database.close();
      },
    };
  } catch (error) {
    await bank?.close?.();
    await database.close();
    throw error;
  }
}

/**
 * The bank's adapter named by `XS2A_BANK_ADAPTER` (production mode), imported and made once, and
 * checked for every operation of both ports before the server listens: a missing one is a
 * configuration error at start, not a 500 on the first payment.
 */
async function openBankAdapter(config: Config, options: ServerOptions): Promise<BankAdapter | undefined> {
  if (config.bankAdapter === undefined) return undefined;
  const file = resolve(config.bankAdapter);
  let exported: unknown;
  try {
    exported = ((await import(pathToFileURL(file).href)) as Record<string, unknown>)['createBankAdapter'];
  } catch (error) {
    throw new ConfigError([`XS2A_BANK_ADAPTER: cannot load ${file}: ${(error as Error).message}`]);
  }
  if (typeof exported !== 'function') {
    throw new ConfigError([`XS2A_BANK_ADAPTER: ${file} does not export a function createBankAdapter`]);
  }
  let adapter: unknown;
  try {
    adapter = await (exported as CreateBankAdapter)({
      publicUrl: config.publicUrl,
      env: options.env ?? {},
      log: adapterLog(options.logger),
    });
  } catch (error) {
    throw new ConfigError([`XS2A_BANK_ADAPTER: createBankAdapter of ${file} failed: ${(error as Error).message}`]);
  }
  const problems = bankAdapterProblems(adapter);
  if (problems.length > 0) {
    throw new ConfigError(problems.map((problem) => `XS2A_BANK_ADAPTER: ${file}: ${problem}`));
  }
  return adapter as BankAdapter;
}

function adapterLog(logger: FastifyBaseLogger | undefined): BankAdapterLog {
  const log = logger?.child({ component: 'bank-adapter' });
  return {
    info: (fields, message) => log?.info(fields, message),
    warn: (fields, message) => log?.warn(fields, message),
    error: (fields, message) => log?.error(fields, message),
  };
}

function readCertificates(file: string): X509Certificate[] {
  const pem = readConfigFile('XS2A_TRUSTED_CA_FILES', file).toString('utf8');
  try {
    return readPemBundle(pem);
  } catch (error) {
    throw new ConfigError([`XS2A_TRUSTED_CA_FILES: ${file} holds a certificate that cannot be read (${(error as Error).message})`]);
  }
}

function readConfigFile(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ConfigError([`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
}
