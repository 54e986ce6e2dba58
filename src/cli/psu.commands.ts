import { PsuIdRequiredError, walkScaRedirect } from '../client/sca-redirect-driver.js';
import { isHttpUrl, parseCommandArgs } from './command-line.js';
import { loadPsuBrowser, savePsuBrowser } from './psu-browser-store.js';
import { UsageError } from './usage-error.js';

const PAGE_LANGUAGES: readonly string[] = ['nb', 'en'];

/**
 * `nordic-xs2a psu sca URL`: plays the PSU on a sandbox's SCA redirect pages with plain form posts
 * (identify, one-time code, approve or reject), for scripts and CI where no browser is at hand.
 * Prints where the PSU ended up: the TPP's redirect URI, or the last page's message. Like a browser, it
 * keeps the link's session cookie between runs (psu-browser-store.ts).
 */
export async function psuScaCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('psu sca', args, {
    options: {
      'psu-id': { type: 'string' },
      code: { type: 'string', multiple: true },
      reject: { type: 'boolean', default: false },
      app: { type: 'boolean', default: false },
      lang: { type: 'string', default: 'en' },
    },
    allowPositionals: true,
  });
  const [link] = positionals;
  if (!link || !isHttpUrl(link)) {
    throw new UsageError('psu sca needs the scaRedirect link (an absolute http(s) URL)', { commands: ['psu sca'] });
  }
  // The pages speak Norwegian Bokmål and English; another language would quietly get English.
  if (!PAGE_LANGUAGES.includes(values.lang)) {
    throw new UsageError(`--lang takes ${PAGE_LANGUAGES.join(' or ')}, not "${values.lang}"`, { commands: ['psu sca'] });
  }
  const cookies = loadPsuBrowser(link);
  const journey = await walkScaRedirect(link, {
    cookies,
    psuId: values['psu-id'],
    codes: values.code,
    decision: values.reject ? 'reject' : 'approve',
    useApp: values.app,
    language: values.lang,
    userAgent: values.app ? 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile' : undefined,
  }).catch((error: unknown) => {
    savePsuBrowser(link, cookies); // a run that adds what was missing goes on in the same browser
    if (error instanceof PsuIdRequiredError) {
      throw new UsageError("psu sca needs --psu-id ID: the link asks for the PSU's national identity number (the TPP sent no PSU-ID)", {
        brief: true,
      });
    }
    throw error;
  });
  savePsuBrowser(link, cookies);
  process.stdout.write(`steps: ${journey.steps.join(' → ') || '(none)'}\n`);
  if (journey.redirectedTo !== undefined) {
    process.stdout.write(`redirected to: ${journey.redirectedTo}\n`);
    return 0;
  }
  const message = /role="(?:alert|status)"[^>]*>([^<]*)</.exec(journey.lastPage)?.[1] ?? '';
  const code = /id="login-code">([^<]*)</.exec(journey.lastPage)?.[1];
  process.stdout.write(`ended on a page (HTTP ${journey.lastStatus})${message ? `: ${message}` : ''}\n`);
  if (code !== undefined) process.stdout.write(`login code: ${code}\n`);
  return journey.lastStatus < 400 && !journey.lastPage.includes('role="alert"') ? 0 : 1;
}
