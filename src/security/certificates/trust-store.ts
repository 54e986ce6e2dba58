import { X509Certificate } from 'node:crypto';
import { x509 } from './x509.js';

/**
 * The certificate authorities whose QSealCs the bank accepts (docs/design.md §5): the sandbox's own
 * test CA, or a bank's QTSP bundle. A TPP certificate is trusted when one of them issued it and
 * was itself valid at the time of the request. Certificate revocation lists, when configured,
 * are accepted only when signed by one of these CAs.
 */
export class TrustStore {
  private readonly authorities: readonly TrustedAuthority[];
  private readonly revocationLists: readonly RevocationList[];

  constructor(authorities: readonly X509Certificate[], revocationLists: readonly RevocationList[] = []) {
    this.authorities = authorities.map((certificate) => ({
      certificate,
      validFrom: new Date(certificate.validFrom),
      validTo: new Date(certificate.validTo),
    }));
    this.revocationLists = revocationLists;
  }

  /**
   * The trusted CA that issued and signed `certificate`, if any. This costs a signature check, so
   * callers keep the answer (it does not change); {@link isValidAt} is the per-request part.
   */
  issuerOf(certificate: X509Certificate): TrustedAuthority | undefined {
    return this.authorities.find((ca) => certificate.checkIssued(ca.certificate) && certificate.verify(ca.certificate.publicKey));
  }

  /** A CA vouches for its certificates only while it is itself valid. */
  isValidAt(ca: TrustedAuthority, now: Date): boolean {
    return ca.validFrom <= now && now <= ca.validTo;
  }

  /** Whether a CRL signed by `issuer` (the CA that issued the certificate) lists it. */
  isRevoked(certificate: InstanceType<typeof x509.X509Certificate>, issuer: TrustedAuthority): boolean {
    return this.revocationLists.some(
      (list) => list.issuerFingerprint === issuer.certificate.fingerprint256 && list.crl.findRevoked(certificate) !== null,
    );
  }

  get size(): number {
    return this.authorities.length;
  }
}

export interface TrustedAuthority {
  readonly certificate: X509Certificate;
  readonly validFrom: Date;
  readonly validTo: Date;
}

/** Splits a PEM bundle into certificates. */
export function readPemBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

/** A certificate revocation list and the trusted CA whose signature it carries. */
export interface RevocationList {
  readonly crl: InstanceType<typeof x509.X509Crl>;
  readonly issuerFingerprint: string;
}

/** Reads a CRL (PEM or DER) and keeps it only when a trusted CA signed it. */
export async function readRevocationList(data: Buffer | string, authorities: readonly X509Certificate[]): Promise<RevocationList> {
  const crl = new x509.X509Crl(typeof data === 'string' ? data : new Uint8Array(data));
  for (const ca of authorities) {
    const issuer = new x509.X509Certificate(ca.raw);
    if (issuer.subject === crl.issuer && (await crl.verify({ publicKey: issuer.publicKey }))) {
      return { crl, issuerFingerprint: ca.fingerprint256 };
    }
  }
  throw new Error('the revocation list is not signed by a trusted certificate authority');
}
