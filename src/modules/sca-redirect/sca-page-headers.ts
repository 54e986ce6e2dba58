import type { FastifyReply } from 'fastify';
import { PAGE_STYLE_HASH } from './sca-pages.js';

/**
 * The headers of every PSU page: never cached, never framed (no clickjacking of the
 * approve button), no referrer (the link is a capability), and a CSP that allows nothing but the
 * page's own inline stylesheet and form posts to this server and to where the flow ends.
 *
 * `redirectTargets` are the TPP's redirect URIs: browsers apply form-action to the redirect that
 * answers a form post too, so the 303 to the TPP must be allowed by it.
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  redirectTargets: readonly (string | undefined)[] = [],
): FastifyReply {
  const origins = [...new Set(redirectTargets.filter((target) => target !== undefined).map((target) => new URL(target).origin))];
  const csp = [
    "default-src 'none'",
    `style-src '${PAGE_STYLE_HASH}'`,
    `form-action 'self'${origins.map((origin) => ` ${origin}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', csp)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

/** A 303 See Other after a form post, with the same no-store and no-referrer rules. */
export function sendRedirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
}
