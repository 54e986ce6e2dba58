import { existsSync } from 'node:fs';
import { webcrypto } from 'node:crypto';

/** The sandbox's generated signing keys: its CA's and the bank seal's. */
export const RSA_SIGNING_KEY = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
} as const;

/** Pairs started before they were asked for, by the file the private key will be kept in. */
const started = new Map<string, Promise<webcrypto.CryptoKeyPair>>();

function generate(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(RSA_SIGNING_KEY, true, ['sign', 'verify']);
}

/**
 * Starts making the key pair to be kept in `privateKeyFile`, unless that file is there already.
 * A first start of the sandbox makes two, each 0.2 to 0.6 s of a core, at random (the search for
 * primes): begun as the command starts, they are made on the thread pool while the server's
 * modules load, instead of after. Only a head start: {@link rsaKeyPairFor} makes one when none
 * was started, and a failure here is met there.
 */
export function startRsaKeyPair(privateKeyFile: string): void {
  if (started.has(privateKeyFile) || existsSync(privateKeyFile)) return;
  const pair = generate();
  pair.catch(() => {});
  started.set(privateKeyFile, pair);
}

/** A new key pair for `privateKeyFile`: the one started ahead for it, or one made now. */
export function rsaKeyPairFor(privateKeyFile: string): Promise<webcrypto.CryptoKeyPair> {
  const pair = started.get(privateKeyFile);
  started.delete(privateKeyFile);
  return pair ?? generate();
}
