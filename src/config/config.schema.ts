/**
 * Every setting of the server, read from the environment (docs/design.md §7). Each entry says what it is,
 * its default and how a text becomes a value; `load-config.ts` applies them all at once and
 * `.env.example` lists them. Nothing else reads `process.env`.
 */
import { parse as parseConnectionString } from 'pg-connection-string';
import { checkBatchTimes, DEFAULT_BATCH_TIMES, type BatchTime } from '../domain/batch-schedule.js';
import { DEFAULT_NOK_RATES, parseNokRates, type NokRates } from '../domain/regulatory-reporting.js';
export type Mode = 'sandbox' | 'production';
export type DatabaseTarget = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseTarget;
  readonly mode: Mode;
  /** PEM files of trusted QSealC issuers; the sandbox CA is added in sandbox mode. */
  readonly trustedCaFiles: readonly string[];
  /**
   * The bank's adapter module (production mode): a file exporting `createBankAdapter`, which gives
   * the core-banking port and the PSU authenticator (src/bank/bank-adapter.ts, docs/bank-adapter.md).
   */
  readonly bankAdapter: string | undefined;
  /** PEM or DER certificate revocation lists, each signed by a trusted CA. */
  readonly crlFiles: readonly string[];
  /** SHA-256 fingerprints (hex) of certificates the bank has blocked. */
  readonly blockedCertificates: ReadonlySet<string>;
  readonly publicUrl: string;
  readonly requireSignature: boolean;
  readonly maxClockSkewSeconds: number;
  readonly dataDir: string;
  readonly systemName: string;
  readonly bankName: string;
  /** How many days ahead a requested execution date or periodic start date may lie. */
  readonly maxExecutionDaysAhead: number;
  /** NOK per unit of foreign currencies, for the currency-register threshold and limits. */
  readonly nokRates: NokRates;
  /** How long an SCA redirect link (and a PSU login) stays usable before it fails. */
  readonly scaExpirySeconds: number;
  /** How many wrong one-time codes of one PSU, across its authorisations, lock its code step … */
  readonly scaCodeLockAttempts: number;
  /** … within how many minutes … */
  readonly scaCodeLockWindowMinutes: number;
  /** … and for how many minutes. */
  readonly scaCodeLockMinutes: number;
  /** How long the login code of the PSU pre-step may be exchanged at `POST /v1/token`. */
  readonly psuLoginCodeSeconds: number;
  /** How long a PSU access token from `POST /v1/token` identifies its PSU. */
  readonly psuTokenLifetimeSeconds: number;
  /** How long a POST may run before a retry with its X-Request-ID may take it over (its server stopped). */
  readonly requestLeaseSeconds: number;
  /** The local Europe/Oslo times of each bank day's batch runs, earliest first. */
  readonly batchTimes: readonly BatchTime[];
  /** Whether this server runs the batch at those times (off: only `POST /v1/sandbox/batch-runs`, and at start the resume of a run a stopped server left). */
  readonly batchSchedule: boolean;
  /** Whether the bank offers Berlin Group status notifications (TPP-Notification-URI). */
  readonly notifications: boolean;
  /** The bank's seal that signs notifications: its private key and certificate (PEM files); sandbox: generated in the data directory when unset. */
  readonly notificationSealKeyFile: string | undefined;
  readonly notificationSealCertificateFile: string | undefined;
  /** How long one delivery of a notification may take before it counts as failed. */
  readonly notificationTimeoutMs: number;
  /** How often the outbox is looked at for notifications due. */
  readonly notificationPollMs: number;
  /** The wait before the first retry; it doubles with each failure, up to an hour. */
  readonly notificationRetryBaseMs: number;
  /** How many attempts a notification gets before it is given up (and the next of its resource goes). */
  readonly notificationMaxAttempts: number;
  readonly logLevel: LogLevel;
}

/** A variable's text turned into a value, or the reason it cannot be. */
export type Parse<T> = (text: string) => { value: T } | { problem: string };

export interface Variable<K extends keyof Config> {
  readonly name: string;
  readonly key: K;
  readonly description: string;
  /** Text used when the variable is unset; a function when it depends on other settings. */
  readonly fallback: string | ((settled: Partial<Config>) => string);
  readonly parse: Parse<Config[K]>;
}

const integer =
  (min: number, max: number): Parse<number> =>
  (text) =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
      ? { value: Number(text) }
      : { problem: `must be a whole number from ${min} to ${max}` };

const oneOf =
  <T extends string>(values: readonly T[]): Parse<T> =>
  (text) =>
    (values as readonly string[]).includes(text) ? { value: text as T } : { problem: `must be one of ${values.join(', ')}` };

const boolean: Parse<boolean> = (text) =>
  /^(true|false)$/i.test(text) ? { value: text.toLowerCase() === 'true' } : { problem: 'must be true or false' };

const nonEmpty: Parse<string> = (text) => (text.trim() !== '' ? { value: text.trim() } : { problem: 'must not be empty' });

const list: Parse<readonly string[]> = (text) => ({
  value: text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
});

const optional: Parse<string | undefined> = (text) => ({ value: text.trim() === '' ? undefined : text.trim() });

const fingerprints: Parse<ReadonlySet<string>> = (text) => {
  const items = text
    .split(',')
    .map((item) => item.trim().replace(/:/g, '').toLowerCase())
    .filter(Boolean);
  const bad = items.find((item) => !/^[0-9a-f]{64}$/.test(item));
  return bad === undefined ? { value: new Set(items) } : { problem: `"${bad}" is not a SHA-256 fingerprint (64 hex digits)` };
};

const nokRates: Parse<NokRates> = (text) => {
  if (text.trim() === '') return { value: DEFAULT_NOK_RATES };
  const parsed = parseNokRates(text, DEFAULT_NOK_RATES.asOf);
  if (!parsed.ok) return { problem: parsed.reason.en };
  // Configured rates override the embedded table; currencies not named keep its rate.
  return { value: { asOf: DEFAULT_NOK_RATES.asOf, rates: new Map([...DEFAULT_NOK_RATES.rates, ...parsed.value.rates]) } };
};

const batchTimes: Parse<readonly BatchTime[]> = (text) => {
  const checked = checkBatchTimes(text);
  return checked.ok ? { value: checked.value } : { problem: checked.reason.en };
};

const database: Parse<DatabaseTarget> = (text) => {
  if (/^postgres(ql)?:\/\//.test(text)) {
    // Read as the driver will read it, so what it connects with is what is accepted here: libpq's
    // forms included, such as a Unix socket as `postgres://USER@/DB?host=/var/run/postgresql`.
    try {
      parseConnectionString(text);
      return { value: { dialect: 'postgres', url: text } };
    } catch {
      return { problem: 'is not a valid postgres:// URL' };
    }
  }
  if (text.startsWith('sqlite:') && text.length > 'sqlite:'.length) {
    return { value: { dialect: 'sqlite', path: text.slice('sqlite:'.length) } };
  }
  return { problem: 'must be postgres://USER@HOST:PORT/DB or sqlite:PATH (sqlite::memory: for a throw-away database)' };
};

const absoluteHttpUrl: Parse<string> = (text) => {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { problem: 'must be an http:// or https:// URL' };
    }
    return { value: text.replace(/\/+$/, '') };
  } catch {
    return { problem: 'must be an absolute URL such as https://psd2.bank.example' };
  }
};

export const VARIABLES = [
  { name: 'PORT', key: 'port', description: 'TCP port to listen on', fallback: '8080', parse: integer(0, 65535) },
  { name: 'HOST', key: 'host', description: 'address to listen on', fallback: '127.0.0.1', parse: nonEmpty },
  {
    name: 'XS2A_DATA_DIR',
    key: 'dataDir',
    description: 'directory for the SQLite file and the sandbox CA',
    fallback: './data',
    parse: nonEmpty,
  },
  {
    name: 'DATABASE_URL',
    key: 'database',
    description: 'postgres://… for PostgreSQL, sqlite:PATH for SQLite',
    // The embedded database lives beside the sandbox CA: sqlite:./data/xs2a.db by default.
    fallback: (settled) => `sqlite:${(settled.dataDir ?? './data').replace(/\/+$/, '')}/xs2a.db`,
    parse: database,
  },
  {
    name: 'XS2A_MODE',
    key: 'mode',
    description: 'sandbox (mock data, test CA) or production',
    fallback: 'sandbox',
    parse: oneOf(['sandbox', 'production'] as const),
  },
  {
    name: 'XS2A_TRUSTED_CA_FILES',
    key: 'trustedCaFiles',
    description: 'comma-separated PEM files of CAs whose QSealCs are accepted (the sandbox CA is always trusted in sandbox mode)',
    fallback: '',
    parse: list,
  },
  {
    name: 'XS2A_BANK_ADAPTER',
    key: 'bankAdapter',
    description: "the bank's adapter module, a file exporting createBankAdapter (production mode only; required there)",
    fallback: '',
    parse: optional,
  },
  {
    name: 'XS2A_CRL_FILES',
    key: 'crlFiles',
    description: 'comma-separated certificate revocation lists (PEM or DER)',
    fallback: '',
    parse: list,
  },
  {
    name: 'XS2A_BLOCKED_CERTIFICATES',
    key: 'blockedCertificates',
    description: 'comma-separated SHA-256 fingerprints of blocked TPP certificates',
    fallback: '',
    parse: fingerprints,
  },
  {
    name: 'XS2A_PUBLIC_URL',
    key: 'publicUrl',
    description: 'absolute base of the links handed to TPPs and PSUs',
    // An IPv6 HOST (`::`, `::1`) needs brackets to make a URL.
    fallback: (settled) => {
      const host = settled.host ?? '127.0.0.1';
      return `http://${host.includes(':') ? `[${host}]` : host}:${settled.port ?? 8080}`;
    },
    parse: absoluteHttpUrl,
  },
  {
    name: 'XS2A_REQUIRE_SIGNATURE',
    key: 'requireSignature',
    description: 'false lets unsigned requests in as the sandbox TPP (sandbox mode only)',
    fallback: 'true',
    parse: boolean,
  },
  {
    name: 'XS2A_MAX_CLOCK_SKEW_SECONDS',
    key: 'maxClockSkewSeconds',
    description: 'largest accepted difference between a request Date header and the server clock',
    fallback: '300',
    parse: integer(1, 86_400),
  },
  {
    name: 'XS2A_SYSTEM_NAME',
    key: 'systemName',
    description: 'the `system` field of error bodies',
    fallback: 'nordic-xs2a',
    parse: nonEmpty,
  },
  { name: 'XS2A_BANK_NAME', key: 'bankName', description: 'the bank name shown to PSUs', fallback: 'Nordic Sandbox Bank', parse: nonEmpty },
  {
    name: 'XS2A_MAX_EXECUTION_DAYS',
    key: 'maxExecutionDaysAhead',
    description: 'how many days ahead a requestedExecutionDate or periodic startDate may lie',
    fallback: '365',
    parse: integer(1, 3650),
  },
  {
    name: 'XS2A_NOK_RATES',
    key: 'nokRates',
    description:
      'NOK per unit of foreign currencies (e.g. EUR=11.725,SEK=0.98) over the embedded sandbox table, for the NOK 100 000 reporting threshold',
    fallback: '',
    parse: nokRates,
  },
  {
    name: 'XS2A_SCA_EXPIRY_SECONDS',
    key: 'scaExpirySeconds',
    description: 'how long an SCA redirect link stays usable; an expired payment authorisation fails and the payment is RJCT',
    fallback: '900',
    parse: integer(30, 86400),
  },
  {
    name: 'XS2A_SCA_CODE_LOCK_ATTEMPTS',
    key: 'scaCodeLockAttempts',
    description:
      'how many wrong one-time codes of one PSU, across all its authorisations, within XS2A_SCA_CODE_LOCK_WINDOW_MINUTES lock its code step',
    fallback: '5',
    parse: integer(1, 100),
  },
  {
    name: 'XS2A_SCA_CODE_LOCK_WINDOW_MINUTES',
    key: 'scaCodeLockWindowMinutes',
    description: 'the minutes within which XS2A_SCA_CODE_LOCK_ATTEMPTS wrong one-time codes lock the PSU',
    fallback: '60',
    parse: integer(1, 1440),
  },
  {
    name: 'XS2A_SCA_CODE_LOCK_MINUTES',
    key: 'scaCodeLockMinutes',
    description: "how many minutes the PSU's code step stays locked; while locked the right code is refused too",
    fallback: '15',
    parse: integer(1, 1440),
  },
  {
    name: 'XS2A_PSU_LOGIN_CODE_SECONDS',
    key: 'psuLoginCodeSeconds',
    // A person copies the code from the page into the TPP's app when it sent no redirect URI.
    description: 'how long the login code of the PSU pre-step may be exchanged at POST /v1/token',
    fallback: '300',
    parse: integer(30, 3600),
  },
  {
    name: 'XS2A_PSU_TOKEN_LIFETIME_SECONDS',
    key: 'psuTokenLifetimeSeconds',
    description: 'lifetime of the PSU access token that POST /v1/token hands out after the PSU pre-step',
    fallback: '1800',
    parse: integer(60, 86400),
  },
  {
    name: 'XS2A_REQUEST_LEASE_SECONDS',
    key: 'requestLeaseSeconds',
    description: 'how long a POST may run before a retry with its X-Request-ID takes it over, as after a crash',
    fallback: '120',
    parse: integer(1, 3600),
  },
  {
    name: 'XS2A_BATCH_TIMES',
    key: 'batchTimes',
    description:
      'comma-separated local times (Europe/Oslo, HH:MM) of the batch runs of each Norwegian bank day; a payment lacking funds is rejected after the last',
    fallback: DEFAULT_BATCH_TIMES,
    parse: batchTimes,
  },
  {
    name: 'XS2A_BATCH_SCHEDULE',
    key: 'batchSchedule',
    description: 'false: this server runs no scheduled batch runs (POST /v1/sandbox/batch-runs still runs one)',
    fallback: 'true',
    parse: boolean,
  },
  {
    name: 'XS2A_NOTIFICATIONS',
    key: 'notifications',
    description: 'true: status notifications to a TPP-Notification-URI are offered (default true in sandbox mode, false in production)',
    fallback: (settled) => (settled.mode === 'production' ? 'false' : 'true'),
    parse: boolean,
  },
  {
    name: 'XS2A_NOTIFICATION_SEAL_KEY_FILE',
    key: 'notificationSealKeyFile',
    description:
      "PEM private key of the bank's seal that signs notifications (required in production when notifications are on; sandbox: generated in XS2A_DATA_DIR/notification-seal)",
    fallback: '',
    parse: optional,
  },
  {
    name: 'XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE',
    key: 'notificationSealCertificateFile',
    description: 'PEM certificate of that key, sent with each notification in ASPSP-Signature-Certificate',
    fallback: '',
    parse: optional,
  },
  {
    name: 'XS2A_NOTIFICATION_TIMEOUT_MS',
    key: 'notificationTimeoutMs',
    description: "how long one delivery of a notification may take (connect, send, the TPP's answer) before it counts as failed",
    fallback: '10000',
    parse: integer(100, 120_000),
  },
  {
    name: 'XS2A_NOTIFICATION_POLL_MS',
    key: 'notificationPollMs',
    description: 'how often the outbox is looked at for notifications due',
    fallback: '2000',
    parse: integer(50, 600_000),
  },
  {
    name: 'XS2A_NOTIFICATION_RETRY_BASE_MS',
    key: 'notificationRetryBaseMs',
    description: 'the wait before the first retry of a failed notification; it doubles with each failure, up to one hour',
    fallback: '10000',
    parse: integer(10, 3_600_000),
  },
  {
    name: 'XS2A_NOTIFICATION_MAX_ATTEMPTS',
    key: 'notificationMaxAttempts',
    description: 'attempts a notification gets before it is given up and the next one of its resource is sent',
    fallback: '20',
    parse: integer(1, 1000),
  },
  {
    name: 'LOG_LEVEL',
    key: 'logLevel',
    description: 'pino log level',
    fallback: 'info',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  },
] as const satisfies readonly Variable<keyof Config>[];
