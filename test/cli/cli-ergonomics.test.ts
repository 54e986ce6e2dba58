/**
 * The command line as a person new to it meets it (`node dist/bundle/main.js`, in a temporary
 * directory, against a started sandbox):
 * - `--help` on every command and subcommand prints that command's usage and exits 0, running nothing;
 * - `tpp call` takes a link exactly as `_links` prints it (absolute) as well as a path, and
 *   `--print MEMBER` prints one member of the answer (for shell scripts);
 * - an error answer exits 1 and prints a line on stderr per tppMessage of the error body: its code,
 *   `at PATH` when it names where the request was wrong, and its text, never a stack; `--expect
 *   STATUS` makes an expected error answer exit 0;
 * - `psu sca` on a link that asks for the PSU's id, without `--psu-id`, is a one-line usage error (exit 2).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, killStartedServers, runCli, startServerProcess, type ServerProcess } from '../support/server-process.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-cli-ergonomics-'));
  tempDirs.push(dir);
  return dir;
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** No stack trace: no "    at f (file:line)" lines. */
const STACK_LINE = /^\s+at /m;

beforeAll(() => ensureBuilt(), 180_000);

afterAll(() => {
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('--help on every command', () => {
  it.each([
    [['serve', '--help'], 'nordic-xs2a serve [--workers N]'],
    [['serve', '--workers', '2', '-h'], 'nordic-xs2a serve [--workers N]'],
    [['migrate', '--help'], 'nordic-xs2a migrate '],
    [['tpp', '--help'], 'nordic-xs2a tpp call METHOD'],
    [['tpp', 'init', '--help'], 'nordic-xs2a tpp init --org'],
    [['tpp', 'call', '--help'], 'nordic-xs2a tpp call METHOD PATH|HREF'],
    [['tpp', 'call', 'GET', '/v1/x', '--help'], '--print MEMBER'],
    [['tpp', 'consent', '--help'], 'nordic-xs2a tpp consent --psu-id ID'],
    [['tpp', 'transactions', '--help'], 'nordic-xs2a tpp transactions ACCOUNT-ID --consent ID'],
    [['psu', '--help'], 'nordic-xs2a psu sca URL'],
    [['psu', 'sca', '--help'], 'nordic-xs2a psu sca URL'],
  ])('%j prints its usage and exits 0', async (args, usage) => {
    const cwd = tempDir();
    const outcome = await runCli(args, { cwd });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(outcome.stdout).toContain('Usage:');
    expect(outcome.stdout).toContain(usage);
    // Only the command asked about: `serve --help` does not list `tpp call`.
    if (args[0] === 'serve') expect(outcome.stdout).not.toContain('tpp call');
    // Nothing ran: no database, no sandbox CA, no credentials.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('tpp and psu without a subcommand exit 2 naming what is missing', async () => {
    const tpp = await runCli(['tpp'], { cwd: tempDir() });
    expect(tpp.code).toBe(2);
    expect(lines(tpp.stderr)[0]).toBe('nordic-xs2a: tpp needs a command: init, call, consent or transactions');
    const psu = await runCli(['psu'], { cwd: tempDir() });
    expect(psu.code).toBe(2);
    expect(lines(psu.stderr)[0]).toBe('nordic-xs2a: psu needs a command: sca');
  });

  it('tpp consent without --psu-id and tpp transactions without an account or consent exit 2 in one line', async () => {
    const consent = await runCli(['tpp', 'consent', '--bban', '12341100028'], { cwd: tempDir() });
    expect(consent.code).toBe(2);
    expect(lines(consent.stderr)).toEqual(['nordic-xs2a: tpp consent needs --psu-id: the PSU who approves the consent']);
    const transactions = await runCli(['tpp', 'transactions', 'some-account'], { cwd: tempDir() });
    expect(transactions.code).toBe(2);
    expect(lines(transactions.stderr)).toEqual([
      'nordic-xs2a: tpp transactions needs ACCOUNT-ID (a resourceId of GET /v1/accounts) and --consent ID',
    ]);
  });
});

describe('against a running sandbox', () => {
  let dir: string;
  let server: ServerProcess;
  const call = (args: readonly string[]) => runCli(['tpp', 'call', ...args], { cwd: dir, env: { XS2A_PUBLIC_URL: server.url } });

  beforeAll(async () => {
    dir = tempDir();
    server = await startServerProcess({ cwd: dir, env: { XS2A_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' } });
    const init = await runCli(['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--out', 'tpp', '--server', server.url], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    writeFileSync(join(dir, 'empty.json'), '{}');
    expect((await call(['POST', '/v1/sandbox/initialize', '--body', 'empty.json'])).code).toBe(0);
    writeFileSync(
      join(dir, 'ndct.json'),
      JSON.stringify({
        debtorAccount: { bban: '12341100028' },
        instructedAmount: { currency: 'NOK', amount: '42.00' },
        creditorAccount: { bban: '86011117947' },
        creditorName: 'Kraftselskapet AS',
      }),
    );
    writeFileSync(
      join(dir, 'corp.json'),
      JSON.stringify({
        debtorAccount: { bban: '12344100010' },
        instructedAmount: { currency: 'NOK', amount: '1200.00' },
        creditorAccount: { bban: '86011117947' },
        creditorName: 'Kraftselskapet AS',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('tpp call follows an absolute href from _links, and a relative one, and --print prints one member', async () => {
    const created = await call([
      'POST',
      '/v1/payments/norwegian-domestic-credit-transfers',
      '--body',
      'ndct.json',
      '--header',
      'PSU-ID: 13039319955',
      '--print',
      '_links.status.href',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const href = created.stdout.trim();
    expect(href).toMatch(new RegExp(`^${server.url}/v1/payments/norwegian-domestic-credit-transfers/[^/]+/status$`));

    // An href names its server: no --server, and a configured one elsewhere does not matter.
    const absolute = await runCli(['tpp', 'call', 'GET', href], { cwd: dir, env: { XS2A_PUBLIC_URL: 'http://127.0.0.1:9' } });
    expect(absolute.stderr).toBe('');
    expect(lines(absolute.stdout)[0]).toBe('HTTP 200');
    expect(absolute.stdout).toContain('"transactionStatus": "RCVD"');

    const relative = await call(['GET', new URL(href).pathname, '--print', 'transactionStatus']);
    expect(relative).toMatchObject({ code: 0, stdout: 'RCVD\n', stderr: '' });

    const members = await call(['GET', href.replace(/\/status$/, ''), '--print', 'debtorAccount', '--print', 'instructedAmount.amount']);
    expect(members.code).toBe(0);
    expect(lines(members.stdout)).toEqual(['{"bban":"12341100028"}', '42.00']);
  });

  it('an error answer exits 1 with one line on stderr: the status, the code and the message of the error body', async () => {
    const outcome = await call(['GET', '/v1/payments/norwegian-domestic-credit-transfers/no-such-payment/status']);
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stdout)[0]).toBe('HTTP 404'); // the whole answer stays on stdout
    expect(lines(outcome.stderr)).toEqual([expect.stringMatching(/^nordic-xs2a: HTTP 404 RESOURCE_UNKNOWN at paymentId: \S.+$/)]);
    expect(outcome.stderr).not.toMatch(STACK_LINE);
  });

  it("an error answer's line names where the request was wrong: the tppMessage's path", async () => {
    const consent = await runCli(['tpp', 'consent', '--psu-id', '123', '--bban', '12341100028'], {
      cwd: dir,
      env: { XS2A_PUBLIC_URL: server.url },
    });
    expect(consent.code).toBe(1);
    expect(lines(consent.stderr)).toEqual([
      'nordic-xs2a: HTTP 400 FORMAT_ERROR at PSU-ID: The request is not well formed: must be 11 digits, got 3',
    ]);
    writeFileSync(
      join(dir, 'bad-iban.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'ndct.json'), 'utf8')), creditorAccount: { bban: '1234' } }),
    );
    const payment = await call([
      'POST',
      '/v1/payments/norwegian-domestic-credit-transfers',
      '--body',
      'bad-iban.json',
      '--header',
      'PSU-ID: 13039319955',
    ]);
    expect(payment.code).toBe(1);
    expect(lines(payment.stderr)).toEqual([expect.stringMatching(/^nordic-xs2a: HTTP 400 FORMAT_ERROR at creditorAccount\.bban: \S.+$/)]);
  });

  it('--print of a member the answer lacks is an error naming it', async () => {
    const outcome = await call(['GET', '/v1/sandbox/clock', '--print', 'noSuchMember']);
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stderr)).toEqual(['nordic-xs2a: the answer (HTTP 200) has no member noSuchMember']);
  });

  it('--expect 401 exits 0 on the PSU pre-step 401, and psu sca on its link needs --psu-id (one line, exit 2)', async () => {
    const pre = await call([
      'POST',
      '/v1/payments/norwegian-domestic-credit-transfers',
      '--body',
      'corp.json',
      '--header',
      'PSU-Corporate-ID: 998877660',
      '--expect',
      '401',
      '--print',
      '_links.scaRedirect.href',
    ]);
    expect(pre.stderr).toBe('');
    expect(pre.code).toBe(0);
    const link = pre.stdout.trim();
    expect(link).toMatch(new RegExp(`^${server.url}/sca/`));

    const withoutId = await runCli(['psu', 'sca', link], { cwd: dir });
    expect(withoutId.code).toBe(2);
    expect(lines(withoutId.stderr)).toEqual([
      "nordic-xs2a: psu sca needs --psu-id ID: the link asks for the PSU's national identity number (the TPP sent no PSU-ID)",
    ]);

    const withId = await runCli(['psu', 'sca', link, '--psu-id', '12085592767'], { cwd: dir });
    expect(withId.stderr).toBe('');
    expect(withId.stdout).toContain('ended on a page (HTTP 200): You are logged in.');
    expect(withId.code).toBe(0);
    expect(withId.stdout).toMatch(/^login code: [A-Za-z0-9_-]{43}$/m);
  });

  it('--expect with another status than the answer exits 1', async () => {
    const outcome = await call(['GET', '/v1/sandbox/clock', '--expect', '401']);
    expect(outcome.code).toBe(1);
    expect(lines(outcome.stderr)).toEqual(['nordic-xs2a: HTTP 200 (expected 401)']);
  });

  it('refuses --expect that is not a status with exit code 2', async () => {
    const outcome = await call(['GET', '/v1/sandbox/clock', '--expect', 'unauthorised']);
    expect(outcome.code).toBe(2);
    expect(lines(outcome.stderr)[0]).toBe('nordic-xs2a: --expect takes an HTTP status such as 401, not "unauthorised"');
  });
});

it('a server that does not answer is one line saying so, not a stack', async () => {
  const cwd = tempDir();
  const init = await runCli(['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--out', 'tpp'], {
    cwd,
    env: { XS2A_DATA_DIR: join(cwd, 'data') },
  });
  expect(init.code).toBe(0);
  const outcome = await runCli(['tpp', 'call', 'GET', 'http://127.0.0.1:9/v1/sandbox/clock'], { cwd });
  expect(outcome.code).toBe(1);
  expect(lines(outcome.stderr)).toEqual([
    expect.stringMatching(/^nordic-xs2a: cannot reach http:\/\/127\.0\.0\.1:9: .*\(is the server running\?\)$/),
  ]);
});
