/**
 * Runs the README's code blocks as a reader would, against a started server: in one scratch
 * directory, section by section. The shell blocks of one section run in one bash session (as in
 * one terminal: a variable set in one block is there in the next), with `set -euo pipefail`; a
 * TypeScript block is written to a file in the scratch directory and run with tsx. Before running,
 * the README's addresses are replaced by the test's (`/tmp/xs2a-try`, `http://127.0.0.1:8080`), the
 * `nordic-xs2a` command is the built CLI (dist/bundle/main.js), and `nordic-xs2a/client` resolves to
 * this package, as `npm link` makes them for a reader. Each block's output must hold what its
 * `# prints` comments quote.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../support/server-process.js';
import { fragmentPattern, printedFragments, type ReadmeBlock } from './readme-blocks.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The scratch directory and server address the README's examples use. */
export const README_SCRATCH = '/tmp/xs2a-try';
export const README_SERVER = 'http://127.0.0.1:8080';

export interface ReadmeContext {
  /** The scratch directory the blocks run in (created here). */
  readonly scratch: string;
  /** The started server's address. */
  readonly server: string;
  /** Longest a section may run. */
  readonly timeoutMs?: number;
}

export interface BlockOutcome {
  readonly block: ReadmeBlock;
  readonly ok: boolean;
  readonly output: string;
  /** Why it failed: the exit code, or a quoted fragment its output lacks. */
  readonly failure?: string;
}

/** The README's text with its example addresses replaced by the test's. */
export function localised(text: string, context: ReadmeContext): string {
  return text
    .replaceAll(README_SCRATCH, context.scratch)
    .replaceAll(README_SERVER, context.server)
    .replace(/\bnpx nordic-xs2a\b/g, 'nordic-xs2a');
}

/**
 * The scratch directory as `npm link` leaves a reader's: `nordic-xs2a` on the PATH (a bin directory
 * beside it) and `node_modules/nordic-xs2a` pointing at this package. Answers the PATH to use.
 */
export function prepareScratch(context: ReadmeContext): string {
  const bin = `${context.scratch}-bin`;
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(context.scratch, 'node_modules'), { recursive: true });
  writeFileSync(join(bin, 'nordic-xs2a'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  const link = join(context.scratch, 'node_modules', 'nordic-xs2a');
  if (!existsSync(link)) symlinkSync(ROOT, link);
  return `${bin}:${process.env['PATH'] ?? ''}`;
}

/** Runs the blocks of one section in order; stops at the first that fails. */
export async function runSection(blocks: readonly ReadmeBlock[], context: ReadmeContext, path: string): Promise<BlockOutcome[]> {
  const outcomes: BlockOutcome[] = [];
  const runnable = blocks.filter((block) => block.kind !== undefined);
  for (let i = 0; i < runnable.length;) {
    const first = runnable[i]!;
    if (first.kind === 'typescript') {
      const outcome = await runTypeScript(first, context, path);
      outcomes.push(outcome);
      if (!outcome.ok) return outcomes;
      i++;
      continue;
    }
    // The shell blocks up to the next TypeScript block share one session.
    let end = i;
    while (end < runnable.length && runnable[end]!.kind === 'shell') end++;
    const session = await runShell(runnable.slice(i, end), context, path);
    outcomes.push(...session);
    if (session.some((outcome) => !outcome.ok)) return outcomes;
    i = end;
  }
  return outcomes;
}

/** Runs every section in order; stops at the first block that fails. */
export async function runReadme(blocks: readonly ReadmeBlock[], context: ReadmeContext): Promise<BlockOutcome[]> {
  const path = prepareScratch(context);
  const outcomes: BlockOutcome[] = [];
  for (const section of sectionsOf(blocks)) {
    const ran = await runSection(section.blocks, context, path);
    outcomes.push(...ran);
    if (ran.some((outcome) => !outcome.ok)) break;
  }
  return outcomes;
}

/** The blocks grouped by section, in README order. */
export function sectionsOf(blocks: readonly ReadmeBlock[]): { name: string; blocks: ReadmeBlock[] }[] {
  const sections: { name: string; blocks: ReadmeBlock[] }[] = [];
  for (const block of blocks) {
    const last = sections[sections.length - 1];
    if (last && last.name === block.section) last.blocks.push(block);
    else sections.push({ name: block.section, blocks: [block] });
  }
  return sections;
}

const MARK = '@@readme-block@@';

async function runShell(blocks: readonly ReadmeBlock[], context: ReadmeContext, path: string): Promise<BlockOutcome[]> {
  const script = [
    'set -euo pipefail',
    ...blocks.flatMap((block, n) => [`printf '\\n${MARK}${n}\\n'`, localised(block.code, context)]),
    `printf '\\n${MARK}end\\n'`,
  ].join('\n');
  const run = await execute('bash', ['-c', script], context, path);
  // The output of each block lies between its mark and the next; a failed session ends inside the block that failed.
  const parts = run.stdout.split(new RegExp(`\\n${MARK}`));
  const outputs = new Map<string, string>();
  for (const part of parts.slice(1)) {
    const newline = part.indexOf('\n');
    outputs.set(newline < 0 ? part : part.slice(0, newline), newline < 0 ? '' : part.slice(newline + 1));
  }
  const outcomes: BlockOutcome[] = [];
  for (const [n, block] of blocks.entries()) {
    const output = outputs.get(String(n));
    if (output === undefined) break; // never reached
    const finished = outputs.has(String(n + 1)) || (n === blocks.length - 1 && outputs.has('end'));
    if (!finished) {
      outcomes.push({ block, ok: false, output: `${output}${run.stderr}`, failure: `bash exited with ${run.code}` });
      break;
    }
    outcomes.push(checked(block, output, context));
    if (!outcomes[outcomes.length - 1]!.ok) break;
  }
  return outcomes;
}

async function runTypeScript(block: ReadmeBlock, context: ReadmeContext, path: string): Promise<BlockOutcome> {
  const file = join(context.scratch, `readme-line-${block.line}.mts`);
  writeFileSync(file, localised(block.code, context));
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const run = await execute(process.execPath, [tsx, file], context, path);
  if (run.code !== 0) return { block, ok: false, output: `${run.stdout}${run.stderr}`, failure: `tsx exited with ${run.code}` };
  return checked(block, run.stdout, context);
}

/** The block's output against what its comments say it prints. */
function checked(block: ReadmeBlock, output: string, context: ReadmeContext): BlockOutcome {
  const fragments = printedFragments(block);
  if (fragments === undefined) return { block, ok: false, output, failure: 'the block does not say what it prints (# prints …)' };
  const missing = fragments.find((fragment) => !fragmentPattern(localised(fragment, context)).test(output));
  return missing === undefined ? { block, ok: true, output } : { block, ok: false, output, failure: `the output lacks \`${missing}\`` };
}

function execute(
  command: string,
  args: readonly string[],
  context: ReadmeContext,
  path: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: context.scratch,
      // The reader's environment, with the CLI's default server pointed at the test's.
      env: { ...process.env, PATH: path, XS2A_PUBLIC_URL: context.server, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: context.timeoutMs ?? 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
