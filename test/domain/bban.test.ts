import { describe, expect, it } from 'vitest';
import { checkNorwegianBban, makeNorwegianBban } from '../../src/domain/bban.js';

describe('checkNorwegianBban', () => {
  it.each(['86011117947', '95360573002', '12345678903', '76940512057', '15032080119'])('accepts %s', (bban) => {
    expect(checkNorwegianBban(bban)).toEqual({ ok: true, value: bban });
  });

  it.each([
    ['86011117948', 'the check digit (digit 11) is wrong', 'kontrollsifferet (siffer 11) er feil'],
    ['15032080118', 'the check digit (digit 11) is wrong', 'kontrollsifferet (siffer 11) er feil'],
    ...Array.from({ length: 10 }, (_, x): [string, string, string] => [
      `8601111008${x}`,
      'the first 10 digits cannot form a valid account number (the check digit would be 10)',
      'de 10 første sifrene kan ikke gi et gyldig kontonummer (kontrollsifferet ville blitt 10)',
    ]),
    ['00000000000', 'the bank code 0000 (digits 1–4) does not exist', 'bankkoden 0000 (siffer 1–4) finnes ikke'],
    ['00001234567', 'the bank code 0000', 'bankkoden 0000'],
    ['8601111794', 'must be 11 digits, got 10', 'må ha 11 sifre, men har 10'],
    ['860111179470', 'must be 11 digits, got 12', 'må ha 11 sifre, men har 12'],
    ['', 'must be 11 digits, got 0', 'må ha 11 sifre, men har 0'],
    ['8601 11 17947', 'character 5 is a space', 'tegn nr. 5 er et mellomrom'],
    ['8601.11.17947', 'character 5 is not a digit', 'tegn nr. 5 er ikke et siffer'],
    ['NO9386011117947', 'character 1 is not a digit', 'tegn nr. 1 er ikke et siffer'],
  ])('refuses %s: %s', (bban, en, nb) => {
    const result = checkNorwegianBban(bban);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('makeNorwegianBban', () => {
  it.each([
    ['8601111794', '86011117947'],
    ['9536057300', '95360573002'],
    ['1234567890', '12345678903'],
    ['1503208011', '15032080119'],
  ])('appends the check digit to %s', (first10, bban) => {
    expect(makeNorwegianBban(first10)).toBe(bban);
  });

  it.each(['8601111008', '0000111794', '860111179', '86011117947', '860111179x', ''])('gives undefined for %s', (first10) => {
    expect(makeNorwegianBban(first10)).toBeUndefined();
  });
});
