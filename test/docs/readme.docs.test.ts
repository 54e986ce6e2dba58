/**
 * The README runs (`npm run test:docs`):
 * - every fenced block is run (`sh`, `ts`) or skipped by a marker that gives the reason;
 * - the quick start's `npm start` starts the server: it prints its listening line, and stops on SIGTERM;
 * - section by section, against a started server, every run block exits 0 and prints what its
 *   `# prints` comments quote (readme-runner.ts says how);
 * - the runner is not fooled: a copy of the README with one command broken fails at that block,
 *   a block printing something else than it says fails, and so does one that says nothing.
 * Builds dist/ first when it is missing or older than src/.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, killStartedServers, startServerProcess, until, type ServerProcess } from '../support/server-process.js';
import { parseReadme, printedFragments, fragmentPattern, type ReadmeBlock } from './readme-blocks.js';
import {
  localised,
  prepareScratch,
  ROOT,
  runReadme,
  runSection,
  sectionsOf,
  type BlockOutcome,
  type ReadmeContext,
} from './readme-runner.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const parsed = parseReadme(README);

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-readme-'));
  tempDirs.push(dir);
  return dir;
}

/** A scratch directory, a server of its own and the context the runner needs. */
async function readerSetUp(): Promise<{ server: ServerProcess; context: ReadmeContext; path: string }> {
  const home = tempDir();
  const server = await startServerProcess({ cwd: home, env: { XS2A_DATA_DIR: join(home, 'data'), LOG_LEVEL: 'warn' } });
  const context = { scratch: join(home, 'xs2a-try'), server: server.url };
  mkdirSync(context.scratch);
  return { server, context, path: prepareScratch(context) };
}

/** The failed blocks, each as where it is, why, and what it printed. */
function failures(outcomes: readonly BlockOutcome[]): string[] {
  return outcomes
    .filter((outcome) => !outcome.ok)
    .map((outcome) => `README line ${outcome.block.line} ("${outcome.block.section}"): ${outcome.failure}\n${outcome.output}`);
}

beforeAll(() => ensureBuilt(), 180_000);

afterAll(() => {
  killStartedServers();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

it('runs or skips, with a reason, every block of the README', () => {
  expect(parsed.problems).toEqual([]);
  expect(parsed.blocks.filter((block) => block.kind !== undefined).length).toBeGreaterThan(10);
});

it('starts the server with the quick start’s npm start, which prints its listening line, and stops it', async () => {
  const block = parsed.blocks.find((each) => each.section === 'Quick start' && /^npm start\b/m.test(each.code));
  expect(block, 'the quick start has an `npm start` block').toBeDefined();
  const command = /^npm start\b.*?(?=\s+#|$)/m.exec(block!.code)?.[0] ?? '';
  const [said] = printedFragments({ code: block!.code, kind: 'shell' }) ?? [];
  expect(said).toMatch(/listening on/);

  const home = tempDir();
  const port = await freePort();
  const { XS2A_PUBLIC_URL: _ignored, DATABASE_URL: _also, ...env } = process.env;
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(home, 'xs2a.db')}`,
      XS2A_DATA_DIR: join(home, 'data'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm, its shell and the server are stopped together, and only they.
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const expected = fragmentPattern(localised(said ?? '', { scratch: home, server: `http://127.0.0.1:${port}` }));
    await until('the listening line of npm start', () => (expected.test(output) ? true : undefined), 60_000);
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
  }
  await exited;
  // npm and its shell exit first; the server closes its connections and then its port.
  await until(
    'the server of npm start to stop listening',
    () =>
      fetch(`http://127.0.0.1:${port}/health/live`).then(
        () => undefined,
        () => true,
      ),
    15_000,
  );
}, 90_000);

describe('the README, section by section, against a started server', () => {
  let server: ServerProcess;
  let context: ReadmeContext;
  let path: string;
  beforeAll(async () => {
    ({ server, context, path } = await readerSetUp());
  }, 60_000);
  afterAll(async () => {
    if (server) await server.stop();
  });

  const sections = sectionsOf(parsed.blocks).filter((section) => section.blocks.some((block) => block.kind !== undefined));
  it.each(sections.map((section) => [section.name, section.blocks] as const))(
    'runs "%s"',
    async (_name, blocks: readonly ReadmeBlock[]) => {
      const outcomes = await runSection(blocks, context, path);
      expect(failures(outcomes)).toEqual([]);
      expect(outcomes).toHaveLength(blocks.filter((block) => block.kind !== undefined).length);
    },
    120_000,
  );
});

describe('the runner fails what does not work', () => {
  it('fails a copy of the README with one command broken, at that command', async () => {
    const good = 'nordic-xs2a tpp call PUT /v1/tpps/NO-FSA-123456789/contact-information';
    expect(README).toContain(good);
    const broken = parseReadme(README.replace(good, 'nordic-xs2a tpp call PUT /v1/tpp/NO-FSA-123456789/contact-information'));
    const { server, context } = await readerSetUp();
    try {
      const outcomes = await runReadme(broken.blocks, context);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      expect(failed).toHaveLength(1);
      expect(failed[0]!.block.code).toContain('/v1/tpp/NO-FSA-123456789');
      expect(failed[0]!.failure).toBe('bash exited with 1');
      expect(failed[0]!.output).toContain('HTTP 404');
      expect(outcomes[outcomes.length - 1]).toBe(failed[0]); // nothing after it ran
    } finally {
      await server.stop();
    }
  }, 120_000);

  const context = (): ReadmeContext => ({ scratch: tempDir(), server: 'http://127.0.0.1:9' });
  const blocksOf = (markdown: string) => parseReadme(markdown).blocks;

  it('fails a block that prints something else than it says, and one that does not say', async () => {
    const scratch = context();
    const path = prepareScratch(scratch);
    const said = await runSection(blocksOf('## A\n\n```sh\necho "HTTP 200"   # prints `HTTP 2…`\n```\n'), scratch, path);
    expect(failures(said)).toEqual([]);
    const other = await runSection(blocksOf('## A\n\n```sh\necho "HTTP 404"   # prints `HTTP 200`\n```\n'), scratch, path);
    expect(other[0]).toMatchObject({ ok: false, failure: 'the output lacks `HTTP 200`' });
    const silent = await runSection(blocksOf('## A\n\n```sh\necho "HTTP 200"\n```\n'), scratch, path);
    expect(silent[0]).toMatchObject({ ok: false, failure: 'the block does not say what it prints (# prints …)' });
  });

  it('runs the shell blocks of a section in one session, and stops at the first that fails', async () => {
    const scratch = context();
    const path = prepareScratch(scratch);
    const outcomes = await runSection(
      blocksOf(
        '## A\n\n```sh\nname=fjord   # prints nothing\n```\n\n```sh\necho "$name"   # prints `fjord`\nfalse\n```\n\n```sh\necho after   # prints `after`\n```\n',
      ),
      scratch,
      path,
    );
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false]);
    expect(outcomes[1]).toMatchObject({ failure: 'bash exited with 1', output: expect.stringContaining('fjord') });
  });

  it('reports a block neither run nor skipped, and a marker without a reason', () => {
    expect(parseReadme('## A\n\n```json\n{}\n```\n').problems).toEqual([
      'line 3 ("A"): a ```json block is neither run (sh, ts) nor skipped with <!-- docs-test: skip (reason) -->',
    ]);
    expect(parseReadme('## A\n\n<!-- docs-test: skip -->\n\n```sh\nnpm start\n```\n').problems).toEqual([
      'line 3: a docs-test marker must read "<!-- docs-test: skip (reason) -->"',
    ]);
    expect(parseReadme('<!-- docs-test: skip (an output sample) -->\n\n```json\n{}\n```\n')).toMatchObject({
      problems: [],
      blocks: [{ skipped: 'an output sample', kind: undefined }],
    });
  });
});
