/** Base64 as RFC 4648 §4 writes it: the standard alphabet, padded with `=` to a multiple of four. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of `text` if it is base64 as RFC 4648 §4 writes it (padded; no line breaks, spaces or
 * URL-safe letters), else undefined; the empty text is no bytes. `Buffer.from(text, 'base64')`
 * alone would decode anything, skipping what it cannot read: a damaged signature, digest or
 * certificate must be refused as such, not read as other bytes.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}
