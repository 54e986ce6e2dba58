/**
 * The session cookie that binds an authorisation's pages to the browser that opened its link
 * first. Parsed and written here by hand (one cookie, one Cookie header): the `cookie` package
 * in the tree needs Node 22, and @fastify/cookie's current releases depend on it.
 */
export const SCA_SESSION_COOKIE = 'xs2a_sca_session';

/** A session value as this server makes them: 32 random bytes, base64url. */
const SESSION_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session from a Cookie header (`name=value; name2=value2`): the first cookie of that name
 * whose value could be a session, or undefined. Anything else in the header is ignored.
 */
export function sessionOfCookieHeader(header: string | undefined, name: string = SCA_SESSION_COOKIE): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
    let value = pair.slice(separator + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (SESSION_VALUE.test(value)) return value;
  }
  return undefined;
}

/**
 * The Set-Cookie value of a new session: a browser-session cookie (no expiry) sent only to the
 * authorisation's own pages (`path`, below the SCA base path), never to scripts, not on cross-site
 * posts, and only over HTTPS when `secure`. `name`: another page's session cookie (the PSU's
 * own page of consents has one of its own, on its own path).
 */
export function sessionSetCookie(value: string, path: string, secure: boolean, name: string = SCA_SESSION_COOKIE): string {
  if (!SESSION_VALUE.test(value)) throw new Error('not a session value');
  if (!/^\/[\x21-\x3a\x3c-\x7e]*$/.test(path)) throw new Error(`not a cookie path: ${path}`);
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
