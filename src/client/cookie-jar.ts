/** One cookie as a browser keeps it. */
interface StoredCookie {
  readonly name: string;
  readonly value: string;
  readonly host: string;
  readonly path: string;
  readonly secure: boolean;
  /** Milliseconds since the epoch; undefined: kept until the jar goes (a browser-session cookie). */
  readonly expires: number | undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The cookies of one PSU browser, for walking the SCA pages with plain HTTP as a browser would:
 * the pages bind an authorisation to the browser that opened its link with a session cookie.
 * Enough of RFC 6265 for that: host-only cookies, Path matching, Secure (kept off plain HTTP but
 * to loopback, as browsers do), Max-Age and Expires. One jar is one browser; a fresh jar is
 * another browser.
 */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Keeps the cookies an answer to `url` sets (its Set-Cookie header values). */
  store(url: URL, setCookie: string | readonly string[] | undefined): void {
    const values = setCookie === undefined ? [] : typeof setCookie === 'string' ? [setCookie] : setCookie;
    for (const line of values) {
      const cookie = parseSetCookie(url, line, this.clock());
      if (!cookie) continue;
      const key = `${cookie.host}|${cookie.path}|${cookie.name}`;
      if (cookie.expires !== undefined && cookie.expires <= this.clock()) this.cookies.delete(key);
      else this.cookies.set(key, cookie);
    }
  }

  /** The Cookie header a browser sends to `url`, or undefined when it sends none. */
  header(url: URL): string | undefined {
    const now = this.clock();
    const sent = [...this.cookies.values()]
      .filter(
        (cookie) =>
          cookie.host === url.host.toLowerCase() &&
          pathMatches(url.pathname, cookie.path) &&
          (!cookie.secure || url.protocol === 'https:' || LOOPBACK.has(url.hostname)) &&
          (cookie.expires === undefined || cookie.expires > now),
      )
      // Longer paths first, as browsers send them.
      .sort((a, b) => b.path.length - a.path.length);
    return sent.length === 0 ? undefined : sent.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  /** The jar as JSON, to keep one browser's cookies between runs of a program (`psu sca`). */
  toJSON(): StoredCookie[] {
    return [...this.cookies.values()];
  }

  /** A jar holding the cookies a {@link toJSON} wrote; anything that is not such a cookie is left out. */
  static fromJSON(cookies: unknown, clock: () => number = Date.now): CookieJar {
    const jar = new CookieJar(clock);
    for (const cookie of Array.isArray(cookies) ? (cookies as unknown[]) : []) {
      if (!isStoredCookie(cookie)) continue;
      jar.cookies.set(`${cookie.host}|${cookie.path}|${cookie.name}`, cookie);
    }
    return jar;
  }

  /** How many cookies the jar holds (expired ones included until they are replaced). */
  get size(): number {
    return this.cookies.size;
  }
}

function isStoredCookie(value: unknown): value is StoredCookie {
  if (typeof value !== 'object' || value === null) return false;
  const cookie = value as Record<string, unknown>;
  return (
    ['name', 'value', 'host', 'path'].every((key) => typeof cookie[key] === 'string') &&
    typeof cookie['secure'] === 'boolean' &&
    (cookie['expires'] === undefined || typeof cookie['expires'] === 'number')
  );
}

function parseSetCookie(url: URL, line: string, now: number): StoredCookie | undefined {
  const [pair = '', ...attributes] = line.split(';');
  const separator = pair.indexOf('=');
  if (separator <= 0) return undefined;
  const name = pair.slice(0, separator).trim();
  const value = pair.slice(separator + 1).trim();
  let path: string | undefined;
  let secure = false;
  let expires: number | undefined;
  let maxAge: number | undefined;
  for (const attribute of attributes) {
    const [rawKey = '', ...rest] = attribute.split('=');
    const key = rawKey.trim().toLowerCase();
    const argument = rest.join('=').trim();
    if (key === 'path' && argument.startsWith('/')) path = argument;
    else if (key === 'secure') secure = true;
    else if (key === 'max-age' && /^-?\d+$/.test(argument)) maxAge = Number(argument);
    else if (key === 'expires' && !Number.isNaN(Date.parse(argument))) expires = Date.parse(argument);
  }
  // Max-Age wins over Expires (RFC 6265 §5.3).
  if (maxAge !== undefined) expires = now + maxAge * 1000;
  return { name, value, host: url.host.toLowerCase(), path: path ?? defaultPath(url.pathname), secure, expires };
}

/** RFC 6265 §5.1.4: the request path up to its last slash. */
function defaultPath(requestPath: string): string {
  const slash = requestPath.lastIndexOf('/');
  return slash <= 0 ? '/' : requestPath.slice(0, slash);
}

/** RFC 6265 §5.1.4: the cookie's path is the request path, or a prefix of it ending at a slash. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
