import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { CertificateVerifier } from '../../src/security/certificates/certificate-verifier.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import { buildSigningString } from '../../src/security/signature/signing-string.js';
import { parseSignatureParameters } from '../../src/security/signature/signature-parameters.js';
import { verifySignedRequest, type SignedRequest } from '../../src/security/signature/verify-signed-request.js';
import { fixture, fixtureJson } from '../support/fixtures.js';

interface Vector {
  name: string;
  evaluateAt: string;
  request: {
    method: string;
    path: string;
    headers: { name: string; value?: string; valueBytesBase64?: string }[];
    body: string;
  };
  expectedSigningStringBase64: string;
  expected: { valid: true } | { valid: false; code: string };
}

const { vectors } = fixtureJson<{ vectors: Vector[] }>('psd2-signed-request-vectors.json');

const trust = new TrustStore([
  new X509Certificate(fixture('certs/generated/test-ca.pem')),
  new X509Certificate(fixture('certs/adorsys-xs2a/e-szigno-test-ca3.pem')),
]);

/** The request as the server sees it: header values as latin1 strings of the wire bytes. */
function asReceived(vector: Vector): SignedRequest {
  const headers = new Map<string, string[]>();
  for (const header of vector.request.headers) {
    const value =
      header.valueBytesBase64 !== undefined ? Buffer.from(header.valueBytesBase64, 'base64').toString('latin1') : (header.value ?? '');
    headers.set(header.name.toLowerCase(), [...(headers.get(header.name.toLowerCase()) ?? []), value]);
  }
  return {
    method: vector.request.method,
    target: vector.request.path,
    header: (name) => headers.get(name),
    body: Buffer.from(vector.request.body, 'utf8'),
  };
}

describe('Berlin Group signed-request vectors (test/fixtures/psd2-signed-request-vectors.json)', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))('%s', async (_name, vector) => {
    const request = asReceived(vector);
    const params = parseSignatureParameters(request.header('signature')?.[0] ?? '');
    expect(params.ok).toBe(true);
    if (params.ok) {
      const signingString = buildSigningString(params.value.headers, request);
      // The vectors' expected signing string is what the TPP signed; ours must be byte-equal
      // except where the vector deliberately breaks the rules (unsigned PSU-ID).
      if (signingString.ok) {
        expect(signingString.bytes.toString('base64')).toBe(vector.expectedSigningStringBase64);
      }
    }
    const outcome = verifySignedRequest(request, new CertificateVerifier(trust), {
      now: new Date(vector.evaluateAt),
      maxClockSkewSeconds: undefined,
    });
    if (vector.expected.valid) {
      const verified = await outcome;
      expect(verified.certificate.organizationIdentifier).toMatch(/^PSD/);
    } else {
      const error = await outcome.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(vector.expected.code);
    }
  });
});
