import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/security/base64.js';

describe('decodeBase64 (RFC 4648 §4, padded)', () => {
  it.each([
    ['', ''],
    ['AA==', '00'],
    ['AAA=', '0000'],
    ['AAAA', '000000'],
    ['+/+/', 'fbffbf'],
  ])('decodes %j', (text, hex) => {
    expect(decodeBase64(text)?.toString('hex')).toBe(hex);
  });

  it.each([
    ['AA', 'unpadded'],
    ['AAA', 'unpadded'],
    ['A===', 'three pad characters'],
    ['AA=A', 'a pad character inside'],
    ['-_-_', 'the URL-safe alphabet'],
    ['AA AA', 'a space'],
    ['AAAA\nAAAA', 'a line break'],
    ['AA!=', 'a character outside the alphabet'],
  ])('refuses %j (%s)', (text) => {
    expect(decodeBase64(text)).toBeUndefined();
  });
});
