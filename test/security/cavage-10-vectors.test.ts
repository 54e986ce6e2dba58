import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestHeader } from '../../src/security/signature/digest.js';
import { parseSignatureParameters } from '../../src/security/signature/signature-parameters.js';
import { buildSigningString } from '../../src/security/signature/signing-string.js';
import { verifyRsaSignature } from '../../src/security/signature/verify-signature.js';
import { fixtureJson } from '../support/fixtures.js';

interface CavageVectors {
  keys: { publicKeyPem: string };
  request: { method: string; path: string; headers: [string, string][]; body: string };
  tests: { name: string; signingString: string; authorizationHeader: string; signatureHeader: string; signature: string }[];
}

const vectors = fixtureJson<CavageVectors>('cavage-10-test-vectors.json');
const publicKey = createPublicKey(vectors.keys.publicKeyPem);
const message = {
  method: vectors.request.method,
  target: vectors.request.path,
  header: (name: string) => {
    const values = vectors.request.headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
    return values.length > 0 ? values : undefined;
  },
};

// draft-cavage-http-signatures-10 Appendix C; the key is 1024-bit, so these exercise the
// signing-string and RSA layer below the Berlin Group certificate rules.
describe('draft-cavage-http-signatures-10 Appendix C', () => {
  it('the Digest of the body matches the vector request', () => {
    expect(digestHeader(vectors.request.body)).toBe(message.header('digest')?.[0]);
  });

  it.each(vectors.tests.map((test) => [test.name, test] as const))('%s', async (_name, test) => {
    for (const header of [test.authorizationHeader, test.signatureHeader]) {
      const parsed = parseSignatureParameters(header);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.value.keyId).toBe('Test');
      const signingString = buildSigningString(parsed.value.headers, message);
      expect(signingString.ok && signingString.bytes.toString('latin1')).toBe(test.signingString);
      if (signingString.ok) {
        expect(await verifyRsaSignature('sha256', signingString.bytes, publicKey, parsed.value.signature)).toBe(true);
        const tampered = Buffer.concat([signingString.bytes, Buffer.from(' ')]);
        expect(await verifyRsaSignature('sha256', tampered, publicKey, parsed.value.signature)).toBe(false);
      }
    }
  });
});
