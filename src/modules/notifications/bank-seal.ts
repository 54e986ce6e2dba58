import { createPrivateKey, createPublicKey, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { bankSealFiles } from '../../config/data-dir.js';
import { keyIdFor } from '../../security/certificates/sandbox-ca.js';
import { x509 } from '../../security/certificates/x509.js';
import { RSA_SIGNING_KEY, rsaKeyPairFor } from '../../security/rsa-key-pairs.js';

/** The bank's own seal: what its status notifications are signed with. */
export interface BankSeal {
  readonly privateKey: KeyObject;
  /** The certificate as PEM; sent (base64 DER) in ASPSP-Signature-Certificate. */
  readonly certificatePem: string;
  /** `SN=<serial hex>,CA=<issuer DN>`, as a TPP's keyId names its certificate. */
  readonly keyId: string;
}

export interface BankSealSource {
  /** Configured PEM files (production: required). */
  readonly keyFile: string | undefined;
  readonly certificateFile: string | undefined;
  /** Sandbox: where a generated seal is kept when no files are configured, so it stays the same across restarts. */
  readonly dataDir: string;
  readonly bankName: string;
}

const SEAL_YEARS = 5;

/**
 * Opens the bank's seal: the configured key and certificate, or (sandbox, none configured) the one
 * generated on first use in `<dataDir>/notification-seal/`, a self-signed certificate in the bank's
 * name. A key that does not belong to its certificate is refused at start, not at the first send.
 */
export async function openBankSeal(source: BankSealSource): Promise<BankSeal> {
  if (source.keyFile !== undefined && source.certificateFile !== undefined) {
    return sealOf(readFileSync(source.keyFile, 'utf8'), readFileSync(source.certificateFile, 'utf8'));
  }
  const { dir, privateKey: keyPath, certificate: certificatePath } = bankSealFiles(source.dataDir);
  if (existsSync(keyPath) && existsSync(certificatePath)) {
    return sealOf(readFileSync(keyPath, 'utf8'), readFileSync(certificatePath, 'utf8'));
  }
  const keys = await rsaKeyPairFor(keyPath);
  const notBefore = new Date(Date.now() - 60_000);
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x10;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: [{ C: ['NO'] }, { O: [source.bankName] }, { CN: [`${source.bankName} notification seal`] }],
    notBefore,
    notAfter: new Date(notBefore.getTime() + SEAL_YEARS * 365 * 86_400_000),
    signingAlgorithm: RSA_SIGNING_KEY,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, keyPem, { mode: 0o600 });
  writeFileSync(certificatePath, certificate.toString('pem'));
  return sealOf(keyPem, certificate.toString('pem'));
}

function sealOf(keyPem: string, certificatePem: string): BankSeal {
  const privateKey = createPrivateKey(keyPem);
  const certificate = new x509.X509Certificate(certificatePem);
  const publicOfKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  if (!publicOfKey.equals(Buffer.from(certificate.publicKey.rawData))) {
    throw new Error("the notification seal's private key does not belong to its certificate");
  }
  return { privateKey, certificatePem: certificate.toString('pem'), keyId: keyIdFor(certificate) };
}
