import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { localized } from '../domain/localized.js';
import type { CertificateVerifier } from '../security/certificates/certificate-verifier.js';
import { SANDBOX_TPP } from '../security/sandbox-tpp.js';
import type { TppIdentity } from '../security/tpp-identity.js';
import { verifySignedRequest } from '../security/signature/verify-signed-request.js';
import { tppIdentityOf } from '../security/certificates/tpp-certificate.js';
import { acceptsJson } from './content-negotiation.js';
import { checkRequestId } from './headers/request-id.js';
import { parseRequestHeaders, type RequestHeaders } from './headers/request-headers.js';
import { sentMoreThanOnce } from './headers/raw-headers.js';
import { checkNorwegianIdentityNumber } from '../domain/norwegian-identity-number.js';
import { parseJsonBody, readBodyOfBodilessMethod } from './json-body.js';

export interface FrontDoorOptions {
  /** `/v1` routes are signed; the sandbox certificate desk is not (its caller has no certificate yet). */
  readonly signed: boolean;
  /**
   * For an unsigned scope: verify a signature when the request carries one anyway, and know the
   * TPP (the sandbox desk's key rotation is proven so).
   */
  readonly verifiesSignatureWhenSent?: boolean;
  readonly requireSignature: boolean;
  readonly maxClockSkewSeconds: number;
  readonly certificates: CertificateVerifier;
  readonly now: () => Date;
  /** Called once per verified request; records the TPP on first contact. */
  readonly onTpp: (tpp: TppIdentity) => Promise<void>;
  /** The PSU a bearer token (from the PSU pre-step) identifies for this TPP; absent: tokens are refused. */
  readonly psuOfToken?: ((tpp: TppIdentity, token: string) => Promise<string>) | undefined;
}

/**
 * The checks every API request passes before its handler, in this order (docs/design.md §2, §5):
 * X-Request-ID, no single-valued header sent twice, Accept, then the signature and certificate, then the body's JSON syntax, then the
 * Berlin Group headers, then the route's PSD2 role. Route schemas validate the body after this.
 */
export function installFrontDoor(scope: FastifyInstance, options: FrontDoorOptions): void {
  scope.addHook('onRequest', async (request) => {
    const raw = request.ctx.rawHeaders;
    // The root hook has recorded a valid X-Request-ID; only a refusal needs to look again.
    if (request.ctx.requestId === undefined) {
      const requestId = request.headers['x-request-id'];
      if ((raw.get('x-request-id')?.length ?? 0) > 1) throw sentMoreThanOnce('X-Request-ID');
      if (requestId === undefined) {
        throw new AppError('FORMAT_ERROR', {
          detail: localized('the X-Request-ID header is missing', 'X-Request-ID-headeren mangler'),
          path: 'X-Request-ID',
        });
      }
      const checked = checkRequestId(String(requestId));
      throw new AppError('FORMAT_ERROR', {
        detail: checked.ok ? localized('must be sent once') : checked.reason,
        path: 'X-Request-ID',
      });
    }
    if (request.ctx.repeatedHeader !== undefined) throw sentMoreThanOnce(request.ctx.repeatedHeader);
    if (!acceptsJson(request.headers.accept)) {
      throw new AppError('ACCEPT_UNSUPPORTED', { path: 'Accept' });
    }
  });

  scope.addHook('preValidation', async (request) => {
    await readBodyOfBodilessMethod(request);
    if (options.signed || (options.verifiesSignatureWhenSent && carriesSignature(request))) {
      request.ctx.tpp = await identify(request, request.ctx.rawHeaders, options);
    }
    parseJsonBody(request);
    const headers = parseRequestHeaders((name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    });
    if (!headers.ok) {
      throw new AppError('FORMAT_ERROR', { detail: headers.reason, path: headers.header });
    }
    request.ctx.headers = await withTokenPsu(request, headers.value, options);
    const requiredRole = request.routeOptions.config.requiredRole;
    if (requiredRole && request.ctx.tpp && !request.ctx.tpp.roles.includes(requiredRole)) {
      throw new AppError('ROLE_INVALID', {
        detail: localized(`${requiredRole} is required`, `${requiredRole} kreves`),
      });
    }
  });
}

async function identify(
  request: FastifyRequest,
  rawHeaders: ReadonlyMap<string, readonly string[]>,
  options: FrontDoorOptions,
): Promise<TppIdentity> {
  // Unsigned requests act as the sandbox TPP only when they carry no signing material at all: a
  // request with a certificate but no signature is a forgotten signature, refused as such.
  if (!options.requireSignature && !carriesSignature(request) && request.headers['tpp-signature-certificate'] === undefined) {
    await options.onTpp(SANDBOX_TPP);
    return SANDBOX_TPP;
  }
  const headers = withSignatureOfAuthorization(rawHeaders);
  const verified = await verifySignedRequest(
    {
      method: request.raw.method ?? request.method,
      target: request.raw.url ?? request.url,
      header: (name) => headers.get(name),
      body: request.ctx.rawBody ?? EMPTY,
    },
    options.certificates,
    { now: options.now(), maxClockSkewSeconds: options.maxClockSkewSeconds },
  );
  const tpp = tppIdentityOf(verified.certificate);
  await options.onTpp(tpp);
  return tpp;
}

const EMPTY = Buffer.alloc(0);
// draft-cavage-http-signatures-10 §3.1: the same parameters may come as `Authorization: Signature
// <params>` instead of a Signature header (Berlin Group uses the latter); the scheme name in any case.
const SIGNATURE_SCHEME = /^Signature +(\S.*)$/is;

function signatureOfAuthorization(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : SIGNATURE_SCHEME.exec(authorization.trim())?.[1];
}

function carriesSignature(request: FastifyRequest): boolean {
  return request.headers.signature !== undefined || signatureOfAuthorization(request.headers.authorization) !== undefined;
}

/**
 * The headers the signature check reads, with an `Authorization: Signature …` as the Signature
 * header. Both at once is refused: which one the TPP meant cannot be told.
 */
function withSignatureOfAuthorization(headers: ReadonlyMap<string, readonly string[]>): ReadonlyMap<string, readonly string[]> {
  const parameters = signatureOfAuthorization(headers.get('authorization')?.[0]);
  if (parameters === undefined) return headers;
  if (headers.has('signature')) {
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        'the signature is sent both in Signature and in Authorization: Signature; send it once, in the Signature header',
        'signaturen er sendt både i Signature og i Authorization: Signature; send den én gang, i Signature-headeren',
      ),
      path: 'Authorization',
    });
  }
  return new Map(headers).set('signature', [parameters]);
}
// RFC 9110 §11.1: the scheme name is case-insensitive (`bearer` is Bearer), and one or more spaces
// separate it from the token (token68).
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,512})$/i;

/**
 * A PSU access token (`Authorization: Bearer …`) identifies the PSU as PSU-ID would (docs/design.md §2).
 * Sent with PSU-ID, both must name the same PSU.
 */
async function withTokenPsu(request: FastifyRequest, headers: RequestHeaders, options: FrontDoorOptions): Promise<RequestHeaders> {
  const authorization = request.headers.authorization;
  // An Authorization carrying the signature is no PSU token; the signature check has read it.
  if (authorization === undefined || signatureOfAuthorization(authorization) !== undefined) return headers;
  const token = BEARER.exec(authorization)?.[1];
  const tpp = request.ctx.tpp;
  if (token === undefined || !tpp || !options.psuOfToken) {
    throw new AppError('TOKEN_INVALID', {
      path: 'Authorization',
      detail: localized('send "Authorization: Bearer <access_token>"', 'send "Authorization: Bearer <access_token>"'),
    });
  }
  const psuId = await options.psuOfToken(tpp, token);
  if (headers.psuId !== undefined && headers.psuId.number !== psuId) {
    throw new AppError('TOKEN_INVALID', {
      path: 'PSU-ID',
      detail: localized('PSU-ID names another PSU than the access token', 'PSU-ID angir en annen kunde enn tilgangstokenet'),
    });
  }
  const checked = checkNorwegianIdentityNumber(psuId);
  if (!checked.ok) throw new Error(`a PSU token names a malformed PSU-ID`);
  return { ...headers, psuId: checked.value };
}
