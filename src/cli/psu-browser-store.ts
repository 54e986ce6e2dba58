import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CookieJar } from '../client/cookie-jar.js';

/**
 * The cookies of the browser `psu sca` plays, kept per link between runs. The SCA pages belong to
 * the browser that opened a link first; without this, a second run on the same link (say after
 * adding a forgotten `--psu-id`) would be another browser and only get the "in another browser"
 * page. Kept in the system's temporary directory, readable by the user alone.
 */
const DIR = join(tmpdir(), 'nordic-xs2a-psu-browser');

function fileOf(link: string): string {
  return join(DIR, `${createHash('sha256').update(link).digest('hex').slice(0, 32)}.json`);
}

export function loadPsuBrowser(link: string): CookieJar {
  try {
    return CookieJar.fromJSON(JSON.parse(readFileSync(fileOf(link), 'utf8')));
  } catch {
    return new CookieJar(); // never opened here (or unreadable): a fresh browser
  }
}

export function savePsuBrowser(link: string, cookies: CookieJar): void {
  mkdirSync(DIR, { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(link), JSON.stringify(cookies), { mode: 0o600 });
}
