/**
 * The browser tier on a machine without Chromium (`vitest run --project browser` as a child
 * process, CHROMIUM_PATH pointing at nothing):
 * - outside CI (`CI` unset) its tests are skipped, not failed, and the run says to install
 *   Chromium (`apt-get install chromium`);
 * - in CI (`CI=1`, as `.ci/run` sets) the same run fails, naming the missing Chromium.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from '../support/chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NOWHERE = '/nonexistent/chromium';

function browserTier(env: Record<string, string>): Promise<{ code: number; output: string }> {
  const vitest = createRequire(import.meta.url).resolve('vitest/vitest.mjs');
  const { CI: _ci, CHROMIUM_PATH: _path, TEST_POSTGRES_URL: _pg, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [vitest, 'run', '--project', 'browser'],
      { cwd: ROOT, env: { ...inherited, CHROMIUM_PATH: NOWHERE, NO_COLOR: '1', ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('chromiumMissing', () => {
  it('says what to install when Chromium is missing outside CI, and nothing in CI or when it is there', () => {
    expect(chromiumMissing({ CHROMIUM_PATH: NOWHERE })).toBe(
      `browser tests not run: no Chromium at ${NOWHERE}. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH`,
    );
    expect(chromiumMissing({ CHROMIUM_PATH: NOWHERE, CI: '1' })).toBeUndefined();
    expect(chromiumMissing({ CHROMIUM_PATH: process.execPath })).toBeUndefined();
  });
});

describe('the browser tier without Chromium', () => {
  it('is skipped outside CI, with the instruction to install Chromium', async () => {
    const run = await browserTier({});
    expect(run.output).toContain('sudo apt-get install chromium');
    expect(run.output).toMatch(/tests: 0 passed, 0 failed, [1-9]\d* skipped/);
    expect(run.code).toBe(0);
  }, 150_000);

  it('fails in CI, naming the missing Chromium', async () => {
    const run = await browserTier({ CI: '1' });
    expect(run.output).toContain(`no Chromium at ${NOWHERE}`);
    expect(run.output).toMatch(/tests: \d+ passed, [1-9]\d* failed/);
    expect(run.code).not.toBe(0);
  }, 150_000);
});
