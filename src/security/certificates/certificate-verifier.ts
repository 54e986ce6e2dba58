import { AppError } from '../../errors/app-error.js';
import { decodeCertificateHeader, readTppCertificate, type TppCertificate } from './tpp-certificate.js';
import type { TrustedAuthority, TrustStore } from './trust-store.js';

const CERTIFICATE_HEADER = 'TPP-Signature-Certificate';

/** How many distinct certificates are kept parsed; a TPP population is small, so this is ample. */
const CACHE_SIZE = 1_000;

interface CacheEntry {
  readonly certificate: TppCertificate | undefined;
  /** The trusted CA that issued it, found once. */
  readonly issuer: TrustedAuthority | undefined;
  /** The part of the verdict that does not depend on the time: parse, profile, block, revocation. */
  readonly standingError: AppError | undefined;
}

/**
 * Checks TPP-Signature-Certificate values (docs/design.md §5, docs/design.md §5): a parseable
 * X.509 certificate that is a PSD2 QSealC, issued by a trusted CA, valid now, neither blocked by
 * the bank nor revoked by its issuer. Parsing is done once per certificate (it costs ~140 µs);
 * the cache is keyed by the header text, so a repeat costs one map look-up.
 */
export class CertificateVerifier {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly trustStore: TrustStore,
    private readonly blockedFingerprints: ReadonlySet<string> = new Set(),
  ) {}

  verify(headerValue: string, now: Date): TppCertificate {
    const entry = this.lookup(headerValue);
    if (entry.standingError || !entry.certificate) {
      throw entry.standingError ?? new AppError('CERTIFICATE_INVALID');
    }
    const certificate = entry.certificate;
    if (now > certificate.notAfter) {
      throw new AppError('CERTIFICATE_EXPIRED', {
        path: CERTIFICATE_HEADER,
        detail: { en: `it expired on ${certificate.notAfter.toISOString()}`, nb: `det utløp ${certificate.notAfter.toISOString()}` },
      });
    }
    if (now < certificate.notBefore) {
      throw new AppError('CERTIFICATE_INVALID', {
        path: CERTIFICATE_HEADER,
        detail: {
          en: `it is not valid before ${certificate.notBefore.toISOString()}`,
          nb: `det er ikke gyldig før ${certificate.notBefore.toISOString()}`,
        },
      });
    }
    if (!entry.issuer || !this.trustStore.isValidAt(entry.issuer, now)) {
      throw untrusted(certificate);
    }
    return certificate;
  }

  private lookup(headerValue: string): CacheEntry {
    const cached = this.cache.get(headerValue);
    if (cached) {
      // Least recently used goes first: refresh the entry's place on every hit.
      this.cache.delete(headerValue);
      this.cache.set(headerValue, cached);
      return cached;
    }
    const entry = this.analyse(headerValue);
    if (this.cache.size >= CACHE_SIZE) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) {
        this.cache.delete(oldest.value);
      }
    }
    this.cache.set(headerValue, entry);
    return entry;
  }

  private analyse(headerValue: string): CacheEntry {
    const der = decodeCertificateHeader(headerValue);
    const certificate = der ? readTppCertificate(der) : undefined;
    if (!certificate) {
      return {
        certificate: undefined,
        issuer: undefined,
        standingError: new AppError('CERTIFICATE_INVALID', {
          detail: {
            en: 'TPP-Signature-Certificate is not a base64 DER or PEM X.509 certificate',
            nb: 'TPP-Signature-Certificate er ikke et X.509-sertifikat i base64 DER eller PEM',
          },
          path: CERTIFICATE_HEADER,
        }),
      };
    }
    const issuer = issuerOf(this.trustStore, certificate);
    if (certificate.profileProblems.length > 0) {
      const problems = certificate.profileProblems.join('; ');
      return {
        certificate,
        issuer,
        standingError: new AppError('CERTIFICATE_INVALID', { detail: { en: problems, nb: problems }, path: CERTIFICATE_HEADER }),
      };
    }
    if (this.blockedFingerprints.has(certificate.fingerprint)) {
      return { certificate, issuer, standingError: new AppError('CERTIFICATE_BLOCKED', { path: CERTIFICATE_HEADER }) };
    }
    if (issuer && this.trustStore.isRevoked(certificate.parsed, issuer)) {
      return { certificate, issuer, standingError: new AppError('CERTIFICATE_REVOKED', { path: CERTIFICATE_HEADER }) };
    }
    return { certificate, issuer, standingError: undefined };
  }
}

/** A certificate whose signature cannot even be checked against a CA has no trusted issuer. */
function issuerOf(trustStore: TrustStore, certificate: TppCertificate): TrustedAuthority | undefined {
  try {
    return trustStore.issuerOf(certificate.node);
  } catch {
    return undefined;
  }
}

function untrusted(certificate: TppCertificate): AppError {
  return new AppError('CERTIFICATE_INVALID', {
    path: CERTIFICATE_HEADER,
    detail: {
      en: `it is not issued by a certificate authority this bank trusts (issuer: ${certificate.issuerText})`,
      nb: `det er ikke utstedt av en sertifikatutsteder banken stoler på (utsteder: ${certificate.issuerText})`,
    },
  });
}
