/**
 * The built command line, `node dist/bundle/main.js` (the package's `nordic-xs2a`), as a child process of a test, with an
 * explicit environment (never the developer's): `serve` started, waited for until it prints its
 * "listening" line, and stopped or killed by its own handle; other commands run to their end.
 * Used by the process-level tests of test/execution (crash and concurrency of batch runs) and by
 * test/cli.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { TppClient } from '../../src/client/tpp-client.js';
import type { SigningCredentials } from '../../src/client/request-signer.js';
import type { SandboxCa } from '../../src/security/certificates/sandbox-ca.js';
import { BUNDLE_DIR, buildDist } from '../../scripts/build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, BUNDLE_DIR, 'main.js');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ as `npm run build` does (scripts/build.ts) when the CLI is missing or older than its
 * sources. The process and docs tiers call it once before their files run (build.setup.ts); a
 * file calling it again finds dist/ current.
 */
export function ensureBuilt(): void {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestChange(join(ROOT, 'src'))) return;
  try {
    buildDist(ROOT);
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed:\n${String(stdout ?? '')}${String(stderr ?? '')}`);
  }
}

/** A TCP port nothing listens on right now (the kernel's choice for port 0). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

/** Polls `probe` every `intervalMs` until it answers something other than undefined. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A JSON log line of the server (pino). */
export interface LogLine {
  readonly msg?: string;
  readonly level?: number;
  readonly pid?: number;
  readonly role?: string;
  readonly [field: string]: unknown;
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly pid: number;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** The JSON lines written to stdout so far. */
  readonly logs: () => LogLine[];
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every server this module started that is still running; for afterAll. */
export function killStartedServers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Starts `node dist/bundle/main.js serve [args]` with exactly `env` (plus PATH, HOST, PORT) and
 * waits for its "listening" line.
 */
export async function startServerProcess(options: {
  readonly env: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
  /** The working directory (else the test process's). */
  readonly cwd?: string;
  /** Options of node itself (e.g. --cpu-prof), before the script. */
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, 'serve', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  let gone = false;
  void exited.then(() => (gone = true));
  await until(
    'the listening line',
    () => {
      if (gone) throw new Error(`the server exited before listening:\n${stdout}${stderr}`);
      return stdout.includes(' listening on ') ? true : undefined;
    },
    options.timeoutMs ?? 30_000,
  );
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    logs,
    exited,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** How a command of the CLI ended. */
export interface CliOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/bundle/main.js [args]` to its end in `cwd`, with exactly `env` (plus PATH). */
export function runCli(
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string>>; readonly timeoutMs?: number },
): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd, env: { PATH: process.env['PATH'] ?? '', ...options.env }, timeout: options.timeoutMs ?? 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Credentials of a TPP from the sandbox CA the server trusts (the one in its XS2A_DATA_DIR). */
export async function sandboxTppCredentials(ca: SandboxCa, organizationIdentifier: string): Promise<SigningCredentials> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issued = await ca.issueQsealc({
    organizationIdentifier,
    name: `${organizationIdentifier} AS`,
    roles: ['PSP_PI', 'PSP_AI'],
    publicKey,
  });
  return credentialsFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), issued.certificatePem);
}

/** A signed client of one server process. */
export function clientOf(server: Pick<ServerProcess, 'url'>, credentials: SigningCredentials): TppClient {
  return new TppClient(server.url, credentials);
}
