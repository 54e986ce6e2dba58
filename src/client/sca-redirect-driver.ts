import { request as httpRequest } from 'undici';
import { CookieJar } from './cookie-jar.js';

/** What the PSU does on the redirect pages. */
export interface PsuActions {
  /** Typed on the identify page unless the TPP's PSU-ID has locked it there. */
  readonly psuId?: string | undefined;
  /** The one-time codes typed, in order (the sandbox's code is 123456); the last one is repeated if more are asked. */
  readonly codes?: readonly string[] | undefined;
  readonly decision?: 'approve' | 'reject' | undefined;
  /**
   * On a confirmation page that offers choices (the accounts of a bank-offered consent): which to
   * tick, by the text of their label. Absent: every one offered.
   */
  readonly choose?: ((label: string) => boolean) | undefined;
  /** Confirm in the bank app instead of a code (offered on a mobile user agent when Biometric-Authentication is true). */
  readonly useApp?: boolean | undefined;
  /** Accept-Language of the PSU's browser: `en` or `nb`. */
  readonly language?: string | undefined;
  readonly userAgent?: string | undefined;
  /**
   * The browser's cookies. The pages belong to the browser that opened the link first (a session
   * cookie), so a walk that goes on from pages already opened needs that browser's jar; without
   * one, the walk is a fresh browser.
   */
  readonly cookies?: CookieJar | undefined;
}

/** Where the flow ended. */
export interface PsuJourney {
  /** The TPP redirect URI the PSU was sent to, or undefined when the flow ended on a page. */
  readonly redirectedTo: string | undefined;
  /** The last page's HTML (the outcome page when there was no redirect). */
  readonly lastPage: string;
  readonly lastStatus: number;
  /** The steps the PSU went through: identify, code, decision. */
  readonly steps: readonly string[];
}

/**
 * The identify page asks for the PSU's national identity number and none was given: the TPP sent no
 * PSU-ID (as in the PSU pre-step), so the PSU must type one (`psuId`).
 */
export class PsuIdRequiredError extends Error {
  override readonly name = 'PsuIdRequiredError';
  constructor() {
    super("the identify page asks for the PSU's national identity number (the TPP sent no PSU-ID): give psuId");
  }
}

const SANDBOX_CODE = '123456';
const MAX_STEPS = 12;

/**
 * Walks the SCA redirect pages with plain HTTP form posts, as a PSU's browser would:
 * for TPPs' own CI, where a browser is too heavy. Give it the `scaRedirect` link and what the PSU
 * does; it answers where the PSU ended up (normally the TPP's redirect URI). Like a browser it
 * keeps the pages' session cookie from step to step.
 */
export async function walkScaRedirect(scaRedirect: string, actions: PsuActions = {}): Promise<PsuJourney> {
  const browser: Browser = {
    headers: {
      'accept-language': actions.language ?? 'en',
      'user-agent': actions.userAgent ?? 'nordic-xs2a-sca-driver',
    },
    cookies: actions.cookies ?? new CookieJar(),
  };
  const steps: string[] = [];
  const codes = [...(actions.codes ?? [SANDBOX_CODE])];
  let url = new URL(scaRedirect);
  let page = await get(url, browser);
  for (let i = 0; i < MAX_STEPS; i++) {
    const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.text);
    if (page.location !== undefined) {
      const next = new URL(page.location, url);
      if (!next.pathname.startsWith(scaPathOf(scaRedirect))) {
        return { redirectedTo: next.toString(), lastPage: page.text, lastStatus: page.status, steps };
      }
      url = next;
      page = await get(url, browser);
      continue;
    }
    if (!form) return { redirectedTo: undefined, lastPage: page.text, lastStatus: page.status, steps };
    const action = new URL(unescapeHtml(form[1] ?? ''), url);
    const fields = new URLSearchParams({ csrf: unescapeHtml(/name="csrf" value="([^"]*)"/.exec(form[2] ?? '')?.[1] ?? '') });
    const step = action.pathname.split('/').pop() ?? '';
    if (steps.length > 0 && steps[steps.length - 1] === step && page.status >= 400 && step !== 'code') {
      // The same step refused again: the PSU cannot get further with these actions.
      return { redirectedTo: undefined, lastPage: page.text, lastStatus: page.status, steps };
    }
    steps.push(step);
    if (step === 'identify') {
      const psuId = actions.psuId ?? unescapeHtml(/name="psuId"[^>]*value="([^"]*)"/.exec(form[2] ?? '')?.[1] ?? '');
      // Posting an empty id would only fetch the same page again, saying the field is required.
      if (psuId === '') throw new PsuIdRequiredError();
      fields.set('psuId', psuId);
      fields.set('method', actions.useApp ? 'app' : 'code');
    } else if (step === 'code') {
      fields.set('code', codes.length > 1 ? (codes.shift() ?? SANDBOX_CODE) : (codes[0] ?? SANDBOX_CODE));
    } else {
      fields.set('decision', actions.decision ?? 'approve');
      for (const choice of choicesOf(form[2] ?? '')) {
        if (actions.choose === undefined || actions.choose(choice.label)) fields.append('choice', choice.value);
      }
    }
    page = await post(action, fields, browser);
  }
  throw new Error(`the SCA pages did not finish within ${MAX_STEPS} steps`);
}

interface Page {
  readonly status: number;
  readonly location: string | undefined;
  readonly text: string;
}

/** What the walk sends as the PSU's browser: its headers and its cookies. */
interface Browser {
  readonly headers: Record<string, string>;
  readonly cookies: CookieJar;
}

function headersFor(url: URL, browser: Browser): Record<string, string> {
  const cookie = browser.cookies.header(url);
  return { ...browser.headers, accept: 'text/html', ...(cookie === undefined ? {} : { cookie }) };
}

async function get(url: URL, browser: Browser): Promise<Page> {
  const response = await httpRequest(url, { method: 'GET', headers: headersFor(url, browser) });
  browser.cookies.store(url, response.headers['set-cookie']);
  return { status: response.statusCode, location: locationOf(response.headers['location']), text: await response.body.text() };
}

async function post(url: URL, fields: URLSearchParams, browser: Browser): Promise<Page> {
  const response = await httpRequest(url, {
    method: 'POST',
    headers: { ...headersFor(url, browser), 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  browser.cookies.store(url, response.headers['set-cookie']);
  return { status: response.statusCode, location: locationOf(response.headers['location']), text: await response.body.text() };
}

function locationOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The pages' own path: `/sca/` below the server's public path. */
function scaPathOf(scaRedirect: string): string {
  const path = new URL(scaRedirect).pathname;
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** The checkboxes of a confirmation form: each one's value and the text of its label. */
function choicesOf(form: string): { value: string; label: string }[] {
  return [...form.matchAll(/<input type="checkbox" id="([^"]+)" name="choice" value="([^"]*)"><label for="\1">([^<]*)<\/label>/g)].map(
    (match) => ({ value: unescapeHtml(match[2] ?? ''), label: unescapeHtml(match[3] ?? '') }),
  );
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
}
