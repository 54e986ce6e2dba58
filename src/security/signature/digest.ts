import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeBase64 } from '../base64.js';

/**
 * The `Digest` header (RFC 3230) as the Berlin Group uses it: `SHA-256=<base64>` or
 * `SHA-512=<base64>` over the body bytes; the algorithm token is case-insensitive and several
 * instances may be listed, of which the supported ones must all match.
 */
const ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;

export interface DigestInstance {
  readonly algorithm: (typeof ALGORITHMS)[keyof typeof ALGORITHMS];
  readonly value: Buffer;
}

export type DigestParseResult = { ok: true; instances: readonly DigestInstance[] } | { ok: false; problem: string };

export function parseDigest(header: string): DigestParseResult {
  const instances: DigestInstance[] = [];
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    const equals = trimmed.indexOf('=');
    if (equals <= 0) {
      return { ok: false, problem: 'Digest must look like SHA-256=<base64>' };
    }
    const token = trimmed.slice(0, equals).toLowerCase();
    const encoded = trimmed.slice(equals + 1);
    const algorithm = ALGORITHMS[token as keyof typeof ALGORITHMS];
    if (!algorithm) {
      continue;
    }
    const value = encoded === '' ? undefined : decodeBase64(encoded);
    if (!value) {
      return { ok: false, problem: `the ${token.toUpperCase()} value of Digest is not base64` };
    }
    instances.push({ algorithm, value });
  }
  if (instances.length === 0) {
    return { ok: false, problem: 'Digest must use SHA-256 or SHA-512' };
  }
  return { ok: true, instances };
}

export function digestMatches(instances: readonly DigestInstance[], body: Buffer): boolean {
  return instances.every((instance) => {
    const actual = createHash(instance.algorithm).update(body).digest();
    return actual.length === instance.value.length && timingSafeEqual(actual, instance.value);
  });
}

/** The header value a client sends for a body: `SHA-256=<base64>`. */
export function digestHeader(body: Buffer | string, algorithm: 'sha256' | 'sha512' = 'sha256'): string {
  const label = algorithm === 'sha256' ? 'SHA-256' : 'SHA-512';
  return `${label}=${createHash(algorithm).update(body).digest('base64')}`;
}
