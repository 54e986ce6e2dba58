import { describe, expect, it } from 'vitest';
import { checkNorwegianBban, makeNorwegianBban } from '../../src/domain/bban.js';
import { checkIban, ibanFromNorwegianBban, norwegianBbanOfIban } from '../../src/domain/iban.js';
import { mulberry32 as random } from '../support/seeded-random.js';

describe('checkIban', () => {
  it.each([
    'NO9386011117947',
    'NO0995360573002',
    'NO7112345678903',
    'NO5015032080119',
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'FR7630006000011234567890189',
    'NL91ABNA0417164300',
    'SE4550000000058398257466',
    'DK5000400440116243',
    'FI2112345600000785',
    'BE68539007547034',
    // Kosovo: user-assigned XK, in the IBAN registry.
    'XK051212012345678906',
  ])('accepts %s', (iban) => {
    expect(checkIban(iban)).toEqual({ ok: true, value: iban });
  });

  it.each([
    [
      'NO9386011117948',
      'the check digits (characters 3–4) do not match the rest (MOD 97-10 remainder 28, must be 1); the account number (characters 5–15) is also wrong: the check digit (digit 11) is wrong',
      'kontrollsifrene (tegn 3–4) stemmer ikke med resten (MOD 97-10 gir rest 28, må være 1); kontonummeret (tegn 5–15) er også feil',
    ],
    [
      'NO9486011117947',
      'do not match the rest (MOD 97-10 remainder 2, must be 1)',
      'stemmer ikke med resten (MOD 97-10 gir rest 2, må være 1)',
    ],
    ['NO938601111794', 'a Norwegian IBAN has 15 characters, got 14', 'et norsk IBAN har 15 tegn, men dette har 14'],
    ['NO93860111179470', 'a Norwegian IBAN has 15 characters, got 16', 'et norsk IBAN har 15 tegn, men dette har 16'],
    [
      'NO6686011117948',
      'the IBAN check digits are right, but the account number (characters 5–15) is not: the check digit (digit 11) is wrong',
      'IBAN-kontrollsifrene stemmer, men kontonummeret (tegn 5–15) gjør ikke det: kontrollsifferet (siffer 11) er feil',
    ],
    ['NO1300000000000', 'the bank code 0000 (digits 1–4) does not exist', 'bankkoden 0000 (siffer 1–4) finnes ikke'],
    ['NO7286011110080', 'the check digit would be 10', 'kontrollsifferet ville blitt 10'],
    ['NO938601111794X', 'characters 5–15 of a Norwegian IBAN must be digits, but character 15 is "X"', 'tegn nr. 15 er "X"'],
    [
      'NO93 8601 1117 947',
      'must be written without spaces, but character 5 is a space',
      'må skrives uten mellomrom, men tegn nr. 5 er et mellomrom',
    ],
    [' NO9386011117947', 'character 1 is a space', 'tegn nr. 1 er et mellomrom'],
    ['NO9386011117947\t', 'character 16 is a space', 'tegn nr. 16 er et mellomrom'],
    ['no9386011117947', 'must be written in capital letters, but character 1 is lower case', 'tegn nr. 1 er en liten bokstav'],
    ['GB82west12345698765432', 'character 5 is lower case', 'tegn nr. 5 er en liten bokstav'],
    ['NO93-8601-1117-947', 'may contain only letters A–Z and digits, but character 5 is "-"', 'tegn nr. 5 er "-"'],
    ['', 'is empty', 'er tom'],
    ['N', 'must start with a two-letter country code, got "N"', 'må begynne med en landkode på to bokstaver'],
    ['1234567890', 'must start with a two-letter country code, got "12"', 'men begynner med "12"'],
    ['NOAB86011117947', 'characters 3–4 must be the two check digits, got "AB"', 'tegn 3–4 må være de to kontrollsifrene, men er "AB"'],
    ['NO93', 'must be at least 5 characters, got 4', 'må ha minst 5 tegn, men har 4'],
    ['DE89' + '1'.repeat(31), 'must be at most 34 characters, got 35', 'kan ha høyst 34 tegn, men har 35'],
    ['ZZ9386011117947', 'ZZ is not an ISO 3166 country code', 'ZZ er ikke en ISO 3166-landkode'],
    ['UK82WEST12345698765432', 'UK is not an ISO 3166 country code', 'UK er ikke en ISO 3166-landkode'],
    ['DE89370400440532013001', 'MOD 97-10 remainder 28, must be 1', 'MOD 97-10 gir rest 28'],
    ['GB82WEST1234569876543', 'the check digits (characters 3–4) do not match', 'kontrollsifrene (tegn 3–4) stemmer ikke'],
  ])('refuses "%s": %s', (iban, en, nb) => {
    const result = checkIban(iban);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });

  it('does not mention the account number when only the IBAN check digits are wrong', () => {
    const result = checkIban('NO9486011117947');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).not.toContain('account number');
  });
});

describe('ibanFromNorwegianBban', () => {
  it.each([
    ['86011117947', 'NO9386011117947'],
    ['95360573002', 'NO0995360573002'],
    ['12345678903', 'NO7112345678903'],
    ['76940512057', 'NO9876940512057'],
  ])('makes the IBAN of %s', (bban, iban) => {
    expect(ibanFromNorwegianBban(bban)).toBe(iban);
  });

  it.each(['86011117948', '8601111794', '00000000000', 'NO9386011117947'])('throws on the invalid BBAN %s', (bban) => {
    expect(() => ibanFromNorwegianBban(bban)).toThrow('Not a valid Norwegian BBAN');
  });

  it('round-trips 200 random generated BBANs through checkIban and norwegianBbanOfIban', () => {
    const next = random(13616);
    let made = 0;
    while (made < 200) {
      const first10 = Array.from({ length: 10 }, () => String(Math.floor(next() * 10))).join('');
      const bban = makeNorwegianBban(first10);
      if (bban === undefined) continue;
      made++;
      expect(checkNorwegianBban(bban)).toEqual({ ok: true, value: bban });
      const iban = ibanFromNorwegianBban(bban);
      expect(iban).toMatch(/^NO[0-9]{13}$/);
      expect(checkIban(iban), iban).toEqual({ ok: true, value: iban });
      expect(norwegianBbanOfIban(iban)).toBe(bban);
    }
  });
});

describe('norwegianBbanOfIban', () => {
  it.each([
    ['NO9386011117947', '86011117947'],
    ['NO0995360573002', '95360573002'],
  ])('gives the BBAN of %s', (iban, bban) => {
    expect(norwegianBbanOfIban(iban)).toBe(bban);
  });

  it.each(['NO9486011117947', 'NO6686011117948', 'NO938601111794', 'DE89370400440532013000', 'no9386011117947', ''])(
    'gives undefined for %s',
    (iban) => {
      expect(norwegianBbanOfIban(iban)).toBeUndefined();
    },
  );
});
