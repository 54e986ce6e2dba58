/**
 * The compiled command line, `node dist/bundle/main.js`, run as an operator or a TPP runs it: in a
 * temporary directory, with an explicit environment (never the developer's).
 * - configuration is checked at start (docs/design.md §7): a bad value stops `serve` and `migrate` with
 *   exit code 2 and one line per bad variable, naming it; production refuses
 *   XS2A_REQUIRE_SIGNATURE=false and needs XS2A_TRUSTED_CA_FILES;
 * - `help` prints the usage; an unknown command or bad arguments exit 2 with a clear message;
 * - `migrate` applies the versioned migrations once, then says the database is up to date;
 * - `serve` answers /health/ready and stops cleanly (exit 0) on SIGTERM;
 * - the README walk-through: `serve`, `tpp init` (local sandbox CA, or `--server` for a running
 *   sandbox) and signed `tpp call`s that store and read the TPP's contact address.
 * The file builds dist/ first when it is missing or older than src/.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/db/migrate.js';
import { ensureBuilt, killStartedServers, runCli, startServerProcess, until, type ServerProcess } from '../support/server-process.js';

type Env = Record<string, string>;

/** A bank adapter module's path: the configuration needs one in production (these tests stop before it is loaded). */
const ADAPTER = '/opt/bank/xs2a-adapter.js';
const PRODUCTION = {
  XS2A_MODE: 'production',
  XS2A_TRUSTED_CA_FILES: fileURLToPath(new URL('../fixtures/certs/generated/test-ca.pem', import.meta.url)),
  XS2A_BANK_ADAPTER: ADAPTER,
} as const;

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-cli-'));
  tempDirs.push(dir);
  return dir;
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** Starts `serve` and waits until /health/ready answers 200. */
async function startServe(options: { cwd: string; env: Env }): Promise<ServerProcess> {
  const server = await startServerProcess({ cwd: options.cwd, env: { LOG_LEVEL: 'warn', ...options.env } });
  await until('/health/ready to answer 200', async () => {
    try {
      return (await fetch(`${server.url}/health/ready`)).status === 200 ? true : undefined;
    } catch {
      return undefined; // not listening yet
    }
  });
  return server;
}

beforeAll(() => ensureBuilt(), 180_000);

afterAll(() => {
  // Whatever a failed test left running: only the processes this file started, by their handle.
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('configuration is checked at start', () => {
  it('stops serve on PORT=abc with exit code 2 and one line naming PORT', async () => {
    const cwd = tempDir();
    const outcome = await runCli(['serve'], { cwd, env: { PORT: 'abc' } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([expect.stringMatching(/^nordic-xs2a: configuration error: PORT="abc": /)]);
    expect(outcome.stdout).toBe('');
    expect(readdirSync(cwd)).toEqual([]); // nothing opened, nothing created
  });

  it('reports every bad variable, one line each', async () => {
    const outcome = await runCli(['serve'], { cwd: tempDir(), env: { PORT: 'abc', XS2A_MODE: 'prod', LOG_LEVEL: 'loud' } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr).map((line) => /configuration error: ([A-Z0-9_]+)=/.exec(line)?.[1])).toEqual([
      'PORT',
      'XS2A_MODE',
      'LOG_LEVEL',
    ]);
  });

  it('refuses XS2A_REQUIRE_SIGNATURE=false in production, naming it', async () => {
    const outcome = await runCli(['serve'], {
      cwd: tempDir(),
      env: { ...PRODUCTION, XS2A_REQUIRE_SIGNATURE: 'false' },
    });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([expect.stringMatching(/^nordic-xs2a: configuration error: XS2A_REQUIRE_SIGNATURE=false: /)]);
  });

  it('needs XS2A_TRUSTED_CA_FILES in production', async () => {
    const outcome = await runCli(['serve'], { cwd: tempDir(), env: { XS2A_MODE: 'production', XS2A_BANK_ADAPTER: ADAPTER } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([expect.stringMatching(/^nordic-xs2a: configuration error: XS2A_TRUSTED_CA_FILES=/)]);
  });

  it('stops a production serve whose XS2A_TRUSTED_CA_FILES cannot be read, naming the file', async () => {
    const cwd = tempDir();
    const outcome = await runCli(['serve'], {
      cwd,
      env: { ...PRODUCTION, XS2A_TRUSTED_CA_FILES: join(cwd, 'missing.pem'), DATABASE_URL: `sqlite:${join(cwd, 'x.db')}` },
    });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([
      expect.stringMatching(/^nordic-xs2a: configuration error: XS2A_TRUSTED_CA_FILES: cannot read .*missing\.pem/),
    ]);
  });

  it("needs the bank's adapter in production, naming XS2A_BANK_ADAPTER", async () => {
    const { XS2A_BANK_ADAPTER: _none, ...withoutAdapter } = PRODUCTION;
    const outcome = await runCli(['serve'], { cwd: tempDir(), env: withoutAdapter });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([
      expect.stringMatching(/^nordic-xs2a: configuration error: XS2A_BANK_ADAPTER="": production mode needs the bank's adapter module/),
    ]);
  });

  it('stops a production serve whose adapter cannot be loaded, naming the file', async () => {
    const cwd = tempDir();
    const outcome = await runCli(['serve'], {
      cwd,
      env: { ...PRODUCTION, XS2A_BANK_ADAPTER: 'missing-adapter.js', DATABASE_URL: `sqlite:${join(cwd, 'x.db')}` },
    });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([
      expect.stringMatching(/^nordic-xs2a: configuration error: XS2A_BANK_ADAPTER: cannot load .*missing-adapter\.js/),
    ]);
  });

  it('stops a production serve whose adapter lacks operations, one line per missing part', async () => {
    const cwd = tempDir();
    // A JavaScript adapter has no compiler to tell it what the ports need: the server does, at start.
    writeFileSync(
      join(cwd, 'half-adapter.mjs'),
      "export function createBankAdapter() { return { coreBanking: { findAccount() {} }, psuAuthenticator: { kind: 'in-page-code', isCustomer() {} } }; }\n",
    );
    const outcome = await runCli(['serve'], {
      cwd,
      env: { ...PRODUCTION, XS2A_BANK_ADAPTER: 'half-adapter.mjs', DATABASE_URL: `sqlite:${join(cwd, 'x.db')}` },
    });
    expect(outcome.code).toBe(2);
    const problems = lines(outcome.stderr).map((line) => line.replace(/^.*half-adapter\.mjs: /, ''));
    expect(problems).toEqual([
      'coreBanking lacks account, accountsOf, permission, balances, transactions, transaction, cardAccountsOf, cardAccount, cardTransactions, fundsAvailable, instantPaymentFee, submitPayment, submitPayments, outcomesSince',
      'psuAuthenticator lacks confirmedInApp',
      'psuAuthenticator lacks verifyOneTimeCode',
      'psuAuthenticator.offersAppConfirmation must be true or false',
    ]);
  });

  it('checks the configuration of migrate too', async () => {
    const outcome = await runCli(['migrate'], { cwd: tempDir(), env: { DATABASE_URL: 'mysql://db/xs2a' } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)).toEqual([
      expect.stringMatching(/^nordic-xs2a: configuration error: DATABASE_URL="mysql:\/\/db\/xs2a": /),
    ]);
  });
});

describe('usage', () => {
  it.each([
    ['help', ['help']],
    ['--help', ['--help']],
    ['-h', ['-h']],
    ['no command', []],
  ])('prints the usage for %s', async (_case, args) => {
    const outcome = await runCli(args, { cwd: tempDir() });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('Usage:');
    for (const command of ['nordic-xs2a serve', 'nordic-xs2a migrate', 'nordic-xs2a tpp init', 'nordic-xs2a tpp call']) {
      expect(outcome.stdout).toContain(command);
    }
    expect(outcome.stderr).toBe('');
  });

  it('refuses an unknown command with exit code 2 and the usage', async () => {
    const outcome = await runCli(['frobnicate'], { cwd: tempDir() });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe('nordic-xs2a: unknown command "frobnicate"');
    expect(outcome.stderr).toContain('Usage:');
    expect(outcome.stdout).toBe('');
  });

  // Every command parses its line the one way (src/cli/command-line.ts): strictly, the refusal naming the
  // option and followed by that command's usage alone, exit 2, and nothing run (migrate made no database).
  it.each([
    [['serve', '--bogus'], 'serve', 'unknown option --bogus'],
    [['migrate', '--x'], 'migrate', 'unknown option --x'],
    [['migrate', 'now'], 'migrate', 'takes no argument "now"'],
    [['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--x'], 'tpp init', 'unknown option --x'],
    [['tpp', 'init', '--org'], 'tpp init', '--org needs a value'],
    [['tpp', 'call', 'GET', '/v1/sandbox/clock', '--x'], 'tpp call', 'unknown option --x'],
    [['tpp', 'consent', '--psu-id', '31129956715', '--x'], 'tpp consent', 'unknown option --x'],
    [['tpp', 'transactions', 'an-account', '--consent', 'c', '--x'], 'tpp transactions', 'unknown option --x'],
    [['psu', 'sca', 'http://127.0.0.1:9/sca/x', '--x'], 'psu sca', 'unknown option --x'],
  ] as const)('%j is a usage error naming the option, with that command usage alone (exit 2)', async (args, command, problem) => {
    const cwd = tempDir();
    const outcome = await runCli(args, { cwd, env: { XS2A_DATA_DIR: join(cwd, 'data') } });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(lines(outcome.stderr)[0]).toBe(`nordic-xs2a: ${command}: ${problem}`);
    expect(outcome.stderr).toContain(`Usage:\n  nordic-xs2a ${command} `);
    // Not the whole page: no other command's line.
    expect(lines(outcome.stderr).filter((line) => line.startsWith('  nordic-xs2a '))).toHaveLength(1);
    expect(readdirSync(cwd)).toEqual([]);
  });

  // A value the command cannot use is refused before anything runs, naming the option and what it takes.
  const NOT_A_SERVER = '--server takes an http(s) URL such as http://127.0.0.1:8080, not';
  it.each([
    [['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--server', 'notaurl'], 'tpp init', `${NOT_A_SERVER} "notaurl"`],
    [['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--server', ''], 'tpp init', `${NOT_A_SERVER} ""`],
    [['tpp', 'call', 'GET', '/v1/sandbox/clock', '--server', 'ftp://127.0.0.1'], 'tpp call', `${NOT_A_SERVER} "ftp://127.0.0.1"`],
    [['tpp', 'consent', '--psu-id', '31129956715', '--server', 'notaurl'], 'tpp consent', `${NOT_A_SERVER} "notaurl"`],
    [
      ['tpp', 'transactions', 'an-account', '--consent', 'c', '--server', '127.0.0.1:8080'],
      'tpp transactions',
      `${NOT_A_SERVER} "127.0.0.1:8080"`,
    ],
    [['psu', 'sca', 'http://127.0.0.1:9/sca/x', '--lang', 'de'], 'psu sca', '--lang takes nb or en, not "de"'],
    [['psu', 'sca', 'mailto:psu@example.com'], 'psu sca', 'psu sca needs the scaRedirect link (an absolute http(s) URL)'],
  ] as const)('%j is a usage error naming the option and what it takes (exit 2)', async (args, command, problem) => {
    const cwd = tempDir();
    const outcome = await runCli(args, { cwd, env: { XS2A_DATA_DIR: join(cwd, 'data') } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe(`nordic-xs2a: ${problem}`);
    expect(outcome.stderr).toContain(`Usage:\n  nordic-xs2a ${command} `);
    expect(readdirSync(cwd)).toEqual([]); // no key, no certificate, no sandbox CA
  });

  it('refuses an unknown tpp command with exit code 2', async () => {
    const outcome = await runCli(['tpp', 'register'], { cwd: tempDir() });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe('nordic-xs2a: unknown tpp command "register"');
  });
});

describe('migrate', () => {
  it('applies the foundation migration to a fresh SQLite file, then says it is up to date', async () => {
    const cwd = tempDir();
    const file = join(cwd, 'db', 'xs2a.db');
    const env = { DATABASE_URL: `sqlite:${file}` };
    const first = await runCli(['migrate'], { cwd, env });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(lines(first.stdout)).toEqual(MIGRATION_NAMES.map((name) => `applied: ${name}`));

    const sqlite = new SQLite(file, { readonly: true });
    try {
      const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
      expect(tables.map((table) => table.name)).toEqual(
        expect.arrayContaining(['tpp', 'tpp_contact', 'idempotency_record', 'audit_event']),
      );
    } finally {
      sqlite.close();
    }

    const second = await runCli(['migrate'], { cwd, env });
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(lines(second.stdout)).toEqual(['database is up to date']);
  });

  it('uses sqlite:./data/xs2a.db relative to the working directory by default', async () => {
    const cwd = tempDir();
    const outcome = await runCli(['migrate'], { cwd });
    expect(outcome.code).toBe(0);
    expect(existsSync(join(cwd, 'data', 'xs2a.db'))).toBe(true);
  });

  const postgresUrl = process.env['TEST_POSTGRES_URL'];
  it.skipIf(!postgresUrl)('applies the foundation migration on PostgreSQL, then says it is up to date', async () => {
    const schema = `cli_${Date.now().toString(36)}_${process.pid}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}`);
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { DATABASE_URL: url.toString() };
      const first = await runCli(['migrate'], { cwd: tempDir(), env });
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(lines(first.stdout)).toEqual(MIGRATION_NAMES.map((name) => `applied: ${name}`));
      const tables = await admin.query<{ table_name: string }>('select table_name from information_schema.tables where table_schema = $1', [
        schema,
      ]);
      expect(tables.rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(['tpp', 'tpp_contact', 'idempotency_record', 'audit_event']),
      );
      const second = await runCli(['migrate'], { cwd: tempDir(), env });
      expect(lines(second.stdout)).toEqual(['database is up to date']);
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});

describe('serve', () => {
  it('answers /health/ready, then stops with exit code 0 on SIGTERM', async () => {
    const cwd = tempDir();
    const server = await startServe({ cwd, env: { XS2A_DATA_DIR: join(cwd, 'data') } });
    try {
      const live = await fetch(`${server.url}/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      expect(server.stdout()).toContain(`listening on ${server.url}`);
      // Migrated at start, and the sandbox CA created in the data directory.
      expect(existsSync(join(cwd, 'data', 'xs2a.db'))).toBe(true);
      expect(existsSync(join(cwd, 'data', 'sandbox-ca', 'ca-certificate.pem'))).toBe(true);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
    await expect(fetch(`${server.url}/health/live`)).rejects.toThrow();
  });
});

describe('walk-through: serve, tpp init, tpp call', () => {
  let dir: string;
  let env: Env;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = tempDir();
    env = { XS2A_DATA_DIR: join(dir, 'data') };
    server = await startServe({ cwd: dir, env });
  });
  afterAll(async () => {
    if (server) {
      expect((await server.stop()).code).toBe(0);
    }
  });

  const call = (args: readonly string[]) => runCli(['tpp', 'call', ...args, '--server', server.url], { cwd: dir, env });

  it('issues credentials from the local sandbox CA that the server trusts, and stores and reads the contact address', async () => {
    const out = join(dir, 'tpp');
    const init = await runCli(
      ['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--name', 'Example TPP AS', '--roles', 'PSP_PI,PSP_AI', '--out', out],
      { cwd: dir, env },
    );
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(lines(init.stdout)[0]).toBe('TPP PSDNO-FSA-123456789 (PSP_PI, PSP_AI)');
    expect(init.stdout).toMatch(/keyId: +SN=[0-9A-F]+,CA=/);
    expect(statSync(join(out, 'qsealc-key.pem')).mode & 0o077).toBe(0);
    const certificate = new X509Certificate(readFileSync(join(out, 'qsealc.pem')));
    const ca = new X509Certificate(readFileSync(join(dir, 'data', 'sandbox-ca', 'ca-certificate.pem')));
    expect(certificate.checkIssued(ca) && certificate.verify(ca.publicKey)).toBe(true);

    const body = join(dir, 'contact.json');
    writeFileSync(body, JSON.stringify({ email: 'psd2@example-tpp.no' }));
    const put = await call(['PUT', '/v1/tpps/NO-FSA-123456789/contact-information', '--body', body, '--tpp', out]);
    expect(put.stderr).toBe('');
    expect(lines(put.stdout)[0]).toBe('HTTP 200');
    expect(put.stdout).toContain('psd2@example-tpp.no');
    expect(put.code).toBe(0);

    const get = await call(['GET', '/v1/tpps/NO-FSA-123456789/contact-information', '--tpp', out]);
    expect(lines(get.stdout)[0]).toBe('HTTP 200');
    expect(get.stdout).toMatch(/^x-request-id: [0-9a-f-]{36}$/m);
    const json = get.stdout.slice(get.stdout.indexOf('{'));
    expect(JSON.parse(json)).toMatchObject({ email: 'psd2@example-tpp.no' });
    expect(get.code).toBe(0);
  });

  it('issues working credentials from the running server with --server', async () => {
    const out = join(dir, 'remote-tpp');
    const init = await runCli(
      ['tpp', 'init', '--org', 'PSDNO-FSA-987654321', '--name', 'Remote TPP AS', '--roles', 'PSP_AI', '--out', out, '--server', server.url],
      {
        cwd: dir,
        env,
      },
    );
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(lines(init.stdout)[0]).toBe('TPP PSDNO-FSA-987654321 (PSP_AI)');

    const body = join(dir, 'remote-contact.json');
    writeFileSync(body, JSON.stringify({ email: 'ops@remote-tpp.no' }));
    const put = await call(['PUT', '/v1/tpps/NO-FSA-987654321/contact-information', '--body', body, '--tpp', out]);
    expect(lines(put.stdout)[0]).toBe('HTTP 200');
    expect(put.code).toBe(0);
    const get = await call(['GET', '/v1/tpps/PSDNO-FSA-987654321/contact-information', '--tpp', out]);
    expect(lines(get.stdout)[0]).toBe('HTTP 200');
    expect(get.stdout).toContain('ops@remote-tpp.no');
  });

  it('says what to do when --server has the id bound to another key, and rotates with --rotate-with', async () => {
    const first = join(dir, 'taken-tpp');
    const init = (out: string, extra: string[] = []) =>
      runCli(['tpp', 'init', '--org', 'PSDNO-FSA-987650001', '--roles', 'PSP_AI', '--out', out, '--server', server.url, ...extra], {
        cwd: dir,
        env,
      });
    expect((await init(first)).code).toBe(0);
    const taken = await init(join(dir, 'impostor-tpp'));
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('PSDNO-FSA-987650001 is already taken');
    expect(taken.stderr).toContain('--rotate-with DIR');
    expect(taken.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(existsSync(join(dir, 'impostor-tpp'))).toBe(false);

    const rotated = await init(join(dir, 'rotated-tpp'), ['--rotate-with', first]);
    expect(rotated.stderr).toBe('');
    expect(rotated.code).toBe(0);
    const get = await call(['GET', '/v1/sandbox/customers', '--tpp', join(dir, 'rotated-tpp')]);
    expect(lines(get.stdout)[0]).toBe('HTTP 200');
  });

  it("prints the error answer and exits 1 when the server refuses (another TPP's address)", async () => {
    const outcome = await call(['GET', '/v1/tpps/NO-FSA-555555555/contact-information', '--tpp', join(dir, 'tpp')]);
    expect(lines(outcome.stdout)[0]).toBe('HTTP 404');
    expect(outcome.stdout).toContain('RESOURCE_UNKNOWN');
    expect(outcome.code).toBe(1);
  });

  it('creates a payment, plays the PSU with psu sca (approve), and the status is ACTC; reject gives RJCT', async () => {
    const tpp = join(dir, 'tpp');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '{}');
    expect(lines((await call(['POST', '/v1/sandbox/initialize', '--body', empty, '--tpp', tpp])).stdout)[0]).toBe('HTTP 200');
    const create = async (amount: string) => {
      const body = join(dir, `ndct-${amount}.json`);
      writeFileSync(
        body,
        JSON.stringify({
          debtorAccount: { bban: '12341100028' },
          instructedAmount: { currency: 'NOK', amount },
          creditorAccount: { bban: '86011117947' },
          creditorName: 'Kraftselskapet AS',
        }),
      );
      const outcome = await call([
        'POST',
        '/v1/payments/norwegian-domestic-credit-transfers',
        '--body',
        body,
        '--tpp',
        tpp,
        '--header',
        'PSU-ID: 13039319955',
        '--header',
        'TPP-Redirect-URI: http://localhost:3000/done',
        '--header',
        'TPP-Nok-Redirect-URI: http://localhost:3000/failed',
      ]);
      expect(lines(outcome.stdout)[0]).toBe('HTTP 201');
      return JSON.parse(outcome.stdout.slice(outcome.stdout.indexOf('{'))) as { _links: Record<string, { href: string }> };
    };
    const statusOf = async (payment: { _links: Record<string, { href: string }> }) => {
      const outcome = await call(['GET', new URL(payment._links['status']?.href ?? '').pathname, '--tpp', tpp]);
      return (JSON.parse(outcome.stdout.slice(outcome.stdout.indexOf('{'))) as { transactionStatus: string }).transactionStatus;
    };

    const approved = await create('250.00');
    const approve = await runCli(['psu', 'sca', approved._links['scaRedirect']?.href ?? ''], { cwd: dir, env });
    expect(approve.stderr).toBe('');
    expect(lines(approve.stdout)).toEqual(['steps: identify → code → decision', 'redirected to: http://localhost:3000/done']);
    expect(approve.code).toBe(0);
    expect(await statusOf(approved)).toBe('ACTC');

    const rejected = await create('251.00');
    const reject = await runCli(['psu', 'sca', rejected._links['scaRedirect']?.href ?? '', '--reject'], { cwd: dir, env });
    expect(lines(reject.stdout)[1]).toBe('redirected to: http://localhost:3000/failed');
    expect(await statusOf(rejected)).toBe('RJCT');
  }, 60_000);

  it('refuses psu sca without an absolute link with exit code 2', async () => {
    const outcome = await runCli(['psu', 'sca', 'not-a-link'], { cwd: dir, env });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe('nordic-xs2a: psu sca needs the scaRedirect link (an absolute http(s) URL)');
  });

  it('refuses a bad --header with exit code 2', async () => {
    const outcome = await call(['GET', '/v1/tpps/NO-FSA-123456789/contact-information', '--tpp', join(dir, 'tpp'), '--header', 'no colon']);
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe('nordic-xs2a: --header "no colon" must be "Name: value"');
  });
});

describe('tpp init and tpp call refuse bad arguments with exit code 2', () => {
  it.each([
    ['a bad --org', ['--org', 'NO-FSA-123456789'], /--org must be an organizationIdentifier such as PSDNO-FSA-123456789/],
    ['a missing --org', [], /--org must be an organizationIdentifier/],
    ['--org without a value', ['--org'], /--org/],
    [
      'an unknown role',
      ['--org', 'PSDNO-FSA-123456789', '--roles', 'PSP_PI,PSP_XX'],
      /--roles takes PSP_AS, PSP_PI, PSP_AI, PSP_IC .*"PSP_XX" is not one/,
    ],
    ['an empty role', ['--org', 'PSDNO-FSA-123456789', '--roles', 'PSP_PI,'], /--roles takes/],
    ['an unknown option', ['--org', 'PSDNO-FSA-123456789', '--organisation', 'x'], /--organisation/],
  ])('tpp init with %s', async (_case, args, message) => {
    const cwd = tempDir();
    const out = join(cwd, 'out');
    const outcome = await runCli(['tpp', 'init', ...args, '--out', out], { cwd, env: { XS2A_DATA_DIR: join(cwd, 'data') } });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toMatch(/^nordic-xs2a: /);
    expect(lines(outcome.stderr)[0]).toMatch(message);
    expect(outcome.stderr).toContain('Usage:');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });

  it.each([
    ['no method and path', []],
    ['a path without a leading slash', ['GET', 'v1/tpps']],
  ])('tpp call with %s', async (_case, args) => {
    const outcome = await runCli(['tpp', 'call', ...args], { cwd: tempDir() });
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe(
      'nordic-xs2a: tpp call needs METHOD and a PATH starting with / (or an href from _links: http://host:port/v1/…)',
    );
  });

  it.each([
    ['an empty directory', 'empty'],
    ['a directory that does not exist', 'nonexistent'],
  ])('tpp call, consent and transactions with %s as --tpp say to run tpp init, not ENOENT', async (_case, name) => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'empty'));
    const dir = join(cwd, name);
    const expected = `nordic-xs2a: --tpp ${dir} holds no TPP credentials (no qsealc-key.pem, qsealc.pem): run nordic-xs2a tpp init --out ${dir} first, or give --tpp the directory tpp init wrote`;
    const server = ['--server', 'http://127.0.0.1:9', '--tpp', dir];
    for (const args of [
      ['tpp', 'call', 'GET', '/v1/x', ...server],
      ['tpp', 'consent', '--psu-id', '31129956715', ...server],
      ['tpp', 'transactions', 'an-account', '--consent', 'c', ...server],
    ]) {
      const outcome = await runCli(args, { cwd });
      expect(outcome.code, args.join(' ')).toBe(1);
      expect(lines(outcome.stderr)).toEqual([expected]);
    }
  });

  it('tpp init --rotate-with a directory without credentials says which directory it needs', async () => {
    const cwd = tempDir();
    const dir = join(cwd, 'old');
    const outcome = await runCli(
      ['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--out', join(cwd, 'new'), '--server', 'http://127.0.0.1:9', '--rotate-with', dir],
      { cwd },
    );
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stderr)).toEqual([
      `nordic-xs2a: --rotate-with ${dir} holds no TPP credentials (no qsealc-key.pem, qsealc.pem): give --rotate-with the directory tpp init wrote the current credentials to`,
    ]);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
