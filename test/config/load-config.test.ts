/**
 * Configuration (docs/design.md §7), read by loadConfig from an explicit environment (never process.env):
 * - the defaults of every variable, XS2A_PUBLIC_URL derived from HOST and PORT;
 * - a bad value is reported as exactly one line that starts with the variable's name, and every
 *   bad variable is reported at once (ConfigError.problems);
 * - DATABASE_URL: postgres://, postgresql://, sqlite:PATH, sqlite::memory:, anything else refused;
 * - production mode: XS2A_REQUIRE_SIGNATURE=false is refused, XS2A_TRUSTED_CA_FILES is required;
 * - XS2A_BLOCKED_CERTIFICATES: SHA-256 fingerprints, colons allowed, any case, stored lower-case;
 * - the returned configuration is frozen.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';

type Env = Record<string, string>;

/** The problem lines loadConfig reports for `env`; fails the test when it reports none. */
function problemsOf(env: Env): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const FINGERPRINT = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';
const FINGERPRINT_HEX = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
const PRODUCTION = {
  XS2A_MODE: 'production',
  XS2A_TRUSTED_CA_FILES: '/etc/xs2a/qtsp-cas.pem',
  XS2A_BANK_ADAPTER: '/opt/bank/xs2a-adapter.js',
} as const;

describe('loadConfig: defaults (docs/design.md §7)', () => {
  it('gives every documented default for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      database: { dialect: 'sqlite', path: './data/xs2a.db' },
      mode: 'sandbox',
      trustedCaFiles: [],
      crlFiles: [],
      blockedCertificates: new Set(),
      publicUrl: 'http://127.0.0.1:8080',
      requireSignature: true,
      maxClockSkewSeconds: 300,
      dataDir: './data',
      systemName: 'nordic-xs2a',
      bankName: 'Nordic Sandbox Bank',
      maxExecutionDaysAhead: 365,
      nokRates: DEFAULT_NOK_RATES,
      scaExpirySeconds: 900,
      scaCodeLockAttempts: 5,
      scaCodeLockWindowMinutes: 60,
      scaCodeLockMinutes: 15,
      psuLoginCodeSeconds: 300,
      psuTokenLifetimeSeconds: 1800,
      requestLeaseSeconds: 120,
      batchTimes: [
        { hour: 5, minute: 35 },
        { hour: 9, minute: 30 },
        { hour: 11, minute: 30 },
        { hour: 13, minute: 35 },
        { hour: 15, minute: 35 },
      ],
      batchSchedule: true,
      notifications: true,
      notificationSealKeyFile: undefined,
      notificationSealCertificateFile: undefined,
      notificationTimeoutMs: 10_000,
      notificationPollMs: 2_000,
      notificationRetryBaseMs: 10_000,
      notificationMaxAttempts: 20,
      logLevel: 'info',
    });
  });

  it('derives XS2A_PUBLIC_URL from HOST and PORT when it is unset', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9090' }).publicUrl).toBe('http://0.0.0.0:9090');
    expect(loadConfig({ HOST: 'psd2.local' }).publicUrl).toBe('http://psd2.local:8080');
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://127.0.0.1:3000');
  });

  it.each([
    ['::', 'http://[::]:8080'],
    ['::1', 'http://[::1]:8080'],
  ])('derives a usable XS2A_PUBLIC_URL for the IPv6 HOST %s', (host, publicUrl) => {
    const config = loadConfig({ HOST: host });
    expect(config.host).toBe(host);
    expect(config.publicUrl).toBe(publicUrl);
  });

  it('keeps an explicit XS2A_PUBLIC_URL, without a trailing slash', () => {
    expect(loadConfig({ HOST: '0.0.0.0', XS2A_PUBLIC_URL: 'https://psd2.bank.example/' }).publicUrl).toBe('https://psd2.bank.example');
    expect(loadConfig({ XS2A_PUBLIC_URL: 'https://bank.example/psd2' }).publicUrl).toBe('https://bank.example/psd2');
  });

  it('reads valid values of every variable', () => {
    const config = loadConfig({
      PORT: '443',
      HOST: ' 10.0.0.5 ',
      DATABASE_URL: 'postgres://xs2a@db:5432/xs2a',
      XS2A_MODE: 'production',
      XS2A_TRUSTED_CA_FILES: ' /etc/a.pem, /etc/b.pem ,',
      XS2A_BANK_ADAPTER: ' /opt/bank/adapter.js ',
      XS2A_CRL_FILES: '/etc/a.crl,/etc/b.crl',
      XS2A_BLOCKED_CERTIFICATES: FINGERPRINT,
      XS2A_PUBLIC_URL: 'https://psd2.bank.example',
      XS2A_REQUIRE_SIGNATURE: 'TRUE',
      XS2A_MAX_CLOCK_SKEW_SECONDS: '60',
      XS2A_DATA_DIR: '/var/lib/xs2a',
      XS2A_SYSTEM_NAME: 'bank-xs2a',
      XS2A_BANK_NAME: 'Fjordbanken',
      XS2A_MAX_EXECUTION_DAYS: '90',
      XS2A_NOK_RATES: 'EUR=12.5, THB=0.31',
      XS2A_SCA_EXPIRY_SECONDS: '300',
      XS2A_SCA_CODE_LOCK_ATTEMPTS: '3',
      XS2A_SCA_CODE_LOCK_WINDOW_MINUTES: '30',
      XS2A_SCA_CODE_LOCK_MINUTES: '45',
      XS2A_PSU_LOGIN_CODE_SECONDS: '120',
      XS2A_PSU_TOKEN_LIFETIME_SECONDS: '600',
      XS2A_REQUEST_LEASE_SECONDS: '30',
      XS2A_BATCH_TIMES: '06:00, 14:30',
      XS2A_BATCH_SCHEDULE: 'false',
      XS2A_NOTIFICATIONS: 'true',
      XS2A_NOTIFICATION_SEAL_KEY_FILE: '/etc/xs2a/seal-key.pem',
      XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE: '/etc/xs2a/seal.pem',
      XS2A_NOTIFICATION_TIMEOUT_MS: '5000',
      XS2A_NOTIFICATION_POLL_MS: '500',
      XS2A_NOTIFICATION_RETRY_BASE_MS: '30000',
      XS2A_NOTIFICATION_MAX_ATTEMPTS: '8',
      LOG_LEVEL: 'debug',
    });
    expect(config).toEqual({
      port: 443,
      host: '10.0.0.5',
      database: { dialect: 'postgres', url: 'postgres://xs2a@db:5432/xs2a' },
      mode: 'production',
      trustedCaFiles: ['/etc/a.pem', '/etc/b.pem'],
      bankAdapter: '/opt/bank/adapter.js',
      crlFiles: ['/etc/a.crl', '/etc/b.crl'],
      blockedCertificates: new Set([FINGERPRINT_HEX]),
      publicUrl: 'https://psd2.bank.example',
      requireSignature: true,
      maxClockSkewSeconds: 60,
      dataDir: '/var/lib/xs2a',
      systemName: 'bank-xs2a',
      bankName: 'Fjordbanken',
      maxExecutionDaysAhead: 90,
      nokRates: { asOf: DEFAULT_NOK_RATES.asOf, rates: new Map([...DEFAULT_NOK_RATES.rates, ['EUR', '12.5'], ['THB', '0.31']]) },
      scaExpirySeconds: 300,
      scaCodeLockAttempts: 3,
      scaCodeLockWindowMinutes: 30,
      scaCodeLockMinutes: 45,
      psuLoginCodeSeconds: 120,
      psuTokenLifetimeSeconds: 600,
      requestLeaseSeconds: 30,
      batchTimes: [
        { hour: 6, minute: 0 },
        { hour: 14, minute: 30 },
      ],
      batchSchedule: false,
      notifications: true,
      notificationSealKeyFile: '/etc/xs2a/seal-key.pem',
      notificationSealCertificateFile: '/etc/xs2a/seal.pem',
      notificationTimeoutMs: 5_000,
      notificationPollMs: 500,
      notificationRetryBaseMs: 30_000,
      notificationMaxAttempts: 8,
      logLevel: 'debug',
    });
  });

  it.each([
    ['XS2A_SCA_EXPIRY_SECONDS', '10'],
    ['XS2A_SCA_CODE_LOCK_ATTEMPTS', '0'],
    ['XS2A_SCA_CODE_LOCK_ATTEMPTS', 'five'],
    ['XS2A_SCA_CODE_LOCK_WINDOW_MINUTES', '0'],
    ['XS2A_SCA_CODE_LOCK_WINDOW_MINUTES', '1441'],
    ['XS2A_SCA_CODE_LOCK_MINUTES', '0'],
    ['XS2A_SCA_CODE_LOCK_MINUTES', '15m'],
    ['XS2A_PSU_LOGIN_CODE_SECONDS', '10'],
    ['XS2A_PSU_LOGIN_CODE_SECONDS', '5m'],
    ['XS2A_PSU_TOKEN_LIFETIME_SECONDS', 'an hour'],
    ['XS2A_REQUEST_LEASE_SECONDS', '0'],
    ['XS2A_MAX_EXECUTION_DAYS', '0'],
    ['XS2A_MAX_EXECUTION_DAYS', 'a year'],
    ['XS2A_NOK_RATES', 'EUR=-1'],
    ['XS2A_NOK_RATES', 'EURO=11'],
    ['XS2A_NOK_RATES', 'EUR'],
    ['XS2A_BATCH_TIMES', '9:30'],
    ['XS2A_BATCH_TIMES', '15:35,09:30'],
    ['XS2A_BATCH_TIMES', ''],
    ['XS2A_BATCH_SCHEDULE', 'sometimes'],
    ['XS2A_NOTIFICATIONS', 'yes'],
    ['XS2A_NOTIFICATION_TIMEOUT_MS', '0'],
    ['XS2A_NOTIFICATION_POLL_MS', 'often'],
    ['XS2A_NOTIFICATION_RETRY_BASE_MS', '1'],
    ['XS2A_NOTIFICATION_MAX_ATTEMPTS', '0'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(1);
      expect((error as ConfigError).problems[0]).toMatch(new RegExp(`^${name}`));
    }
  });

  it('allows XS2A_REQUIRE_SIGNATURE=false in sandbox mode', () => {
    expect(loadConfig({ XS2A_REQUIRE_SIGNATURE: 'false' }).requireSignature).toBe(false);
    expect(loadConfig({ XS2A_MODE: 'sandbox', XS2A_REQUIRE_SIGNATURE: 'False' }).requireSignature).toBe(false);
  });

  it('returns a frozen object', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });
});

describe('loadConfig: one line per bad variable, naming it', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['PORT', ' 80'],
    ['PORT', ''],
    ['HOST', ''],
    ['HOST', '   '],
    ['DATABASE_URL', 'mysql://db/xs2a'],
    ['XS2A_MODE', 'prod'],
    ['XS2A_MODE', 'Sandbox'],
    ['XS2A_BLOCKED_CERTIFICATES', 'abc'],
    ['XS2A_BLOCKED_CERTIFICATES', `${FINGERPRINT_HEX},not-a-fingerprint`],
    ['XS2A_BLOCKED_CERTIFICATES', `${FINGERPRINT_HEX}00`],
    ['XS2A_BLOCKED_CERTIFICATES', FINGERPRINT_HEX.replace(/^a/, 'g')],
    ['XS2A_PUBLIC_URL', 'psd2.bank.example'],
    ['XS2A_PUBLIC_URL', 'ftp://psd2.bank.example'],
    ['XS2A_PUBLIC_URL', '/relative'],
    ['XS2A_REQUIRE_SIGNATURE', 'no'],
    ['XS2A_REQUIRE_SIGNATURE', '0'],
    ['XS2A_REQUIRE_SIGNATURE', 'yes'],
    ['XS2A_MAX_CLOCK_SKEW_SECONDS', '0'],
    ['XS2A_MAX_CLOCK_SKEW_SECONDS', '86401'],
    ['XS2A_MAX_CLOCK_SKEW_SECONDS', '5m'],
    ['XS2A_DATA_DIR', ' '],
    ['XS2A_SYSTEM_NAME', ''],
    ['XS2A_BANK_NAME', ''],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_LEVEL', 'INFO'],
  ])('%s=%j is one problem naming %s', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    const [line = ''] = problems;
    expect(line.startsWith(`${name}=`)).toBe(true);
    expect(line).toContain(JSON.stringify(value));
    expect(line).not.toContain('\n');
  });

  it('says what a good value looks like', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT="abc": must be a whole number from 0 to 65535']);
    expect(problemsOf({ XS2A_MODE: 'prod' })).toEqual(['XS2A_MODE="prod": must be one of sandbox, production']);
    expect(problemsOf({ XS2A_REQUIRE_SIGNATURE: 'no' })).toEqual(['XS2A_REQUIRE_SIGNATURE="no": must be true or false']);
  });

  it('reports every bad variable together, in the order of docs/design.md §7', () => {
    const problems = problemsOf({
      PORT: 'abc',
      DATABASE_URL: 'junk',
      XS2A_MODE: 'prod',
      LOG_LEVEL: 'loud',
      XS2A_REQUIRE_SIGNATURE: 'maybe',
    });
    expect(problems.map((line) => line.slice(0, line.indexOf('=')))).toEqual([
      'PORT',
      'DATABASE_URL',
      'XS2A_MODE',
      'XS2A_REQUIRE_SIGNATURE',
      'LOG_LEVEL',
    ]);
  });

  it('joins the problems into the error message, one per line', () => {
    expect(() => loadConfig({ PORT: 'abc', HOST: '' })).toThrow(/^PORT="abc": .*\nHOST="": .*$/);
  });

  it('does not blame XS2A_PUBLIC_URL (unset) for a bad PORT', () => {
    expect(problemsOf({ PORT: 'abc' }).some((line) => line.startsWith('XS2A_PUBLIC_URL'))).toBe(false);
  });
});

describe('loadConfig: DATABASE_URL', () => {
  it.each([
    ['postgres://xs2a:secret@db.internal:5432/xs2a', { dialect: 'postgres', url: 'postgres://xs2a:secret@db.internal:5432/xs2a' }],
    ['postgresql://xs2a@127.0.0.1/xs2a?sslmode=require', { dialect: 'postgres', url: 'postgresql://xs2a@127.0.0.1/xs2a?sslmode=require' }],
    // libpq's forms of a Unix socket, as the driver reads them.
    ['postgres://xs2a@/xs2a?host=/var/run/postgresql', { dialect: 'postgres', url: 'postgres://xs2a@/xs2a?host=/var/run/postgresql' }],
    ['postgresql:///xs2a?host=/var/run/postgresql', { dialect: 'postgres', url: 'postgresql:///xs2a?host=/var/run/postgresql' }],
    ['postgres://xs2a@%2Fvar%2Frun%2Fpostgresql/xs2a', { dialect: 'postgres', url: 'postgres://xs2a@%2Fvar%2Frun%2Fpostgresql/xs2a' }],
    ['sqlite:./data/xs2a.db', { dialect: 'sqlite', path: './data/xs2a.db' }],
    ['sqlite:/var/lib/xs2a/xs2a.db', { dialect: 'sqlite', path: '/var/lib/xs2a/xs2a.db' }],
    ['sqlite::memory:', { dialect: 'sqlite', path: ':memory:' }],
  ])('reads %s', (url, database) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual(database);
  });

  it.each([
    'junk',
    'sqlite:',
    'sqlite',
    './data/xs2a.db',
    'mysql://xs2a@db/xs2a',
    'postgres:/db',
    'postgres://xs2a@db:99999/xs2a', // not a URL: the port is out of range
    'http://db:5432/xs2a',
  ])('refuses %j with one line naming DATABASE_URL', (url) => {
    const problems = problemsOf({ DATABASE_URL: url });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL=/);
  });
});

describe('loadConfig: production mode', () => {
  it('starts with trusted CA files and signatures required', () => {
    const config = loadConfig({ ...PRODUCTION });
    expect(config.mode).toBe('production');
    expect(config.requireSignature).toBe(true);
    expect(config.trustedCaFiles).toEqual(['/etc/xs2a/qtsp-cas.pem']);
  });

  it('puts the default SQLite file in XS2A_DATA_DIR', () => {
    expect(loadConfig({ XS2A_DATA_DIR: '/var/lib/xs2a/' }).database).toEqual({ dialect: 'sqlite', path: '/var/lib/xs2a/xs2a.db' });
    expect(loadConfig({ XS2A_DATA_DIR: '/var/lib/xs2a', DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toEqual({
      dialect: 'sqlite',
      path: '/tmp/x.db',
    });
  });

  it('refuses XS2A_REQUIRE_SIGNATURE=false, naming it', () => {
    const problems = problemsOf({ ...PRODUCTION, XS2A_REQUIRE_SIGNATURE: 'false' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^XS2A_REQUIRE_SIGNATURE=false: .*sandbox/);
  });

  it.each<Env>([{}, { XS2A_TRUSTED_CA_FILES: '' }, { XS2A_TRUSTED_CA_FILES: ' , ' }])('needs XS2A_TRUSTED_CA_FILES (%j)', (trusted) => {
    const { XS2A_TRUSTED_CA_FILES: _given, ...production } = PRODUCTION;
    const problems = problemsOf({ ...production, ...trusted });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^XS2A_TRUSTED_CA_FILES=/);
  });

  it.each<Env>([{}, { XS2A_BANK_ADAPTER: '' }, { XS2A_BANK_ADAPTER: '  ' }])(
    "needs the bank's adapter, XS2A_BANK_ADAPTER (%j)",
    (adapter) => {
      const { XS2A_BANK_ADAPTER: _given, ...production } = PRODUCTION;
      const problems = problemsOf({ ...production, ...adapter });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^XS2A_BANK_ADAPTER="": production mode needs the bank's adapter module/);
    },
  );

  it('offers no notifications by default; turned on, it needs the seal that signs them, key and certificate', () => {
    expect(loadConfig({ ...PRODUCTION }).notifications).toBe(false);
    for (const seal of [
      {} as Env,
      { XS2A_NOTIFICATION_SEAL_KEY_FILE: '/etc/xs2a/seal-key.pem' },
      { XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE: '/etc/xs2a/seal.pem' },
    ]) {
      const problems = problemsOf({ ...PRODUCTION, XS2A_NOTIFICATIONS: 'true', ...seal });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^XS2A_NOTIFICATIONS=true: .*XS2A_NOTIFICATION_SEAL_KEY_FILE and XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE/,
      );
    }
    const config = loadConfig({
      ...PRODUCTION,
      XS2A_NOTIFICATIONS: 'true',
      XS2A_NOTIFICATION_SEAL_KEY_FILE: '/etc/xs2a/seal-key.pem',
      XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE: '/etc/xs2a/seal.pem',
    });
    expect(config.notifications).toBe(true);
  });

  it('reports all production rules together', () => {
    const problems = problemsOf({ XS2A_MODE: 'production', XS2A_REQUIRE_SIGNATURE: 'false' });
    expect(problems.map((line) => line.slice(0, line.indexOf('=')))).toEqual([
      'XS2A_REQUIRE_SIGNATURE',
      'XS2A_TRUSTED_CA_FILES',
      'XS2A_BANK_ADAPTER',
    ]);
  });

  it('does not apply the production rules in sandbox mode', () => {
    expect(() => loadConfig({ XS2A_MODE: 'sandbox', XS2A_REQUIRE_SIGNATURE: 'false', XS2A_TRUSTED_CA_FILES: '' })).not.toThrow();
  });

  it('refuses a bank adapter in sandbox mode: the sandbox is its own bank', () => {
    const problems = problemsOf({ XS2A_BANK_ADAPTER: '/opt/bank/adapter.js' });
    expect(problems).toEqual([
      'XS2A_BANK_ADAPTER="/opt/bank/adapter.js": a bank adapter is used in production mode only (XS2A_MODE=production); the sandbox is its own bank',
    ]);
  });
});

describe('loadConfig: XS2A_BLOCKED_CERTIFICATES', () => {
  it.each([
    ['colon-separated upper case', FINGERPRINT],
    ['plain lower case', FINGERPRINT_HEX],
    ['plain upper case', FINGERPRINT_HEX.toUpperCase()],
    ['mixed, padded', `  ${FINGERPRINT.toLowerCase().slice(0, 20)}${FINGERPRINT.slice(20)}  `],
  ])('reads a fingerprint written %s as lower-case hex', (_form, text) => {
    const blocked = loadConfig({ XS2A_BLOCKED_CERTIFICATES: text }).blockedCertificates;
    expect([...blocked]).toEqual([FINGERPRINT_HEX]);
    expect(blocked.has(FINGERPRINT_HEX)).toBe(true);
  });

  it('reads a comma-separated list, ignoring empty items and duplicates', () => {
    const other = 'f'.repeat(64);
    const blocked = loadConfig({
      XS2A_BLOCKED_CERTIFICATES: `${FINGERPRINT}, ,${other.toUpperCase()},${FINGERPRINT_HEX},`,
    }).blockedCertificates;
    expect([...blocked].sort()).toEqual([FINGERPRINT_HEX, other]);
  });

  it('names the item that is not a fingerprint', () => {
    const problems = problemsOf({ XS2A_BLOCKED_CERTIFICATES: `${FINGERPRINT},sha1:1234` });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^XS2A_BLOCKED_CERTIFICATES=.*"sha11234" is not a SHA-256 fingerprint/);
  });
});
