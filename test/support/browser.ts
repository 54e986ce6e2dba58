import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Headless Chromium for the browser tests and the screenshot script: Debian's own Chromium
 * (`apt-get install chromium`; `.ci/run` installs it when missing), driven by playwright-core, so
 * no browser is downloaded. CHROMIUM_PATH points elsewhere when needed.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** The user agent of an iPhone's Safari: the identify page offers the bank app on it. */
export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A desktop Chrome on Linux: no bank app there. */
export const DESKTOP_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/**
 * One browser for a test file (launch in beforeAll, `close()` in afterAll). Closing ends the
 * Chromium processes; Playwright also kills them if the test process exits first.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], timeout: 30_000 });
}
