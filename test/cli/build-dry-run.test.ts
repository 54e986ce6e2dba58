/**
 * `npm ci --dry-run` runs the `prepare` script (`npm run build`) with npm_config_dry_run=true. A
 * dry run changes nothing: the build leaves dist/ as it is, and says so, in a few seconds instead of
 * the half minute of a build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run build in a dry run', () => {
  beforeAll(() => ensureBuilt());

  it('leaves dist/ as it is', () => {
    // A file the build would not make: a build empties dist/ first.
    const marker = join(ROOT, 'dist', `.dry-run-${process.pid}`);
    writeFileSync(marker, '');
    try {
      const output = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.ts')], {
        cwd: ROOT,
        env: { ...process.env, npm_config_dry_run: 'true' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(output).toContain('dry run: dist/ not rebuilt');
      expect(existsSync(marker)).toBe(true);
      expect(existsSync(join(ROOT, 'dist/bundle/main.js'))).toBe(true);
    } finally {
      rmSync(marker, { force: true });
    }
  });
});
