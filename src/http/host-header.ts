import type { IncomingMessage } from 'node:http';
import { localized } from '../domain/localized.js';
import { AppError } from '../errors/app-error.js';
import { sentMoreThanOnce } from './headers/raw-headers.js';

/**
 * RFC 9112 §3.2 and RFC 3986 §3.2.2: `uri-host [ ":" port ]`, an IPv6 or IPv4 literal or a
 * registered name (possibly empty, percent-encoded, with `_` as proxies name upstreams). Refused on
 * purpose: an IPv6 zone id (`[fe80::1%25eth0]`; RFC 6874 §4 has clients strip it, and common
 * servers refuse it) and IPvFuture, which no client sends.
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without `Host`, with more than one, or
 * with one that is not a host. Node's own check answers a missing one with an empty 400 before any
 * hook, so the server turns it off (app.ts) and refuses here, with the error body. HTTP/1.0 has no
 * `Host` requirement.
 */
export function refuseBadHost(rawHeaders: ReadonlyMap<string, readonly string[]>, request: IncomingMessage): void {
  const hosts = rawHeaders.get('host');
  if (hosts === undefined) {
    if (request.httpVersionMajor === 1 && request.httpVersionMinor === 0) return;
    throw hostRefused('an HTTP/1.1 request must have a Host header', 'en HTTP/1.1-forespørsel må ha en Host-header');
  }
  if (hosts.length > 1) throw sentMoreThanOnce('Host');
  if (!HOST.test(hosts[0] ?? '')) {
    throw hostRefused(
      'the Host header is not a host name with an optional port',
      'Host-headeren er ikke et vertsnavn med en eventuell port',
    );
  }
}

function hostRefused(en: string, nb: string): AppError {
  return new AppError('FORMAT_ERROR', { path: 'Host', detail: localized(en, nb) });
}
