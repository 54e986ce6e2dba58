import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import { normaliseAttribute, type NormalisedAttribute } from '../signature/distinguished-name.js';
import { normaliseSerial } from '../signature/key-id.js';
import { QC_STATEMENTS_OID, readPsd2Statement, type Psd2Statement } from './qc-statements.js';
import { x509 } from './x509.js';
import { AppError } from '../../errors/app-error.js';
import { decodeBase64 } from '../base64.js';
import type { TppIdentity } from '../tpp-identity.js';

/** The minimum RSA modulus for a QSealC's key (ETSI TS 119 312 recommends at least 2048 bits). */
export const MIN_RSA_BITS = 2048;

/** What the server needs to know of a TPP's signing certificate, read once and cached. */
export interface TppCertificate {
  readonly der: Buffer;
  /** SHA-256 of the DER, lower-case hex. */
  readonly fingerprint: string;
  readonly node: X509Certificate;
  readonly parsed: InstanceType<typeof x509.X509Certificate>;
  readonly publicKey: KeyObject;
  /** SHA-256 of the public key's SubjectPublicKeyInfo DER, lower-case hex: the same key in any certificate. */
  readonly publicKeyFingerprint: string;
  /** Upper-case hex without leading zeros (see normaliseSerial). */
  readonly serial: string;
  readonly issuer: readonly NormalisedAttribute[];
  readonly issuerText: string;
  readonly organizationIdentifier: string | undefined;
  readonly organizationName: string | undefined;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly psd2: Psd2Statement | undefined;
  /** subjectAltName DNS names and IP addresses, and the CN when it is a host name (see TppIdentity.domains). */
  readonly domains: readonly string[];
  /** Why this is not a usable PSD2 QSealC; empty when it is one. */
  readonly profileProblems: readonly string[];
}

/**
 * Decodes the TPP-Signature-Certificate header: base64 of the DER, or a PEM block, with or without
 * armour and line breaks (banks document both forms).
 */
export function decodeCertificateHeader(value: string): Buffer | undefined {
  const body = value
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\\n/g, '')
    .replace(/\s+/g, '');
  return body.length === 0 ? undefined : decodeBase64(body);
}

/**
 * Reads a certificate; undefined when the bytes are not a readable X.509 certificate. The ASN.1
 * libraries parse lazily and throw on damaged input deep inside, so the whole reading is guarded:
 * a malformed certificate is the TPP's error (CERTIFICATE_INVALID), never a 500.
 */
export function readTppCertificate(der: Buffer): TppCertificate | undefined {
  try {
    return read(der);
  } catch {
    return undefined;
  }
}

/** SHA-256 of a public key's SubjectPublicKeyInfo DER, lower-case hex. */
export function publicKeyFingerprint(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function read(der: Buffer): TppCertificate {
  const node = new X509Certificate(der);
  const parsed = new x509.X509Certificate(der);
  const publicKey = node.publicKey;
  const qcExtension = parsed.getExtension(QC_STATEMENTS_OID);
  const psd2 = qcExtension ? readPsd2Statement(qcExtension.value) : undefined;
  const organizationIdentifier = parsed.subjectName.getField('2.5.4.97')[0];
  const organizationName = parsed.subjectName.getField('O')[0] ?? parsed.subjectName.getField('CN')[0];
  return {
    der,
    fingerprint: createHash('sha256').update(der).digest('hex'),
    node,
    parsed,
    publicKey,
    publicKeyFingerprint: publicKeyFingerprint(publicKey),
    serial: normaliseSerial(node.serialNumber),
    issuer: parsed.issuerName
      .toJSON()
      .flatMap((rdn) => Object.entries(rdn).flatMap(([type, values]) => values.map((value) => normaliseAttribute(type, value))))
      .sort(),
    issuerText: parsed.issuer,
    organizationIdentifier,
    organizationName,
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    psd2,
    domains: securedDomains(parsed),
    profileProblems: profileProblems(publicKey, parsed, psd2, organizationIdentifier),
  };
}

/** A DNS host name, possibly a wildcard one: labels of letters, digits and hyphens, at least two. */
const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** The domains a certificate secures: subjectAltName dNSName and iPAddress entries, and a CN that is a host name. */
function securedDomains(parsed: InstanceType<typeof x509.X509Certificate>): string[] {
  const domains = new Set<string>();
  const san = parsed.getExtension(x509.SubjectAlternativeNameExtension);
  for (const name of san?.names.items ?? []) {
    if (name.type === 'dns' || name.type === 'ip') domains.add(name.value.toLowerCase());
  }
  for (const cn of parsed.subjectName.getField('CN')) {
    if (HOST_NAME.test(cn)) domains.add(cn.toLowerCase());
  }
  return [...domains];
}

function profileProblems(
  publicKey: KeyObject,
  parsed: InstanceType<typeof x509.X509Certificate>,
  psd2: Psd2Statement | undefined,
  organizationIdentifier: string | undefined,
): string[] {
  const problems: string[] = [];
  const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (publicKey.asymmetricKeyType !== 'rsa') {
    problems.push(`the key must be RSA, not ${publicKey.asymmetricKeyType ?? 'unknown'}`);
  } else if (bits < MIN_RSA_BITS) {
    problems.push(`the RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are required`);
  }
  const keyUsage = parsed.getExtension(x509.KeyUsagesExtension);
  const signing = x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation;
  if (keyUsage && (keyUsage.usages & signing) === 0) {
    problems.push('the key usage does not allow signing');
  }
  if (!psd2) {
    problems.push('there is no PSD2 QCStatement (ETSI TS 119 495)');
  } else if (psd2.roles.length === 0) {
    problems.push('the PSD2 QCStatement names no role');
  }
  if (!organizationIdentifier) {
    problems.push('the subject has no organizationIdentifier (2.5.4.97)');
  }
  return problems;
}

/**
 * The TPP a verified certificate speaks for. The profile check already demands an
 * organizationIdentifier and a PSD2 statement; this refuses rather than inventing an empty id, so
 * two certificates without one can never become the same TPP.
 */
export function tppIdentityOf(certificate: TppCertificate): TppIdentity {
  const id = certificate.organizationIdentifier?.trim();
  if (!id || !certificate.psd2) {
    throw new AppError('CERTIFICATE_INVALID', { path: 'TPP-Signature-Certificate' });
  }
  return {
    id,
    name: certificate.organizationName ?? id,
    roles: certificate.psd2.roles,
    ncaId: certificate.psd2.ncaId,
    certificateFingerprint: certificate.fingerprint,
    certificateSerial: certificate.serial,
    certificateIssuer: certificate.issuerText,
    publicKeyFingerprint: certificate.publicKeyFingerprint,
    // Only when there are any, so an identity without reads as before.
    ...(certificate.domains.length > 0 ? { domains: certificate.domains } : {}),
  };
}
