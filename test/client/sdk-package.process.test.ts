/**
 * The SDK as a TPP's project gets it: the package packed (`npm pack`, after the build), installed
 * into an empty project, and the README's SDK example ("Using the TPP SDK from code") run there:
 * - `import { TppClient, readCredentials } from 'nordic-xs2a/client'` resolves through the
 *   package's `exports`, and its types through the `types` condition (tsc type-checks the example
 *   against the installed declarations);
 * - compiled to plain JavaScript and run with node against a started sandbox, it prints what the
 *   README says it prints.
 * Dependencies come from the npm cache this machine's `npm ci` filled (the registry when it lacks one).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fragmentPattern, parseReadme, printedFragments } from '../docs/readme-blocks.js';
import { localised, README_SCRATCH, ROOT } from '../docs/readme-runner.js';
import { ensureBuilt, killStartedServers, runCli, startServerProcess, type ServerProcess } from '../support/server-process.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tempDirs: string[] = [];

function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let project: string;
let server: ServerProcess;

beforeAll(async () => {
  ensureBuilt();
  const packed = mkdtempSync(join(tmpdir(), 'xs2a-pack-'));
  project = mkdtempSync(join(tmpdir(), 'xs2a-sdk-project-'));
  tempDirs.push(packed, project);
  // Built above: packing need not run `prepare` (the build) again.
  const pack = await run(NPM, ['pack', '--ignore-scripts', '--pack-destination', packed], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  const tarball = join(packed, readdirSync(packed).find((name) => name.endsWith('.tgz')) ?? '');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'tpp-project', private: true, type: 'module' }));
  // The SDK needs no native module: install scripts (the SQLite driver's build) are not run.
  const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball];
  let installed = await run(NPM, ['--offline', ...install], project);
  if (installed.code !== 0) installed = await run(NPM, install, project);
  expect(installed.code, installed.stderr).toBe(0);

  server = await startServerProcess({ cwd: project, env: { XS2A_DATA_DIR: join(project, 'data'), LOG_LEVEL: 'warn' } });
  const init = await runCli(['tpp', 'init', '--org', 'PSDNO-FSA-123456789', '--out', 'tpp', '--server', server.url], { cwd: project });
  expect(init.code, init.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  if (server) await server.stop();
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** Type-checks one file of the project, strictly, as a TPP's or a bank's project compiles against the installed package. */
async function typeCheck(file: string): Promise<{ code: number; output: string }> {
  const config = `tsconfig.${file.replace(/\.mts$/, '')}.json`;
  writeFileSync(
    join(project, config),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: [file],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const checked = await run(process.execPath, [tsc, '-p', config], project);
  return { code: checked.code, output: checked.stdout + checked.stderr };
}

/** The README's SDK example, with the test server's address. */
function readmeExample(): { code: string; fragments: readonly string[] } {
  const block = parseReadme(readFileSync(join(ROOT, 'README.md'), 'utf8')).blocks.find(
    (each) => each.section === 'Using the TPP SDK from code' && each.kind === 'typescript',
  );
  expect(block, 'the README has a ts block under "Using the TPP SDK from code"').toBeDefined();
  const context = { scratch: README_SCRATCH, server: server.url };
  return {
    code: localised(block!.code, context),
    fragments: (printedFragments(block!) ?? []).map((fragment) => localised(fragment, context)),
  };
}

it('type-checks the README example against the installed package’s declarations', async () => {
  const { code } = readmeExample();
  writeFileSync(join(project, 'example.mts'), code);
  const checked = await typeCheck('example.mts');
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
  // The types come from the package's dist/, as its `types` condition says.
  const declarations = JSON.parse(readFileSync(join(project, 'node_modules', 'nordic-xs2a', 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string }>;
  };
  expect(declarations.exports['./client']?.types).toBe('./dist/client/index.d.ts');
}, 120_000);

it('runs the README example with node from the installed package, printing what the README says', async () => {
  const { code, fragments } = readmeExample();
  const javascript = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } });
  writeFileSync(join(project, 'example.mjs'), javascript.outputText);
  const ran = await run(process.execPath, ['example.mjs'], project);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  expect(fragments.length).toBeGreaterThanOrEqual(4);
  for (const fragment of fragments) expect(ran.stdout).toMatch(fragmentPattern(fragment));
  // Resolved from the installed package, not from this clone.
  const resolved = await run(
    process.execPath,
    ['-e', "console.log(import.meta.resolve('nordic-xs2a/client'))", '--input-type=module'],
    project,
  );
  expect(resolved.stdout.trim()).toBe(`file://${join(project, 'node_modules', 'nordic-xs2a', 'dist', 'client', 'index.js')}`);
}, 60_000);

it('ships CHANGELOG.md, which the installed server reads from beside its dist/', async () => {
  const installed = join(project, 'node_modules', 'nordic-xs2a');
  const shipped = readFileSync(join(installed, 'CHANGELOG.md'), 'utf8');
  expect(shipped).toBe(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
  const read = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const notes = await import('./node_modules/nordic-xs2a/dist/release/release-notes.js'); console.log(JSON.stringify([notes.CHANGELOG_FILE, notes.API_RELEASE]))",
    ],
    project,
  );
  expect(read.stderr).toBe('');
  expect(JSON.parse(read.stdout)).toEqual([join(installed, 'CHANGELOG.md'), /^## (\S+)/m.exec(shipped)?.[1]]);
}, 60_000);

it('gives a bank’s adapter its ports and BankError, which the server knows from its own copy', async () => {
  writeFileSync(
    join(project, 'adapter.mts'),
    [
      "import { BankError, CORE_BANKING_OPERATIONS, type CreateBankAdapter, type CoreBanking } from 'nordic-xs2a/bank-adapter';",
      'export const createBankAdapter: CreateBankAdapter = () => {',
      "  const refuse = async (): Promise<never> => { throw new BankError('refused', 'The account is blocked'); };",
      '  const coreBanking = Object.fromEntries(CORE_BANKING_OPERATIONS.map((name) => [name, refuse])) as unknown as CoreBanking;',
      "  return { coreBanking, psuAuthenticator: { kind: 'in-page-code', isCustomer: async () => false, verifyOneTimeCode: async () => false, offersAppConfirmation: false, confirmedInApp: async () => false } };",
      '};',
    ].join('\n'),
  );
  const checked = await typeCheck('adapter.mts');
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
  // The installed package's BankError, thrown as an adapter throws it, is a BankError to this
  // clone's server modules, a copy loaded from another place.
  const recognised = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      [
        "const kit = await import('nordic-xs2a/bank-adapter');",
        `const server = await import(${JSON.stringify(join(ROOT, 'dist', 'bank', 'bank-error.js'))});`,
        "const thrown = new kit.BankError('refused', 'The account is blocked');",
        'console.log(JSON.stringify([kit.BankError === server.BankError, thrown instanceof server.BankError, server.isBankError(thrown), server.isBankError(new Error("x"))]));',
      ].join(' '),
    ],
    project,
  );
  expect(recognised.stderr).toBe('');
  expect(JSON.parse(recognised.stdout)).toEqual([false, true, true, false]);
}, 120_000);
