import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { chromiumPath } from './chromium.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

export { chromiumMissing } from './chromium.js';

/**
 * Headless Chromium for the browser tests and the screenshot script: Debian's own Chromium
 * (`apt-get install chromium`; `.ci/run` installs it when missing), driven by playwright-core, so
 * no browser is downloaded. CHROMIUM_PATH points elsewhere when needed. The script runs outside
 * vitest, so this module does not import it at its top.
 */
export const CHROMIUM_PATH = chromiumPath();

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

/** A PSU's browser profile on a desktop, 480 px wide, in `locale` (which sets Accept-Language). */
export function psuProfile(locale: string, options: BrowserContextOptions = {}): BrowserContextOptions {
  return { locale, userAgent: DESKTOP_USER_AGENT, viewport: { width: 480, height: 900 }, ...options };
}

/** The texts of the PSU's login steps (identify, then the one-time code), as the pages show them. */
export const LOGIN_TEXTS = {
  en: {
    locale: 'en-GB',
    identifyHeading: 'Log in',
    psuId: 'National identity number (11 digits)',
    next: 'Next',
    codeHeading: 'Enter your one-time code',
    code: 'One-time code (6 digits)',
  },
  nb: {
    locale: 'nb-NO',
    identifyHeading: 'Logg inn',
    psuId: 'Fødselsnummer (11 siffer)',
    next: 'Neste',
    codeHeading: 'Skriv inn engangskoden',
    code: 'Engangskode (6 siffer)',
  },
} as const;

/** The page's level-1 heading with exactly this text. */
export function heading(page: Page, text: string): Locator {
  return page.getByRole('heading', { level: 1, name: text, exact: true });
}

/** The page's button with exactly this name. */
export function button(page: Page, text: string): Locator {
  return page.getByRole('button', { name: text, exact: true });
}

/** Waits until the page shows this heading (form posts redirect back to the same URL). */
export async function shows(page: Page, text: string): Promise<void> {
  await heading(page, text).waitFor();
}

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

/** What a browser test file starts before its tests: the test server, a stand-in TPP and one Chromium. */
export interface BrowserTestRig {
  readonly server: TestServer;
  readonly tpp: StandInTpp;
  readonly browser: Browser;
}

/** Starts the test server, the stand-in TPP (with the paths of its redirect URIs) and Chromium at once; for beforeAll. */
export async function startBrowserTestRig(server: TestServerOptions, tppPaths?: { ok: string; nok: string }): Promise<BrowserTestRig> {
  const [started, tpp, browser] = await Promise.all([startTestServer(server), startStandInTpp(tppPaths), launchBrowser()]);
  return { server: started, tpp, browser };
}

/** Closes the browser, the stand-in TPP and the server, those that started; for afterAll. */
export async function closeBrowserTestRig(rig: Partial<BrowserTestRig>): Promise<void> {
  await rig.browser?.close();
  await rig.tpp?.close();
  await rig.server?.close();
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
  async function closeAll(): Promise<ContextWatch[]> {
    const contexts = opened.splice(0);
    await Promise.all(contexts.map(({ context }) => context.close()));
    return contexts;
  }
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
    closeAll,
    /**
     * For afterEach: closes every context opened since the last call and checks what each saw.
     * Nothing but `origins` (the bank's own pages and the TPP's redirect URIs): no CDN, font or
     * tracker; no CSP violation (the inline stylesheet is allowed by its hash), no page error; with
     * `everyContextLoads`, at least one request.
     */
    async closeAndCheck(origins: readonly string[], options: { readonly everyContextLoads?: boolean } = {}): Promise<void> {
      const { expect } = await import('vitest');
      const allowed = new Set(origins.map((url) => new URL(url).origin));
      for (const { requests, problems } of await closeAll()) {
        if (options.everyContextLoads) expect(requests.length).toBeGreaterThan(0);
        expect(requests.filter((url) => !allowed.has(new URL(url).origin))).toEqual([]);
        expect(problems).toEqual([]);
      }
    },
  };
}
