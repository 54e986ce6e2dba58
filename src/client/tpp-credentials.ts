import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SigningCredentials } from './request-signer.js';

/** File names `nordic-xs2a tpp init` writes into its --out directory. */
export const CREDENTIAL_FILES = { privateKey: 'qsealc-key.pem', certificate: 'qsealc.pem' } as const;

/**
 * `SN=<serial>,CA=<issuer DN>` for a certificate: the serial in upper-case hex, the issuer in
 * the order the certificate holds it, as the Norwegian profile documents.
 */
export function keyIdOf(certificatePem: string): string {
  const certificate = new X509Certificate(certificatePem);
  const issuer = certificate.issuer.split('\n').join(',');
  return `SN=${certificate.serialNumber.replace(/^0+(?=.)/, '')},CA=${issuer}`;
}

export function credentialsFromPem(privateKeyPem: string, certificatePem: string): SigningCredentials {
  return { privateKey: createPrivateKey(privateKeyPem), certificate: certificatePem, keyId: keyIdOf(certificatePem) };
}

/** Reads the credentials `nordic-xs2a tpp init` wrote into a directory. */
export function readCredentials(dir: string): SigningCredentials {
  return credentialsFromPem(
    readFileSync(join(dir, CREDENTIAL_FILES.privateKey), 'utf8'),
    readFileSync(join(dir, CREDENTIAL_FILES.certificate), 'utf8'),
  );
}
