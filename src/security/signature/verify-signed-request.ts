import { AppError } from '../../errors/app-error.js';
import { localized } from '../../domain/localized.js';
import type { CertificateVerifier } from '../certificates/certificate-verifier.js';
import type { TppCertificate } from '../certificates/tpp-certificate.js';
import { digestMatches, parseDigest } from './digest.js';
import { parseKeyId } from './key-id.js';
import { sameAttributes } from './distinguished-name.js';
import { parseSignatureParameters } from './signature-parameters.js';
import { ALWAYS_SIGNED, SIGNED_WHEN_PRESENT } from './signed-headers.js';
import { buildSigningString, type MessageParts } from './signing-string.js';
import { verifyRsaSignature } from './verify-signature.js';
import { parseHttpDate } from '../../domain/http-date.js';

export interface SignedRequest extends MessageParts {
  readonly body: Buffer;
}

export interface SignaturePolicy {
  readonly now: Date;
  /** Largest accepted distance between Date and now; undefined disables the check (test vectors). */
  readonly maxClockSkewSeconds: number | undefined;
}

export interface VerifiedRequest {
  readonly certificate: TppCertificate;
  readonly keyId: string;
  readonly signedHeaders: readonly string[];
}

/** Signature algorithms accepted, by the name in `algorithm` (lower-cased). */
const ALGORITHMS: Record<string, 'sha256' | 'sha512'> = {
  'rsa-sha256': 'sha256',
  'rsa-sha512': 'sha512',
  sha256withrsa: 'sha256',
  sha512withrsa: 'sha512',
};

/**
 * Verifies a Berlin Group signed request: draft-cavage-http-signatures-10 with the PSD2 rules
 * (keyId `SN=…,CA=…` naming the certificate in TPP-Signature-Certificate, the mandatory signed
 * headers, a Digest over the body). The order of checks follows docs/design.md §5, and each
 * failure throws the AppError docs/design.md §5 names.
 */
export async function verifySignedRequest(
  request: SignedRequest,
  certificates: CertificateVerifier,
  policy: SignaturePolicy,
): Promise<VerifiedRequest> {
  const signatureHeader = single(request, 'signature', 'SIGNATURE_MISSING');
  const certificateHeader = single(request, 'tpp-signature-certificate', 'CERTIFICATE_MISSING');
  const digestHeader = single(request, 'digest', 'FORMAT_ERROR');
  const dateHeader = single(request, 'date', 'FORMAT_ERROR');

  const digest = parseDigest(digestHeader);
  if (!digest.ok) {
    throw new AppError('FORMAT_ERROR', { detail: digest.problem, path: 'Digest' });
  }
  checkDate(dateHeader, policy);

  const parameters = parseSignatureParameters(signatureHeader);
  if (!parameters.ok) {
    throw new AppError('SIGNATURE_INVALID', { detail: parameters.problem, path: 'Signature' });
  }
  const { keyId, algorithm, headers, signature } = parameters.value;

  const certificate = certificates.verify(certificateHeader, policy.now);

  const parsedKeyId = parseKeyId(keyId);
  if (!parsedKeyId) {
    throw invalid('keyId must be SN=<certificate serial in hex>,CA=<issuer distinguished name>');
  }
  if (parsedKeyId.serial !== certificate.serial || !sameAttributes(parsedKeyId.issuer, certificate.issuer)) {
    throw invalid('keyId does not name the certificate sent in TPP-Signature-Certificate');
  }

  const hash = ALGORITHMS[(algorithm ?? 'rsa-sha256').toLowerCase()];
  if (!hash) {
    throw invalid(`algorithm "${algorithm ?? ''}" is not supported; use rsa-sha256`);
  }

  for (const name of ALWAYS_SIGNED) {
    if (!headers.includes(name)) {
      throw invalid(`the signature must cover the ${name} header`);
    }
  }
  for (const name of SIGNED_WHEN_PRESENT) {
    if (request.header(name) !== undefined && !headers.includes(name)) {
      throw invalid(`the request has a ${name} header, so the signature must cover it`);
    }
  }

  const signingString = buildSigningString(headers, request);
  if (!signingString.ok) {
    throw invalid(`the signed header ${signingString.missingHeader} is not in the request`);
  }
  if (!digestMatches(digest.instances, request.body)) {
    throw invalid('the Digest header does not match the body');
  }
  if (!(await verifyRsaSignature(hash, signingString.bytes, certificate.publicKey, signature))) {
    throw invalid('the signature does not verify with the certificate key');
  }
  return { certificate, keyId, signedHeaders: headers };
}

function single(
  request: SignedRequest,
  name: string,
  codeWhenMissing: 'SIGNATURE_MISSING' | 'CERTIFICATE_MISSING' | 'FORMAT_ERROR',
): string {
  const values = request.header(name);
  const first = values?.[0];
  if (values?.length === 1 && first !== undefined && first.trim() !== '') return first;
  // Refused. The header's name as a client writes it is made here only: a regular expression per
  // header on every signed request is measurable.
  const canonical = canonicalName(name);
  if (first === undefined || first.trim() === '') {
    throw new AppError(codeWhenMissing, {
      ...(codeWhenMissing === 'FORMAT_ERROR'
        ? { detail: localized(`the ${canonical} header is missing`, `${canonical}-headeren mangler`) }
        : {}),
      path: canonical,
    });
  }
  throw new AppError('FORMAT_ERROR', {
    detail: localized(`the ${canonical} header is sent more than once`, `${canonical}-headeren er sendt mer enn én gang`),
    path: canonical,
  });
}

function checkDate(value: string, policy: SignaturePolicy): void {
  const date = parseHttpDate(value, policy.now);
  if (!date.ok) throw new AppError('FORMAT_ERROR', { detail: date.reason, path: 'Date' });
  const time = date.value.getTime();
  if (policy.maxClockSkewSeconds !== undefined) {
    const skewSeconds = Math.abs(policy.now.getTime() - time) / 1000;
    if (skewSeconds > policy.maxClockSkewSeconds) {
      throw new AppError('TIMESTAMP_INVALID', {
        detail: localized(
          `Date is ${Math.round(skewSeconds)} s away from the bank's clock; at most ${policy.maxClockSkewSeconds} s is accepted`,
          `Date avviker ${Math.round(skewSeconds)} s fra bankens klokke; høyst ${policy.maxClockSkewSeconds} s godtas`,
        ),
        path: 'Date',
      });
    }
  }
}

function invalid(detail: string): AppError {
  return new AppError('SIGNATURE_INVALID', { detail, path: 'Signature' });
}

function canonicalName(name: string): string {
  return name === 'tpp-signature-certificate'
    ? 'TPP-Signature-Certificate'
    : name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}
