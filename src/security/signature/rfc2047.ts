/**
 * RFC 2047 encoded-words inside Signature parameters. The Norwegian profile wraps a signature
 * value that is "ISO-8859-1 or UTF-8 encoded" as `=?utf-8?B?<base64>?=`; several adjacent words
 * (the 75-character limit of RFC 2047 splits long values) are decoded and joined. A value that is
 * not an encoded-word is returned as it is.
 */
import { decodeBase64 } from '../base64.js';

const ENCODED_WORD = /^=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=$/;

export type DecodeResult = { ok: true; text: string } | { ok: false; problem: string };

export function decodeEncodedWords(value: string): DecodeResult {
  // Most values hold no encoded-word at all: no need to split them into words to find out.
  if (!value.includes('=?')) return { ok: true, text: value };
  const words = value.trim().split(/\s+/);
  if (!words.every((word) => ENCODED_WORD.test(word))) {
    return { ok: true, text: value };
  }
  let text = '';
  for (const word of words) {
    const [, charsetWithLanguage = '', encoding = '', encoded = ''] = ENCODED_WORD.exec(word) ?? [];
    // RFC 2231 allows a language suffix: `utf-8*no`.
    const charset = charsetWithLanguage.split('*')[0]?.toLowerCase() ?? '';
    const bufferEncoding = charsetEncoding(charset);
    if (!bufferEncoding) {
      return { ok: false, problem: `unsupported charset "${charset}" in an RFC 2047 encoded-word` };
    }
    const bytes = encoding.toUpperCase() === 'B' ? decodeBase64(encoded) : decodeQ(encoded);
    if (!bytes) {
      return { ok: false, problem: 'malformed RFC 2047 encoded-word' };
    }
    text += bytes.toString(bufferEncoding);
  }
  return { ok: true, text };
}

function charsetEncoding(charset: string): BufferEncoding | undefined {
  switch (charset) {
    case 'utf-8':
    case 'utf8':
      return 'utf8';
    case 'iso-8859-1':
    case 'latin1':
    case 'us-ascii':
      return 'latin1';
    default:
      return undefined;
  }
}

function decodeQ(encoded: string): Buffer | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const char = encoded[i];
    if (char === '_') {
      bytes.push(0x20);
    } else if (char === '=') {
      const hex = encoded.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) {
        return undefined;
      }
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}
