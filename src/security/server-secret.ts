import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db/create-db.js';
import { serverSecretRepository } from './server-secret.repository.js';

/** What a server secret is for; each purpose has its own, so a MAC or a sealed value made for one is worth nothing to another. */
export type SecretPurpose = 'transaction-snapshot';

/**
 * The server's secret for `purpose`, from the database (table server_secret), made there on first
 * use by whichever instance comes first: all instances sharing the database, and each after a
 * restart, use the same one. Read once per process and purpose.
 */
export function serverSecrets(db: Db): (purpose: SecretPurpose) => Promise<Buffer> {
  const loaded = new Map<SecretPurpose, Promise<Buffer>>();
  async function load(purpose: SecretPurpose): Promise<Buffer> {
    let secret = await serverSecretRepository.read(db, purpose);
    if (secret === undefined) {
      // Two instances may both make one: the first insert stands, and both read it back.
      await serverSecretRepository.insertIfAbsent(db, purpose, randomBytes(32).toString('base64url'));
      secret = await serverSecretRepository.read(db, purpose);
    }
    if (secret === undefined) throw new Error(`no server secret for ${purpose}`);
    return Buffer.from(secret, 'base64url');
  }
  return (purpose) => {
    let secret = loaded.get(purpose);
    if (!secret) {
      secret = load(purpose);
      // A failed read (the database away a moment) is tried again by the next request.
      secret.catch(() => loaded.delete(purpose));
      loaded.set(purpose, secret);
    }
    return secret;
  };
}

/**
 * The MAC the server gives a value it hands out and takes back (HMAC-SHA256, base64url, 43
 * characters), as the SCA pages' external-login `state` is made: the purpose and the context it
 * is bound to go into the MAC, so it checks only for the same purpose and context.
 */
export function macOf(key: Buffer | string, purpose: string, text: string): string {
  return createHmac('sha256', key).update(`${purpose}:${text}`).digest('base64url');
}
