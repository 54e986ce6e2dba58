import type { FastifyRequest } from 'fastify';
import type { Language } from '../domain/localized.js';
import type { RequestHeaders } from './headers/request-headers.js';
import type { CreatedAnswer } from './idempotency/created-answer.js';
import type { Psd2Role, TppIdentity } from '../security/tpp-identity.js';
import { pickLanguage } from './content-negotiation.js';
import { readRawHeaders } from './headers/raw-headers.js';

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
  /** The headers as received, repeats kept apart (read once, as the request arrives). */
  readonly rawHeaders: ReadonlyMap<string, readonly string[]>;
  /** The canonical name of the first single-valued header sent more than once, if any (headers/raw-headers.ts). */
  readonly repeatedHeader: string | undefined;
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
  const raw = readRawHeaders(request.raw.rawHeaders);
  return {
    language: pickLanguage(request.headers['accept-language']),
    requestId: undefined,
    tpp: undefined,
    headers: undefined,
    rawHeaders: raw.values,
    repeatedHeader: raw.repeated,
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

/** The validated request headers of a `/v1` request; the front door guarantees they are there. */
export function requestHeadersOf(request: FastifyRequest): RequestHeaders {
  const headers = request.ctx.headers;
  if (!headers) {
    throw new Error('requestHeadersOf() called on a route outside the /v1 front door');
  }
  return headers;
}
