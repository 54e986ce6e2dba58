import { describe, expect, it } from 'vitest';
import { unsafeCharacterIn } from '../../src/domain/unsafe-text.js';

describe('unsafeCharacterIn', () => {
  it.each([
    'Company 123',
    'Ærlig Østlandsk Åsgård AS',
    'Zoë Łukasz Ğ 漢字',
    'emoji 😀 as a surrogate pair',
    'tab\tand line feed\nand carriage return\r',
    '',
    '-----BEGIN PUBLIC KEY-----\nMIIB…\n-----END PUBLIC KEY-----\n',
  ])('accepts %j', (text) => {
    expect(unsafeCharacterIn(text)).toBeUndefined();
  });

  it.each([
    ['a\uD800b', 2, 'a lone UTF-16 surrogate', 'U+D800', 'enslig UTF-16-surrogat'],
    ['\uDC00', 1, 'a lone UTF-16 surrogate', 'U+DC00', 'surrogat'],
    ['ok \uDE00 after a pair 😀', 4, 'a lone UTF-16 surrogate', 'U+DE00', 'surrogat'],
    ['x\u0000', 2, 'a control character', 'U+0000', 'kontrolltegn'],
    ['bell\u0007', 5, 'a control character', 'U+0007', 'kontrolltegn'],
    ['del\u007F', 4, 'a control character', 'U+007F', 'kontrolltegn'],
    ['next line\u0085', 10, 'a control character', 'U+0085', 'kontrolltegn'],
    ['Acme\u202ESA emcA', 5, 'a bidirectional formatting character', 'U+202E', 'tekstretning'],
    ['\u2066isolate', 1, 'a bidirectional formatting character', 'U+2066', 'tekstretning'],
    ['rtl\u200Fmark', 4, 'a bidirectional formatting character', 'U+200F', 'tekstretning'],
    ['zero\u200Bwidth', 5, 'an invisible formatting character', 'U+200B', 'usynlig'],
    ['word\u2060joiner', 5, 'an invisible formatting character', 'U+2060', 'usynlig'],
    ['\uFEFFbom', 1, 'an invisible formatting character', 'U+FEFF', 'usynlig'],
    ['soft\u00ADhyphen', 5, 'an invisible formatting character', 'U+00AD', 'usynlig'],
  ])('refuses %j: character %i is %s', (text, position, what, code, nb) => {
    const problem = unsafeCharacterIn(text);
    expect(problem?.en).toBe(`character ${position} is ${what} (${code}), which is not accepted in text`);
    expect(problem?.nb).toContain(`tegn nr. ${position}`);
    expect(problem?.nb).toContain(nb);
  });
});
