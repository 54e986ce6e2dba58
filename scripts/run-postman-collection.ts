/**
 * Runs a bank's public Postman collection (Berlin Group NextGenPSD2 requests, unsigned) against
 * a fresh local server, through the signing proxy (scripts/signing-proxy.ts), with newman.
 *
 *   npm run postman -- --collection PATH [--keep] [--seeded-accounts]
 *
 * What it does: builds dist/ when it is missing or older than src/; starts `node dist/bundle/main.js
 * serve` on a throwaway SQLite database in a temp directory; issues a QSealC from that server's
 * sandbox CA; seeds the TPP's sandbox (`POST /v1/sandbox/initialize`, signed); starts the signing
 * proxy; runs the collection with newman (pinned, fetched by npx, not a dependency) with HOST
 * pointing at the proxy and the PSU variables set to seeded customers; then reads newman's JSON
 * report and prints one line per request.
 *
 * It exits 1 when a payment-initiation or signing-basket request got a 5xx, a 404 for a route the
 * server does not have (checked against its /openapi.json, since an unknown route and an unknown
 * id share the wire code RESOURCE_UNKNOWN), or a 405 SERVICE_INVALID (no such operation); and when
 * any request got a 5xx or a 401 other than a consent's refusal (signing problems), or a 404 for
 * an account information route the server does not have. The AIS folder is reported on its own. The collection's own pm.test
 * assertions were written against another bank's sandbox and are printed for information only.
 *
 * The collection is read from where it is; nothing of it is copied into the repository.
 * `--seeded-accounts` runs a copy (in the temp directory) whose bodies name seeded accounts
 * instead of the collection's debtor and creditor BBANs, and coming dates instead of its past
 * ones, so initiations get past validation.
 * `--keep` keeps the temp directory (server log, newman report, TPP credentials for the proxy).
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TppClient } from '../src/client/tpp-client.js';
import { CREDENTIAL_FILES, readCredentials } from '../src/client/tpp-credentials.js';
import { SandboxCa } from '../src/security/certificates/sandbox-ca.js';
import { ensureBuilt, startServerProcess, type LogLine, type ServerProcess } from '../test/support/server-process.js';
import { startSigningProxy, type ProxyExchange, type SigningProxy } from './signing-proxy.js';

const NEWMAN = 'newman@6.2.2';
const TPP_ORG = 'PSDNO-FSA-POSTMAN';

/**
 * The collection's variables, set to what the seeded sandbox has (src/modules/sandbox/sandbox-seed.ts):
 * Ola Nordmann (13039319955) is the private PSU; Per Olsen (12085592767) registers payments for
 * Nordlys Bygg AS (organisation number 998877660), so he is the corporate PSU.
 */
const SEEDED_VARIABLES: Readonly<Record<string, string>> = {
  ConsentClientUserId: '13039319955',
  ClientUserIdOrFnr: '13039319955',
  PaymentServiceUserId1: '13039319955',
  PaymentServiceUserId2: '12085592767',
  CorporateId: '998877660',
};

/** For --seeded-accounts: Ola's current account, Nordlys Bygg's operating account, Per's current account. */
const SEEDED_ACCOUNTS = { privateDebtor: '12341100028', corporateDebtor: '12344100010', creditor: '12342100013' } as const;

// ---------------------------------------------------------------------------------------------
// newman's JSON report (the parts read here)

interface KeyValue {
  readonly key: string;
  readonly value: string;
  readonly disabled?: boolean;
}

interface ReportItem {
  readonly id: string;
  readonly name: string;
  readonly item?: readonly ReportItem[];
}

interface ReportError {
  readonly name?: string;
  readonly message?: string;
}

interface Execution {
  readonly cursor?: { readonly ref?: string };
  readonly item: { readonly id: string; readonly name: string };
  readonly request?: {
    readonly method?: string;
    readonly url?: { readonly path?: readonly string[]; readonly query?: readonly KeyValue[] };
    readonly header?: readonly KeyValue[];
  };
  readonly response?: {
    readonly code: number;
    readonly stream?: { readonly type?: string; readonly data?: readonly number[] };
  };
  readonly requestError?: ReportError;
  readonly assertions?: readonly { readonly assertion: string; readonly skipped?: boolean; readonly error?: ReportError }[];
}

interface Failure {
  readonly error?: ReportError & { readonly checksum?: string };
  readonly at?: string;
  readonly source?: { readonly id?: string; readonly name?: string };
  readonly cursor?: { readonly ref?: string };
}

interface NewmanReport {
  readonly collection: { readonly item: readonly ReportItem[] };
  readonly run: { readonly executions: readonly Execution[]; readonly failures?: readonly Failure[] };
}

// ---------------------------------------------------------------------------------------------
// Routes of the server, from its OpenAPI document

interface OpenApi {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

interface Route {
  readonly segments: readonly string[];
  readonly methods: ReadonlySet<string>;
}

function routesOf(openapi: OpenApi): Route[] {
  return Object.entries(openapi.paths).map(([path, operations]) => ({
    segments: path.split('/').filter((segment) => segment !== ''),
    methods: new Set(Object.keys(operations).map((method) => method.toUpperCase())),
  }));
}

/** Whether a path (query and trailing slash ignored, as the server's router does) names a route, and for which methods. */
function routeOf(routes: readonly Route[], path: string): Route | undefined {
  const segments = (path.split('?')[0] ?? '').split('/').filter((segment) => segment !== '');
  return routes.find(
    (route) =>
      route.segments.length === segments.length &&
      route.segments.every((segment, i) => (segment.startsWith('{') && segment.endsWith('}')) || segment === segments[i]),
  );
}

// ---------------------------------------------------------------------------------------------
// What happened to each request

type Group = 'PIS' | 'AIS' | 'OTHER';

/**
 * A 401 with one of these is the consent's answer (unknown, not valid, terminated, expired), not a
 * refused signature: the collection reads accounts after deleting its consent, which it never
 * had approved, so its reads are refused for that.
 */
const CONSENT_REFUSALS: ReadonlySet<string> = new Set(['CONSENT_UNKNOWN', 'CONSENT_INVALID', 'CONSENT_EXPIRED']);

interface Outcome {
  readonly folder: string;
  readonly group: Group;
  readonly basket: boolean;
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly text: string | undefined;
  readonly requestId: string | undefined;
  readonly signedHeaders: readonly string[] | undefined;
  readonly requestError: string | undefined;
  readonly routeKnown: boolean;
  readonly assertions: readonly { readonly name: string; readonly passed: boolean; readonly message?: string }[];
  readonly scriptErrors: readonly string[];
  readonly flags: readonly string[];
}

function foldersById(
  items: readonly ReportItem[],
  parents: readonly string[] = [],
  into = new Map<string, string[]>(),
): Map<string, string[]> {
  for (const item of items) {
    if (item.item) foldersById(item.item, [...parents, item.name], into);
    else into.set(item.id, [...parents]);
  }
  return into;
}

function bodyOf(execution: Execution): unknown {
  const data = execution.response?.stream?.data;
  if (!data || data.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function errorOf(body: unknown): { code?: string; text?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as { code?: unknown; tppMessages?: unknown };
  const messages: readonly unknown[] = Array.isArray(record.tppMessages) ? (record.tppMessages as unknown[]) : [];
  const first = messages[0] as { code?: unknown; text?: unknown } | undefined;
  const code = typeof first?.code === 'string' ? first.code : typeof record.code === 'string' ? record.code : undefined;
  return { ...(code === undefined ? {} : { code }), ...(typeof first?.text === 'string' ? { text: first.text } : {}) };
}

function outcomesOf(report: NewmanReport, routes: readonly Route[], exchanges: ReadonlyMap<string, ProxyExchange>): Outcome[] {
  const folders = foldersById(report.collection.item);
  const scriptErrors = new Map<string, string[]>();
  for (const failure of report.run.failures ?? []) {
    if (failure.error?.name === 'AssertionError' || !failure.cursor?.ref) continue;
    const list = scriptErrors.get(failure.cursor.ref) ?? [];
    list.push(`${failure.at ?? 'script'}: ${failure.error?.name ?? 'Error'}: ${failure.error?.message ?? ''}`);
    scriptErrors.set(failure.cursor.ref, list);
  }
  return report.run.executions.map((execution) => {
    const path = folders.get(execution.item.id) ?? [];
    const group: Group = path[0] === 'AIS' ? 'AIS' : path[0] === 'PIS' ? 'PIS' : 'OTHER';
    const requestId = execution.request?.header?.find((header) => header.key.toLowerCase() === 'x-request-id' && !header.disabled)?.value;
    const exchange = requestId === undefined ? undefined : exchanges.get(requestId.toLowerCase());
    const url = execution.request?.url;
    const query = (url?.query ?? []).filter((entry) => !entry.disabled).map((entry) => `${entry.key}=${entry.value}`);
    const requestPath = exchange?.path ?? `/${(url?.path ?? []).join('/')}${query.length > 0 ? `?${query.join('&')}` : ''}`;
    const method = execution.request?.method ?? exchange?.method ?? '?';
    const status = execution.response?.code;
    const { code, text } = errorOf(bodyOf(execution));
    const route = routeOf(routes, requestPath);
    const basket = path.some((name) => /signing.?basket/i.test(name)) || requestPath.startsWith('/v1/signing-baskets');
    const flags: string[] = [];
    if (status === undefined) {
      flags.push(`no answer (${execution.requestError?.message ?? 'request error'})`);
    } else if (status >= 500) {
      flags.push('server error');
    } else if (status === 401 && !CONSENT_REFUSALS.has(code ?? '')) {
      flags.push('401: signature or identification refused');
    } else if (status === 404 && route === undefined) {
      flags.push('404 for a route the server does not have');
    } else if (group !== 'AIS' && status === 405 && code === 'SERVICE_INVALID') {
      flags.push(`405: no ${method} at this path`);
    }
    return {
      folder: path.slice(1).join(' / ') || path.join(' / '),
      group,
      basket,
      name: execution.item.name,
      method,
      path: requestPath,
      status,
      code,
      text,
      requestId,
      signedHeaders: exchange?.signedHeaders,
      requestError: execution.requestError?.message,
      routeKnown: route !== undefined,
      assertions: (execution.assertions ?? [])
        .filter((assertion) => !assertion.skipped)
        .map((assertion) => ({
          name: assertion.assertion,
          passed: assertion.error === undefined,
          ...(assertion.error?.message ? { message: assertion.error.message } : {}),
        })),
      scriptErrors: scriptErrors.get(execution.cursor?.ref ?? '') ?? [],
      flags,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Printing

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function line(outcome: Outcome): string {
  const status = outcome.status === undefined ? '---' : String(outcome.status);
  const code = outcome.code ?? '';
  const kind =
    outcome.status === 404 && outcome.code === 'RESOURCE_UNKNOWN' ? (outcome.routeKnown ? ' (unknown id)' : ' (no such route)') : '';
  const flag = outcome.flags.length > 0 ? `   <-- FLAGGED: ${outcome.flags.join('; ')}` : '';
  return `  ${pad(`${outcome.folder} / ${outcome.name}`, 62)} ${pad(outcome.method, 6)} ${pad(outcome.path, 118)} ${status} ${code}${kind}${flag}`;
}

function countBy<T>(values: readonly T[], key: (value: T) => string): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
  return [...counts.entries()].map(([name, count]) => `${count} × ${name}`).join(', ');
}

function serverLogFor(server: ServerProcess, requestId: string | undefined): string[] {
  if (requestId === undefined) return [];
  const logs = server.logs();
  const reqIds = new Set(logs.filter((entry) => entry['requestId'] === requestId.toLowerCase()).map((entry) => entry['reqId']));
  return logs
    .filter((entry: LogLine) => reqIds.has(entry['reqId']) && (entry.level ?? 0) >= 40)
    .map((entry) => {
      const err = entry['err'] as { type?: string; message?: string; stack?: string } | undefined;
      return `${entry.msg ?? ''}${err ? `: ${err.type ?? 'Error'}: ${err.message ?? ''}\n${err.stack ?? ''}` : ''}`;
    });
}

function print(outcomes: readonly Outcome[], server: ServerProcess): number {
  const out = (text = '') => process.stdout.write(`${text}\n`);
  const pis = outcomes.filter((outcome) => outcome.group !== 'AIS');
  const ais = outcomes.filter((outcome) => outcome.group === 'AIS');

  out('\nPayment initiation and signing baskets');
  for (const outcome of pis) out(line(outcome));
  out('\nAccount information (a 401 CONSENT_* is the answer of the consent)');
  for (const outcome of ais) out(line(outcome));
  out(
    `  ${ais.length} requests: ${countBy(ais, (o) => `${o.status ?? 'no answer'}${o.code ? ` ${o.code}` : ''}${o.status === 404 ? (o.routeKnown ? ' (unknown id)' : ' (no such route)') : ''}`) || 'none'}`,
  );

  const assertions = outcomes.flatMap((outcome) => outcome.assertions.map((assertion) => ({ outcome, assertion })));
  out(`\nThe collection's own pm.test assertions (written against another bank's sandbox; informational)`);
  for (const { outcome, assertion } of assertions.filter(({ outcome }) => outcome.group !== 'AIS')) {
    out(
      `  ${assertion.passed ? 'pass' : 'FAIL'}  ${outcome.folder} / ${outcome.name}: ${assertion.name}${assertion.passed ? '' : ` (${assertion.message ?? ''})`}`,
    );
  }
  const aisAssertions = assertions.filter(({ outcome }) => outcome.group === 'AIS');
  out(
    `  AIS: ${aisAssertions.filter(({ assertion }) => assertion.passed).length} passed, ${aisAssertions.filter(({ assertion }) => !assertion.passed).length} failed`,
  );
  const scriptErrors = pis.filter((outcome) => outcome.scriptErrors.length > 0);
  if (scriptErrors.length > 0) {
    out(`\nScript errors in the collection's own scripts (informational; PIS and baskets)`);
    for (const outcome of scriptErrors) out(`  ${outcome.folder} / ${outcome.name}: ${outcome.scriptErrors.join(' | ')}`);
  }

  const flagged = outcomes.filter((outcome) => outcome.flags.length > 0);
  out('\nSummary');
  out(
    `  requests:        ${outcomes.length} (payment initiation and baskets ${pis.length}, of which baskets ${pis.filter((o) => o.basket).length}; account information ${ais.length})`,
  );
  out(`  PIS statuses:    ${countBy(pis, (o) => `${o.status ?? 'no answer'}${o.code ? ` ${o.code}` : ''}`)}`);
  out(`  AIS statuses:    ${countBy(ais, (o) => String(o.status ?? 'no answer')) || 'none'}`);
  out(
    `  pm.test:         ${assertions.filter(({ assertion }) => assertion.passed).length} passed, ${assertions.filter(({ assertion }) => !assertion.passed).length} failed (informational)`,
  );
  out(`  flagged:         ${flagged.length}`);
  for (const outcome of flagged) {
    out(
      `    ${outcome.folder} / ${outcome.name}: ${outcome.method} ${outcome.path} -> ${outcome.status ?? 'no answer'} ${outcome.code ?? ''}`,
    );
    out(`      ${outcome.flags.join('; ')}${outcome.text ? ` — "${outcome.text}"` : ''}`);
    out(`      X-Request-ID ${outcome.requestId ?? '?'}, signed headers: ${(outcome.signedHeaders ?? []).join(' ') || '?'}`);
    for (const entry of serverLogFor(server, outcome.requestId)) {
      out(`      server log: ${entry.split('\n').slice(0, 6).join('\n        ')}`);
    }
  }
  return flagged.length > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Running

/** Writes a QSealC from the server's sandbox CA and its key where `tpp init --out DIR` would. */
async function issueCredentials(dataDir: string, tppDir: string): Promise<void> {
  const ca = await SandboxCa.open(dataDir);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issued = await ca.issueQsealc({
    organizationIdentifier: TPP_ORG,
    name: 'Postman collection run',
    roles: ['PSP_PI', 'PSP_AI'],
    publicKey,
  });
  mkdirSync(tppDir, { recursive: true });
  writeFileSync(join(tppDir, CREDENTIAL_FILES.privateKey), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(tppDir, CREDENTIAL_FILES.certificate), issued.certificatePem);
}

/** The first Monday-to-Friday after `day` and the day after it (a date a payment may be asked for). */
function weekdayAfter(day: Date): string {
  const next = new Date(day.getTime() + 2 * 86_400_000);
  while (next.getUTCDay() === 0 || next.getUTCDay() === 6) next.setTime(next.getTime() + 86_400_000);
  return next.toISOString().slice(0, 10);
}

/**
 * A copy of the collection whose request bodies name seeded accounts, and whose execution and
 * start dates in the past (the collection has some hard-coded) are moved to a coming weekday
 * (for --seeded-accounts).
 */
function withSeededAccounts(collectionPath: string, into: string): string {
  const today = new Date().toISOString().slice(0, 10);
  const nextWeekday = weekdayAfter(new Date());
  const collection = JSON.parse(readFileSync(collectionPath, 'utf8')) as unknown;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const request = (node as { request?: { header?: KeyValue[]; body?: { raw?: string } } }).request;
    if (request?.body?.raw !== undefined) {
      const corporate = (request.header ?? []).some((header) => header.key.toLowerCase() === 'psu-corporate-id' && !header.disabled);
      request.body.raw = request.body.raw
        .replace(
          /("debtorAccount"\s*:\s*\{[^}]*?"bban"\s*:\s*")[^"]*(")/g,
          `$1${corporate ? SEEDED_ACCOUNTS.corporateDebtor : SEEDED_ACCOUNTS.privateDebtor}$2`,
        )
        .replace(/("creditorAccount"\s*:\s*\{[^}]*?"bban"\s*:\s*")[^"]*(")/g, `$1${SEEDED_ACCOUNTS.creditor}$2`)
        .replace(
          /("(?:requestedExecutionDate|startDate)"\s*:\s*")(\d{4}-\d{2}-\d{2})(")/gi,
          (match, before: string, date: string, after: string) => (date < today ? `${before}${nextWeekday}${after}` : match),
        );
    }
    Object.values(node).forEach(visit);
  };
  visit(collection);
  const path = join(into, 'collection-seeded-accounts.json');
  writeFileSync(path, JSON.stringify(collection));
  return path;
}

function runNewman(
  collection: string,
  variables: Readonly<Record<string, string>>,
  reportPath: string,
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const args = [
    '--yes',
    NEWMAN,
    'run',
    collection,
    '--reporters',
    'json',
    '--reporter-json-export',
    reportPath,
    '--timeout-request',
    '30000',
  ];
  for (const [name, value] of Object.entries(variables)) args.push('--env-var', `${name}=${value}`);
  return new Promise((resolveRun, reject) => {
    const child = spawn('npx', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 10 * 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    });
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      collection: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'seeded-accounts': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.collection || !existsSync(values.collection)) {
    process.stderr.write('usage: npm run postman -- --collection PATH [--keep] [--seeded-accounts]\n');
    return 2;
  }
  const collectionPath = resolve(values.collection);
  ensureBuilt();
  const tmp = mkdtempSync(join(tmpdir(), 'xs2a-postman-'));
  const dataDir = join(tmp, 'data');
  const tppDir = join(tmp, 'tpp');
  let server: ServerProcess | undefined;
  let proxy: SigningProxy | undefined;
  try {
    await issueCredentials(dataDir, tppDir);
    const credentials = readCredentials(tppDir);
    server = await startServerProcess({
      env: { XS2A_DATA_DIR: dataDir, DATABASE_URL: `sqlite:${join(dataDir, 'xs2a.db')}`, LOG_LEVEL: 'info' },
    });
    const initialized = await new TppClient(server.url, credentials).post('/v1/sandbox/initialize', undefined);
    if (initialized.status !== 200) throw new Error(`POST /v1/sandbox/initialize answered ${initialized.status}: ${initialized.text}`);
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApi;
    const routes = routesOf(openapi);

    const exchanges = new Map<string, ProxyExchange>();
    proxy = await startSigningProxy({
      target: server.url,
      credentials,
      onExchange: (exchange) => exchanges.set(exchange.requestId.toLowerCase(), exchange),
    });
    const collection = values['seeded-accounts'] ? withSeededAccounts(collectionPath, tmp) : collectionPath;
    const reportPath = join(tmp, 'newman-report.json');
    process.stdout.write(
      `server ${server.url} (data ${dataDir}), signing proxy ${proxy.url}, TPP ${TPP_ORG}; running ${NEWMAN}` +
        `${values['seeded-accounts'] ? ' with seeded accounts in the bodies' : ''}…\n`,
    );
    const newman = await runNewman(collection, { HOST: proxy.url, ...SEEDED_VARIABLES }, reportPath, tmp);
    writeFileSync(join(tmp, 'newman.log'), newman.output);
    if (!existsSync(reportPath)) throw new Error(`newman wrote no report (exit ${newman.code}):\n${newman.output}`);
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as NewmanReport;
    const result = print(outcomesOf(report, routes, exchanges), server);
    process.stdout.write(`  exit:            ${result} (newman itself exited ${newman.code}: the collection's assertions)\n`);
    return result;
  } finally {
    await proxy?.close();
    await server?.stop();
    if (server) writeFileSync(join(tmp, 'server.log'), server.stdout() + server.stderr());
    if (values.keep) {
      process.stdout.write(
        `kept ${tmp} (server.log, newman-report.json, newman.log; TPP credentials in ${tppDir} for scripts/signing-proxy.ts)\n`,
      );
    } else {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
