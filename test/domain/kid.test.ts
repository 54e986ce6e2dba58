import { describe, expect, it } from 'vitest';
import { checkKid, makeKid } from '../../src/domain/kid.js';

describe('checkKid', () => {
  it.each([
    ['18', 'MOD10'],
    ['12344', 'MOD10'],
    ['602243', 'MOD10'],
    ['1234567890123456789012340', 'MOD10'],
    ['19', 'MOD11'],
    ['12343', 'MOD11'],
    ['602248', 'MOD11'],
    ['1000005-', 'MOD11'],
    ['1234567890123456789012341', 'MOD11'],
    // Passes both (check digit 0 for MOD10 and MOD11); MOD10 is tried first.
    ['00', 'MOD10'],
  ] as const)('accepts %s (%s)', (kid, algorithm) => {
    expect(checkKid(kid)).toEqual({ ok: true, value: { kid, algorithm } });
  });

  const neither = [
    'the check digit (the last character) matches neither MOD10 (Luhn) nor MOD11',
    'kontrollsifferet (siste tegn) stemmer verken med MOD10 (Luhn) eller MOD11',
  ];

  it.each([
    // The sample KID of the Tietoevry-hosted bank docs fails both checks (research §2.4).
    ['99754667145676221', ...neither],
    ['1000005', ...neither],
    ['1234-', ...neither],
    ['12345', ...neither],
    ['1234567890123456789012342', ...neither],
    ['1', 'must be 2 to 25 characters, got 1', 'må ha 2 til 25 tegn, men har 1'],
    ['', 'must be 2 to 25 characters, got 0', 'må ha 2 til 25 tegn, men har 0'],
    ['-', 'must be 2 to 25 characters, got 1', 'må ha 2 til 25 tegn, men har 1'],
    ['12345678901234567890123456', 'must be 2 to 25 characters, got 26', 'må ha 2 til 25 tegn, men har 26'],
    ['12-4', 'character 3 is "-", which is allowed only as the last character', 'tegn nr. 3 er "-", som bare er tillatt som siste tegn'],
    ['--', 'character 1 is "-", which is allowed only as the last character', 'tegn nr. 1 er "-"'],
    ['12 44', 'character 3 is a space', 'tegn nr. 3 er et mellomrom'],
    ['1234a', 'character 5 is "a", not a digit', 'tegn nr. 5 er "a", ikke et siffer'],
    ['+12344', 'character 1 is "+", not a digit', 'tegn nr. 1 er "+", ikke et siffer'],
  ])('refuses "%s": %s', (kid, en, nb) => {
    const result = checkKid(kid);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });

  it('treats a long KID as a string, without losing digits to Number precision', () => {
    // parseInt would round this 24-digit body; only its MOD10 digit 0 and its MOD11 digit 1 pass.
    for (const last of '0123456789') {
      expect(checkKid(`123456789012345678901234${last}`).ok).toBe(last === '0' || last === '1');
    }
  });
});

describe('makeKid', () => {
  it.each(['1', '1234', '602243', '123456789012345678901234'])('appends a MOD10 check digit to %s that checkKid accepts', (body) => {
    const kid = makeKid(body);
    expect(kid).toHaveLength(body.length + 1);
    expect(checkKid(kid!)).toEqual({ ok: true, value: { kid, algorithm: 'MOD10' } });
  });

  it('makes the documented example 12344 from 1234', () => {
    expect(makeKid('1234')).toBe('12344');
  });

  it.each(['', '12a4', '1234567890123456789012345'])('refuses the body %j', (body) => {
    expect(makeKid(body)).toBeUndefined();
  });
});
