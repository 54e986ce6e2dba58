import { parseDistinguishedName, type NormalisedAttribute } from './distinguished-name.js';

/**
 * The Berlin Group keyId: `SN=<certificate serial in hex>,CA=<issuer DN>`. Serials are compared
 * without case and leading zeros (Java drops them, Node keeps them); issuers as attribute sets.
 */
export interface KeyId {
  readonly serial: string;
  readonly issuer: readonly NormalisedAttribute[];
}

const KEY_ID = /^\s*SN\s*=\s*(?:0x)?([0-9A-Fa-f:]+)\s*,\s*CA\s*=\s*(.+?)\s*$/is;

/** A TPP sends the same keyId on every request; it is parsed once (bounded, like the certificate cache). */
const parsed = new Map<string, KeyId | undefined>();
const CACHE_SIZE = 1_000;

export function parseKeyId(keyId: string): KeyId | undefined {
  if (parsed.has(keyId)) {
    return parsed.get(keyId);
  }
  if (parsed.size >= CACHE_SIZE) {
    parsed.clear();
  }
  const result = parseUncached(keyId);
  parsed.set(keyId, result);
  return result;
}

function parseUncached(keyId: string): KeyId | undefined {
  const match = KEY_ID.exec(keyId);
  if (!match) {
    return undefined;
  }
  const issuer = parseDistinguishedName(match[2] ?? '');
  return issuer ? { serial: normaliseSerial(match[1] ?? ''), issuer } : undefined;
}

export function normaliseSerial(hex: string): string {
  return hex
    .replace(/:/g, '')
    .toUpperCase()
    .replace(/^0+(?=.)/, '');
}
