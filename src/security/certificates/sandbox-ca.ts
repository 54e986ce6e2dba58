import { randomBytes, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { sandboxCaFiles } from '../../config/data-dir.js';
import { rsaKeyPairFor } from '../rsa-key-pairs.js';
import { encodeQsealcStatements, QC_STATEMENTS_OID } from './qc-statements.js';
import { x509 } from './x509.js';
import type { Psd2Role } from '../tpp-identity.js';

const SIGNING = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const CA_YEARS = 10;
const QSEALC_DAYS = 825;

/** organizationIdentifier per ETSI TS 119 495 §5.2.1: PSD + country + '-' + NCA + '-' + id. */
export const ORGANIZATION_IDENTIFIER = /^PSD[A-Z]{2}-[A-Z]{2,8}-[A-Za-z0-9]{1,35}$/;

export interface QsealcRequest {
  readonly organizationIdentifier: string;
  readonly name: string;
  readonly roles: readonly Psd2Role[];
  /** SPKI of the TPP's RSA key. */
  readonly publicKey: KeyObject;
  readonly ncaName?: string;
  /** Host names (or IP addresses) the certificate secures, written to its subjectAltName. */
  readonly domains?: readonly string[];
}

export interface IssuedQsealc {
  readonly certificatePem: string;
  readonly serialNumber: string;
  readonly keyId: string;
  readonly notAfter: Date;
}

/**
 * The sandbox's own certificate authority (docs/design.md §5): created on first start in the data
 * directory, trusted by the sandbox, and used to issue QSealCs to TPPs (CLI and endpoint) so
 * that anyone can sign requests without a real QTSP. Never trusted in production mode.
 */
export class SandboxCa {
  private constructor(
    readonly certificatePem: string,
    private readonly privateKey: webcrypto.CryptoKey,
    private readonly certificate: InstanceType<typeof x509.X509Certificate>,
  ) {}

  /** The CA certificate, for the trust store. */
  trustAnchor(): X509Certificate {
    return new X509Certificate(this.certificatePem);
  }

  /** Loads the CA from `<dataDir>/sandbox-ca/`, creating it there on first use. */
  static async open(dataDir: string): Promise<SandboxCa> {
    const { dir, certificate: certPath, privateKey: keyPath } = sandboxCaFiles(dataDir);
    if (existsSync(certPath) && existsSync(keyPath)) {
      const pem = readFileSync(certPath, 'utf8');
      const key = await webcrypto.subtle.importKey('pkcs8', pemBody(readFileSync(keyPath, 'utf8')), SIGNING, false, ['sign']);
      return new SandboxCa(pem, key, new x509.X509Certificate(pem));
    }
    const keys = await rsaKeyPairFor(keyPath);
    const notBefore = new Date(Date.now() - 60_000);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(),
      name: [{ C: ['NO'] }, { O: ['nordic-xs2a sandbox'] }, { CN: ['nordic-xs2a Sandbox QSealC CA'] }],
      notBefore,
      notAfter: new Date(notBefore.getTime() + CA_YEARS * 365 * 86_400_000),
      signingAlgorithm: SIGNING,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(keyPath, toPem('PRIVATE KEY', pkcs8), { mode: 0o600 });
    writeFileSync(certPath, certificate.toString('pem'));
    return new SandboxCa(certificate.toString('pem'), keys.privateKey, certificate);
  }

  async issueQsealc(request: QsealcRequest, now: Date = new Date()): Promise<IssuedQsealc> {
    const publicKey = await webcrypto.subtle.importKey('spki', request.publicKey.export({ type: 'spki', format: 'der' }), SIGNING, true, [
      'verify',
    ]);
    const notBefore = new Date(now.getTime() - 60_000);
    const notAfter = new Date(notBefore.getTime() + QSEALC_DAYS * 86_400_000);
    const serialNumber = randomSerial();
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber,
      subject: [{ C: ['NO'] }, { O: [request.name] }, { '2.5.4.97': [request.organizationIdentifier] }, { CN: [request.name] }],
      issuer: this.certificate.subjectName.toJSON(),
      notBefore,
      notAfter,
      publicKey,
      signingKey: this.privateKey,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        await x509.AuthorityKeyIdentifierExtension.create(this.certificate, false),
        await x509.SubjectKeyIdentifierExtension.create(publicKey),
        new x509.Extension(
          QC_STATEMENTS_OID,
          false,
          encodeQsealcStatements({
            roles: request.roles,
            ncaName: request.ncaName ?? 'Finanstilsynet (Financial Supervisory Authority of Norway)',
            ncaId: ncaIdOf(request.organizationIdentifier),
          }),
        ),
        ...(request.domains && request.domains.length > 0
          ? [
              new x509.SubjectAlternativeNameExtension(
                request.domains.map((domain) => ({ type: isIP(domain) === 0 ? ('dns' as const) : ('ip' as const), value: domain })),
              ),
            ]
          : []),
      ],
    });
    return {
      certificatePem: certificate.toString('pem'),
      serialNumber: certificate.serialNumber.toUpperCase(),
      keyId: keyIdFor(certificate),
      // The certificate's own value: X.509 times have whole seconds, so `notAfter` above may not.
      notAfter: certificate.notAfter,
    };
  }

  async revocationList(revokedSerials: readonly string[], now: Date = new Date()): Promise<string> {
    const crl = await x509.X509CrlGenerator.create({
      issuer: this.certificate.subjectName.toJSON(),
      thisUpdate: now,
      nextUpdate: new Date(now.getTime() + 7 * 86_400_000),
      signingAlgorithm: SIGNING,
      signingKey: this.privateKey,
      entries: revokedSerials.map((serialNumber) => ({ serialNumber: serialNumber.toLowerCase(), revocationDate: now })),
    });
    return crl.toString('pem');
  }
}

/** `SN=<serial hex>,CA=<issuer DN>` as the Berlin Group keyId wants it. */
export function keyIdFor(certificate: InstanceType<typeof x509.X509Certificate>): string {
  return `SN=${certificate.serialNumber.toUpperCase()},CA=${certificate.issuer}`;
}

/** `PSDNO-FSA-123` → `NO-FSA`. */
export function ncaIdOf(organizationIdentifier: string): string {
  const match = /^PSD([A-Z]{2})-([A-Z]{2,8})-/.exec(organizationIdentifier);
  return match ? `${match[1]}-${match[2]}` : 'NO-FSA';
}

function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10; // positive, and no leading zero nibble to trip up comparisons
  return bytes.toString('hex');
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

function toPem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}
