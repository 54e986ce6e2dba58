import { describe, expect, it } from 'vitest';
import { checkBic } from '../../src/domain/bic.js';

describe('checkBic', () => {
  it.each(['DNBANOKK', 'DNBANOKKXXX', 'NDEANOKK', 'SPRONO22', 'AAAADEBBXXX', 'DEUTDEFF500', 'HANDSESS', 'ABCDXK22', 'NWBKGB2L'])(
    'accepts %s',
    (bic) => {
      expect(checkBic(bic)).toEqual({ ok: true, value: bic });
    },
  );

  it.each([
    ['DNBANOK', 'must be 8 or 11 characters, got 7', 'må ha 8 eller 11 tegn, men har 7'],
    ['DNBANOKKXX', 'must be 8 or 11 characters, got 10', 'må ha 8 eller 11 tegn, men har 10'],
    ['DNBANOKKXXXX', 'must be 8 or 11 characters, got 12', 'må ha 8 eller 11 tegn, men har 12'],
    ['', 'must be 8 or 11 characters, got 0', 'må ha 8 eller 11 tegn, men har 0'],
    ['DNBA NOKK', 'must be written without spaces, but character 5 is a space', 'tegn nr. 5 er et mellomrom'],
    ['dnbanokk', 'must be written in capital letters (DNBANOKK)', 'må skrives med store bokstaver (DNBANOKK)'],
    [
      'DNB1NOKK',
      'characters 1–4 (the institution code) must be letters, got "DNB1"',
      'tegn 1–4 (institusjonskoden) må være bokstaver, men er "DNB1"',
    ],
    ['DNBAN0KK', 'characters 5–6 (the country code) must be letters, got "N0"', 'tegn 5–6 (landkoden) må være bokstaver, men er "N0"'],
    [
      'DNBANOK_',
      'characters 7–8 (the location code) must be letters or digits, got "K_"',
      'tegn 7–8 (stedskoden) må være bokstaver eller sifre',
    ],
    [
      'DNBANOKKXX-',
      'characters 9–11 (the branch code) must be letters or digits, got "XX-"',
      'tegn 9–11 (filialkoden) må være bokstaver eller sifre',
    ],
    ['DNBAZZKK', 'characters 5–6 (ZZ) are not an ISO 3166 country code', 'tegn 5–6 (ZZ) er ikke en ISO 3166-landkode'],
    ['ABCDUKKK', 'characters 5–6 (UK) are not an ISO 3166 country code', 'tegn 5–6 (UK) er ikke en ISO 3166-landkode'],
  ])('refuses "%s": %s', (bic, en, nb) => {
    const result = checkBic(bic);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
