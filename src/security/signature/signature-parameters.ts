import { decodeBase64 } from '../base64.js';
import { decodeEncodedWords } from './rfc2047.js';

/**
 * The parameters of a draft-cavage-http-signatures-10 signature (§2.1), from a `Signature`
 * header or an `Authorization: Signature …` header.
 */
export interface SignatureParameters {
  readonly keyId: string;
  /** As sent; the verifier decides what it accepts. */
  readonly algorithm: string | undefined;
  /** Lower-cased header names in the order given; the draft-10 default is `date` alone. */
  readonly headers: readonly string[];
  /** The signature bytes (base64-decoded, after any RFC 2047 unwrapping). */
  readonly signature: Buffer;
}

export type ParseResult = { ok: true; value: SignatureParameters } | { ok: false; problem: string };

// The quoted value as runs of plain characters between escapes: a signature value is some 350
// characters, and an alternation per character costs several times more to match.
const PARAMETER = /\s*([A-Za-z]+)\s*=\s*(?:"([^"\\]*(?:\\.[^"\\]*)*)"|([^\s,"]*))\s*(?:,|$)/y;

export function parseSignatureParameters(header: string): ParseResult {
  const text = header.replace(/^\s*Signature\s+/i, '');
  const params = new Map<string, string>();
  PARAMETER.lastIndex = 0;
  while (PARAMETER.lastIndex < text.length) {
    const start = PARAMETER.lastIndex;
    const match = PARAMETER.exec(text);
    if (!match || PARAMETER.lastIndex === start) {
      return { ok: false, problem: 'the Signature header is not a list of name="value" parameters' };
    }
    const [, name = '', quoted, bare] = match;
    // Draft §2.2: a repeated parameter takes its last value; unknown names are ignored.
    const raw = quoted === undefined ? (bare ?? '') : quoted.includes('\\') ? quoted.replace(/\\(.)/g, '$1') : quoted;
    const decoded = decodeEncodedWords(raw);
    if (!decoded.ok) {
      return { ok: false, problem: decoded.problem };
    }
    params.set(name.toLowerCase(), decoded.text);
  }
  const keyId = params.get('keyid');
  const signatureText = params.get('signature')?.trim();
  if (!keyId) {
    return { ok: false, problem: 'the keyId parameter is missing' };
  }
  if (!signatureText) {
    return { ok: false, problem: 'the signature parameter is missing' };
  }
  const signature = decodeBase64(signatureText);
  if (!signature) {
    return { ok: false, problem: 'the signature parameter is not base64' };
  }
  const headersParam = params.get('headers');
  const headers = headersParam === undefined ? ['date'] : headersParam.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return {
    ok: true,
    value: {
      keyId,
      algorithm: params.get('algorithm'),
      headers,
      signature,
    },
  };
}
