import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

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

/** The TPP's side of a redirect: a local page server standing in for its redirect URIs. */
export interface StandInTpp {
  readonly origin: string;
  /** TPP-Redirect-URI */
  readonly ok: string;
  /** TPP-Nok-Redirect-URI */
  readonly nok: string;
  /** The paths (with query) the browser landed on. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** Starts a stand-in TPP on a free port, with the paths of its two redirect URIs. */
export async function startStandInTpp(paths = { ok: '/tpp/ok', nok: '/tpp/nok' }): Promise<StandInTpp> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>TPP</title><h1>Back at the TPP</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    ok: `${origin}${paths.ok}`,
    nok: `${origin}${paths.nok}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What one browser context saw: every request URL, and console errors, warnings and page errors. */
export interface ContextWatch {
  readonly requests: readonly string[];
  readonly problems: readonly string[];
}

/**
 * Browser contexts whose requests and faults are recorded, so a test file checks after each test
 * that the pages loaded nothing foreign and raised no CSP violation or script error.
 */
export function watchedContexts(browser: () => Browser) {
  const opened: { context: BrowserContext; requests: string[]; problems: string[] }[] = [];
  return {
    /** A fresh browser profile, watched. */
    async open(options: BrowserContextOptions): Promise<Page> {
      const context = await browser().newContext(options);
      const watched = { context, requests: [] as string[], problems: [] as string[] };
      opened.push(watched);
      context.on('request', (request) => watched.requests.push(request.url()));
      const page = await context.newPage();
      page.on('console', (message) => {
        // A retried step answers 400 on purpose (its status is the server's business, not a page fault).
        if (message.text().startsWith('Failed to load resource:')) return;
        if (message.type() === 'error' || message.type() === 'warning') watched.problems.push(message.text());
      });
      page.on('pageerror', (error) => watched.problems.push(error.message));
      return page;
    },
    /** Closes every context opened since the last call and tells what each saw. */
    async closeAll(): Promise<ContextWatch[]> {
      const contexts = opened.splice(0);
      await Promise.all(contexts.map(({ context }) => context.close()));
      return contexts;
    },
  };
}
