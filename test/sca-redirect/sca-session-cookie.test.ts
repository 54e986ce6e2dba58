/**
 * The session cookie of the SCA pages, written and read by hand (no cookie library for Node 20):
 * - Set-Cookie: the session value, Path, HttpOnly, SameSite=Lax, Secure only when asked; a value
 *   or path that would break the header is refused;
 * - Cookie: the session is found among other cookies, in quotes or spaced; a malformed value, a
 *   look-alike name or no header is no session;
 * - the client's CookieJar (the PSU page driver's browser) sends it back to the authorisation's own
 *   pages only, keeps Secure cookies off plain HTTP (but loopback) and drops expired ones.
 */
import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import { SCA_SESSION_COOKIE, sessionOfCookieHeader, sessionSetCookie } from '../../src/modules/sca-redirect/sca-session-cookie.js';

const SESSION = 'Ab0_-'.repeat(8) + 'xyz';
const PATH = '/sca/0b8f2d1e-4c3a-4e5f-9a6b-7c8d9e0f1a2b';

describe('sessionSetCookie', () => {
  it('writes the session for the path, HttpOnly and SameSite=Lax, Secure only when asked, with no expiry', () => {
    expect(SESSION).toHaveLength(43);
    expect(sessionSetCookie(SESSION, PATH, false)).toBe(`${SCA_SESSION_COOKIE}=${SESSION}; Path=${PATH}; HttpOnly; SameSite=Lax`);
    expect(sessionSetCookie(SESSION, PATH, true)).toBe(`${SCA_SESSION_COOKIE}=${SESSION}; Path=${PATH}; HttpOnly; SameSite=Lax; Secure`);
  });

  it.each([
    ['a value that is no session', 'short', PATH],
    ['a value with a separator', `${SESSION.slice(0, 42)};`, PATH],
    ['a relative path', SESSION, 'sca/x'],
    ['a path with a semicolon', SESSION, '/psd2;x/sca/y'],
    ['a path with a space', SESSION, '/psd 2/sca/y'],
  ])('refuses %s', (_case, value, path) => {
    expect(() => sessionSetCookie(value, path, false)).toThrow();
  });
});

describe('sessionOfCookieHeader', () => {
  it.each([
    [`${SCA_SESSION_COOKIE}=${SESSION}`, SESSION],
    [`theme=dark; ${SCA_SESSION_COOKIE}=${SESSION}; lang=nb`, SESSION],
    [`theme=dark;${SCA_SESSION_COOKIE}="${SESSION}"`, SESSION],
    [`  ${SCA_SESSION_COOKIE} = ${SESSION}  `, SESSION],
    [`${SCA_SESSION_COOKIE}=bad; ${SCA_SESSION_COOKIE}=${SESSION}`, SESSION],
    [`${SCA_SESSION_COOKIE}=${SESSION}x`, undefined],
    [`${SCA_SESSION_COOKIE}=${SESSION.slice(1)}`, undefined],
    [`${SCA_SESSION_COOKIE}=${SESSION.slice(1)}=`, undefined],
    [`x${SCA_SESSION_COOKIE}=${SESSION}`, undefined],
    [`${SCA_SESSION_COOKIE}`, undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, session) => {
    expect(sessionOfCookieHeader(header)).toBe(session);
  });
});

describe('CookieJar', () => {
  const page = new URL(`http://127.0.0.1:8080${PATH}`);

  it('sends the cookie back to the pages under its path only', () => {
    const jar = new CookieJar();
    jar.store(page, sessionSetCookie(SESSION, PATH, false));
    const expected = `${SCA_SESSION_COOKIE}=${SESSION}`;
    expect(jar.header(page)).toBe(expected);
    expect(jar.header(new URL(`${page.href}/code`))).toBe(expected);
    expect(jar.header(new URL(`${page.href}/`))).toBe(expected);
    expect(jar.header(new URL(`${page.href}0/code`))).toBeUndefined();
    expect(jar.header(new URL('http://127.0.0.1:8080/sca/other'))).toBeUndefined();
    expect(jar.header(new URL(`http://127.0.0.1:8081${PATH}`))).toBeUndefined();
    expect(new CookieJar().header(page)).toBeUndefined();
  });

  it('keeps a Secure cookie off plain HTTP but to loopback, as browsers do', () => {
    const remote = new URL(`https://bank.example${PATH}`);
    const jar = new CookieJar();
    jar.store(remote, sessionSetCookie(SESSION, PATH, true));
    expect(jar.header(remote)).toBe(`${SCA_SESSION_COOKIE}=${SESSION}`);
    expect(jar.header(new URL(`http://bank.example${PATH}`))).toBeUndefined();
    const local = new CookieJar();
    local.store(page, sessionSetCookie(SESSION, PATH, true));
    expect(local.header(page)).toBe(`${SCA_SESSION_COOKIE}=${SESSION}`);
  });

  it('replaces a cookie of the same name and path, drops expired ones, and defaults the path to the request’s directory', () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const jar = new CookieJar(() => now);
    jar.store(page, [`a=1; Path=${PATH}`, `b=2; Path=${PATH}; Max-Age=60`, 'c=3']);
    jar.store(page, `a=4; Path=${PATH}`);
    expect(jar.header(page)).toBe('a=4; b=2; c=3');
    now += 61_000;
    expect(jar.header(page)).toBe('a=4; c=3');
    jar.store(page, `a=; Path=${PATH}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
    expect(jar.header(page)).toBe('c=3');
    expect(jar.header(new URL('http://127.0.0.1:8080/sca/another'))).toBe('c=3');
    expect(jar.header(new URL('http://127.0.0.1:8080/v1/payments'))).toBeUndefined();
  });

  it('keeps its cookies through JSON (psu sca between runs), leaving out anything that is not a cookie', () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const jar = new CookieJar(() => now);
    jar.store(page, [`a=1; Path=${PATH}; Secure`, `b=2; Path=${PATH}; Max-Age=60`]);
    const text = JSON.stringify(jar);
    const again = CookieJar.fromJSON([...(JSON.parse(text) as unknown[]), { name: 'x' }, 'junk'], () => now);
    expect(again.size).toBe(2);
    expect(again.header(page)).toBe('a=1; b=2');
    now += 61_000;
    expect(again.header(page)).toBe('a=1');
    expect(CookieJar.fromJSON({ not: 'a list' }).size).toBe(0);
  });
});
