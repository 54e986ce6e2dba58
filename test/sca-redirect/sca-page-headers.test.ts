/**
 * The headers of every PSU page, through a real Fastify reply: never cached, never
 * framed, no referrer, and a CSP that allows only the page's own stylesheet (by hash) and form
 * posts to this server and to the origins of the TPP's redirect targets (the 303 after a post).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPage, sendRedirect } from '../../src/modules/sca-redirect/sca-page-headers.js';
import { PAGE_STYLE_HASH } from '../../src/modules/sca-redirect/sca-pages.js';

const HTML = '<!doctype html><html lang="en"><body><h1>Hi</h1></body></html>';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.get('/plain', async (_request, reply) => sendPage(reply, 200, HTML));
  app.get('/targets', async (_request, reply) =>
    sendPage(reply, 400, HTML, [
      'https://tpp.example/callback?state=abc',
      undefined,
      'https://tpp.example/other/path',
      'https://nok.tpp.example:8443/failed#x',
      'http://localhost:3000/cb',
    ]),
  );
  app.get('/none', async (_request, reply) => sendPage(reply, 404, HTML, [undefined, undefined]));
  app.get('/redirect', async (_request, reply) => sendRedirect(reply, 'https://tpp.example/callback?code=x'));
  await app.ready();
});

afterAll(() => app?.close());

function directives(csp: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (typeof csp === 'string' ? csp : '').split(';')) {
    const [name = '', ...values] = part.trim().split(/\s+/);
    if (name !== '') map.set(name, values.join(' '));
  }
  return map;
}

describe('sendPage', () => {
  it('sends the HTML with the status, as UTF-8 HTML, never cached, framed or sniffed', async () => {
    const response = await app.inject({ method: 'GET', url: '/plain' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(HTML);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('allows nothing by default, the stylesheet by its hash, no framing and no <base>', async () => {
    const response = await app.inject({ method: 'GET', url: '/plain' });
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('style-src')).toBe(`'${PAGE_STYLE_HASH}'`);
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'none'");
    expect(csp.has('script-src')).toBe(false);
    expect([...csp.values()].join(' ')).not.toMatch(/unsafe|\*/);
  });

  it('lets forms post only to this server when there are no redirect targets', async () => {
    for (const url of ['/plain', '/none']) {
      const response = await app.inject({ method: 'GET', url });
      expect(directives(response.headers['content-security-policy']).get('form-action')).toBe("'self'");
    }
    expect((await app.inject({ method: 'GET', url: '/none' })).statusCode).toBe(404);
  });

  it('adds the origin (not the path) of each redirect target to form-action, once each', async () => {
    const response = await app.inject({ method: 'GET', url: '/targets' });
    expect(response.statusCode).toBe(400);
    expect(directives(response.headers['content-security-policy']).get('form-action')).toBe(
      "'self' https://tpp.example https://nok.tpp.example:8443 http://localhost:3000",
    );
    expect(response.headers['content-security-policy']).not.toContain('callback');
    expect(response.headers['content-security-policy']).not.toContain('state=');
  });
});

describe('sendRedirect', () => {
  it('answers 303 See Other to the location, not cached and without referrer', async () => {
    const response = await app.inject({ method: 'GET', url: '/redirect' });
    expect(response.statusCode).toBe(303);
    expect(response.headers['location']).toBe('https://tpp.example/callback?code=x');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toBe('');
  });
});
