/**
 * A damaged certificate is the TPP's error: whatever bytes arrive in TPP-Signature-Certificate,
 * the verifier answers a catalogue error (CERTIFICATE_INVALID and friends), never a crash that
 * would become a 500. Seeded, so a failure can be replayed.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { CertificateVerifier } from '../../src/security/certificates/certificate-verifier.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import { fixture } from '../support/fixtures.js';
import { linearCongruential as random } from '../support/seeded-random.js';

const pem = fixture('certs/generated/test-leaf-qsealc.pem');
const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const trust = new TrustStore([new X509Certificate(fixture('certs/generated/test-ca.pem'))]);

describe('damaged certificates', () => {
  it('answers 2,000 randomly damaged copies of a valid QSealC with catalogue errors only', () => {
    const next = random(20261120);
    const verifier = new CertificateVerifier(trust);
    const codes = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const damaged = Buffer.from(der);
      const flips = 1 + Math.floor(next() * 3);
      for (let f = 0; f < flips; f++) {
        damaged[Math.floor(next() * damaged.length)] = Math.floor(next() * 256);
      }
      try {
        verifier.verify(damaged.toString('base64'), new Date('2026-01-01T00:00:00Z'));
        codes.set('accepted', (codes.get('accepted') ?? 0) + 1);
      } catch (error) {
        expect(error, `variant ${i}`).toBeInstanceOf(AppError);
        const code = (error as AppError).code;
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }
    // Most damage breaks the CA's signature over the certificate; none may crash the verifier.
    expect(codes.get('CERTIFICATE_INVALID')).toBeGreaterThan(1500);
  });
});
