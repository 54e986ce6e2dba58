import { randomUUID, sign, type KeyObject } from 'node:crypto';
import { digestHeader } from '../security/signature/digest.js';
import { ALSO_SIGNED_BY_SDK, ALWAYS_SIGNED, SIGNED_WHEN_PRESENT } from '../security/signature/signed-headers.js';
import { buildSigningString } from '../security/signature/signing-string.js';

/** What a TPP signs with: its QSealC private key, the certificate and the keyId naming it. */
export interface SigningCredentials {
  readonly privateKey: KeyObject;
  /** The QSealC, PEM or base64 DER; sent in TPP-Signature-Certificate. */
  readonly certificate: string;
  /** `SN=<serial hex>,CA=<issuer DN>`. */
  readonly keyId: string;
}

export interface UnsignedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/tpps/NO-FSA-1/contact-information`. */
  readonly path: string;
  /** Header names in any case; X-Request-ID is added when absent. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface SignOptions {
  /** The Date header; now by default. */
  readonly date?: Date;
  /**
   * Also sign `(request-target)`, binding the signature to the method and path so it cannot be
   * replayed against another operation. On by default; the Norwegian profile does not demand it.
   */
  readonly signRequestTarget?: boolean;
  readonly digestAlgorithm?: 'sha256' | 'sha512';
  /**
   * Also sign the headers the requirement leaves optional (TPP-Nok-Redirect-URI). On by default;
   * off signs exactly what the Norwegian profile requires, as a minimal conformant TPP does.
   */
  readonly signOptionalHeaders?: boolean;
}

/**
 * Adds Digest, Date, X-Request-ID, TPP-Signature-Certificate and Signature to a request, the way
 * a Berlin Group TPP does (draft-cavage-http-signatures-10, rsa-sha256). The signing string is
 * built over the header bytes as they will be sent (latin1), so non-ASCII values sign correctly
 * when the caller sends them as latin1 strings of their bytes.
 */
export function signRequest(request: UnsignedRequest, credentials: SigningCredentials, options: SignOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  const body = request.body ?? Buffer.alloc(0);
  headers['x-request-id'] ??= randomUUID();
  headers['digest'] = digestHeader(body, options.digestAlgorithm ?? 'sha256');
  headers['date'] = (options.date ?? new Date()).toUTCString();
  headers['tpp-signature-certificate'] = certificateHeader(credentials.certificate);

  const signed = [
    ...(options.signRequestTarget === false ? [] : ['(request-target)']),
    ...ALWAYS_SIGNED,
    ...[...SIGNED_WHEN_PRESENT, ...(options.signOptionalHeaders === false ? [] : ALSO_SIGNED_BY_SDK)].filter(
      (name) => headers[name] !== undefined,
    ),
  ];
  // The same signing-string builder the server verifies with, over the same header values.
  const signingString = buildSigningString(signed, {
    method: request.method,
    target: request.path,
    header: (name) => (headers[name] === undefined ? undefined : [headers[name]]),
  });
  if (!signingString.ok) {
    throw new Error(`cannot sign: header ${signingString.missingHeader} is missing`);
  }
  const signature = sign('sha256', signingString.bytes, credentials.privateKey).toString('base64');
  headers['signature'] = `keyId="${credentials.keyId}",algorithm="rsa-sha256",headers="${signed.join(' ')}",signature="${signature}"`;
  return headers;
}

/** The certificate as one line of base64 DER, the form the Berlin Group documents. */
export function certificateHeader(certificate: string): string {
  return certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
