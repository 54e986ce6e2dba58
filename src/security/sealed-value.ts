import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Keys derived per secret and purpose: a server secret is one Buffer for the process's life, and every page seals and opens. */
const derivedKeys = new WeakMap<Buffer, Map<string, Buffer>>();

function keyOf(secret: Buffer, purpose: string): Buffer {
  let keys = derivedKeys.get(secret);
  if (keys === undefined) derivedKeys.set(secret, (keys = new Map<string, Buffer>()));
  let key = keys.get(purpose);
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `${purpose}:aes-256-gcm`, 32));
    keys.set(purpose, key);
  }
  return key;
}

const associatedData = (purpose: string, context: string) => Buffer.from(`${purpose}:${context}`);

/**
 * A value the server hands out and takes back that its holder can neither read nor change:
 * AES-256-GCM under a key derived from a server secret (HKDF-SHA256, its own label, so the key
 * is never the secret itself nor the key of another purpose), with the purpose and the context
 * it is bound to (e.g. the TPP and the account) as associated data, so it opens only for the same
 * purpose and context. Written as base64url of the nonce (random, 96 bits, one per value), the
 * ciphertext and the tag: a MAC alone would keep it from being changed, but not from being read.
 */
export function sealValue(secret: Buffer, purpose: string, context: string, plaintext: Buffer): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(purpose, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/**
 * The plaintext of a value {@link sealValue} made for this purpose and context under this
 * secret; undefined for anything else: another secret, purpose or context, a changed character,
 * or a spelling of the bytes other than the one the server wrote (base64url is read leniently).
 */
export function openSealed(secret: Buffer, purpose: string, context: string, token: string): Buffer | undefined {
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), bytes.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(associatedData(purpose, context));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
