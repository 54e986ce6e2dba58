import { existsSync } from 'node:fs';

/**
 * Where the browser tests find Chromium, and whether they can run here. The browser tier drives
 * Debian's own Chromium (`apt-get install chromium`; `.ci/run` installs it), so a fresh machine
 * may lack it: there the tier is reported as not run, with the instruction, instead of failing.
 * In CI (`CI` set) a missing Chromium is a failure: the tier must run there.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
}

/** Why the browser tests do not run here, or undefined when they run (Chromium found, or in CI). */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = chromiumPath(env);
  if (existsSync(path) || (env['CI'] ?? '') !== '') return undefined;
  return `browser tests not run: no Chromium at ${path}. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH`;
}
