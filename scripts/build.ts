import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

/**
 * `npm run build`: dist/ emptied (no module of a removed source stays), the TypeScript compiled
 * into it module by module, and the command line bundled from that output.
 *
 * - dist/<module>.js and .d.ts: what the package's exports import (`nordic-xs2a/client`,
 *   `nordic-xs2a/bank-adapter`), each module its own file.
 * - dist/bundle/main.js and its chunks: the `nordic-xs2a` command. A fresh start spent most of its
 *   time loading modules one file at a time (typebox alone is 709 files); from one file per command
 *   it is ready about half a second sooner (bench/README.md, "The cold start"). Each command keeps
 *   its own chunk, loaded when it runs, as main.ts's lazy imports intend.
 *
 * Left outside the bundle, loaded from node_modules as they are: native code (better-sqlite3),
 * what finds files or starts threads from its own place (pino's transports, swagger-ui's pages),
 * and what is imported only now and then (pg, undici). The bundle stays in dist/bundle/ so that
 * what the server finds from its module's place (CHANGELOG.md two folders up, better-sqlite3 from
 * node_modules) is where it is from dist/<folder>/.
 */
export const EXTERNAL = ['better-sqlite3', 'pg', 'pino', '@fastify/swagger-ui', 'undici'] as const;

export const BUNDLE_DIR = 'dist/bundle';

export function buildDist(root: string): void {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  buildSync({
    absWorkingDir: root,
    entryPoints: { main: 'dist/cli/main.js' },
    outdir: BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...EXTERNAL],
    sourcemap: 'linked',
    logLevel: 'warning',
    // The CommonJS bundled inside (fastify and its plugins) calls require() for Node's own modules.
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);",
    },
  });
}

const runAsCommand = import.meta.url === pathToFileURL(process.argv[1] ?? '').href;

if (runAsCommand && process.env['npm_config_dry_run'] === 'true') {
  // `npm ci --dry-run` runs `prepare` too: a dry run changes nothing, so dist/ is left as it is.
  process.stdout.write('dry run: dist/ not rebuilt\n');
} else if (runAsCommand) {
  try {
    buildDist(fileURLToPath(new URL('..', import.meta.url)));
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${String(stdout ?? '')}${String(stderr ?? '')}${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
