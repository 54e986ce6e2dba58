import { join } from 'node:path';

/**
 * Where the sandbox keeps its generated keys and certificates in the data directory: one place,
 * for the modules that make them and for the start that begins making them before those load.
 */
export interface KeyFiles {
  readonly dir: string;
  readonly privateKey: string;
  readonly certificate: string;
}

/** The sandbox's own certificate authority (security/certificates/sandbox-ca.ts). */
export function sandboxCaFiles(dataDir: string): KeyFiles {
  const dir = join(dataDir, 'sandbox-ca');
  return { dir, privateKey: join(dir, 'ca-private-key.pem'), certificate: join(dir, 'ca-certificate.pem') };
}

/** The bank's notification seal when none is configured (modules/notifications/bank-seal.ts). */
export function bankSealFiles(dataDir: string): KeyFiles {
  const dir = join(dataDir, 'notification-seal');
  return { dir, privateKey: join(dir, 'seal-private-key.pem'), certificate: join(dir, 'seal-certificate.pem') };
}
