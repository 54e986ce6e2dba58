import type { FastifyRequest } from 'fastify';
import type { Language } from '../domain/localized.js';
import type { RequestHeaders } from './headers/request-headers.js';
import type { CreatedAnswer } from './idempotency/created-answer.js';
import type { Psd2Role, TppIdentity } from '../security/tpp-identity.js';
import { pickLanguage } from './content-negotiation.js';

/**
 * What the front door learned about a request, for the handlers behind it: who sent it (from the
 * verified certificate), its X-Request-ID, its validated Berlin Group headers and the raw body
 * bytes that the Digest covered.
 */
export interface RequestContext {
  language: Language;
  /** A valid X-Request-ID, once checked; echoed on the response. */
  requestId: string | undefined;
  /** The calling TPP, set by the signature check on `/v1` routes. */
  tpp: TppIdentity | undefined;
  /** The validated PSU-/TPP- headers, set on API routes after the signature check. */
  headers: RequestHeaders | undefined;
  /** The headers as received, repeats kept apart (`/v1` routes; read once by the front door). */
  rawHeaders: ReadonlyMap<string, readonly string[]> | undefined;
  /** The body exactly as received (the Digest is computed over these bytes). */
  rawBody: Buffer | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /** The PSD2 role the route needs (docs/design.md §5): PIS needs PSP_PI. */
    requiredRole?: Psd2Role;
    /**
     * A POST that creates a resource: its handler returns the service's CreatedResource, and this
     * turns it into the answer, stored in the transaction that creates the resource (idempotency.plugin.ts).
     */
    answer?: CreatedAnswer;
  }
}

export function newRequestContext(request: FastifyRequest): RequestContext {
  return {
    language: pickLanguage(request.headers['accept-language']),
    requestId: undefined,
    tpp: undefined,
    headers: undefined,
    rawHeaders: undefined,
    rawBody: undefined,
  };
}

/** The language for a request's texts, also when the error struck before the context existed. */
export function languageOf(request: FastifyRequest): Language {
  return (request.ctx as RequestContext | undefined)?.language ?? pickLanguage(request.headers['accept-language']);
}

/** The verified TPP of a `/v1` request; the front door guarantees it is there. */
export function tppOf(request: FastifyRequest): TppIdentity {
  const tpp = request.ctx.tpp;
  if (!tpp) {
    throw new Error('tppOf() called on a route outside the signed /v1 scope');
  }
  return tpp;
}

/** The headers as received, repeats kept apart; the front door guarantees they are there (its onRequest hook reads them first). */
export function rawHeadersOf(request: FastifyRequest): ReadonlyMap<string, readonly string[]> {
  const rawHeaders = request.ctx.rawHeaders;
  if (!rawHeaders) {
    throw new Error('rawHeadersOf() called on a route outside the front door');
  }
  return rawHeaders;
}

/** The validated request headers of a `/v1` request; the front door guarantees they are there. */
export function requestHeadersOf(request: FastifyRequest): RequestHeaders {
  const headers = request.ctx.headers;
  if (!headers) {
    throw new Error('requestHeadersOf() called on a route outside the /v1 front door');
  }
  return headers;
}
