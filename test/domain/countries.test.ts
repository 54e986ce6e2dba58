import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, checkCountryCode, isCountryCode } from '../../src/domain/countries.js';

describe('country table', () => {
  it('holds the 249 officially assigned ISO 3166-1 alpha-2 codes plus XK, each once, sorted', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(new Set(COUNTRY_CODES).size).toBe(250);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it.each(['NO', 'SE', 'DK', 'FI', 'IS', 'DE', 'GB', 'GR', 'US', 'SJ', 'BV', 'AX', 'CW', 'SX', 'BQ', 'SS', 'XK', 'PS', 'TW', 'AQ'])(
    'accepts %s',
    (code) => {
      expect(isCountryCode(code)).toBe(true);
      expect(checkCountryCode(code)).toEqual({ ok: true, value: code });
    },
  );

  it.each(['UK', 'EL', 'EU', 'AN', 'YU', 'CS', 'ZZ', 'XX', 'no', 'NOR', 'N', ''])('does not accept %s', (code) => {
    expect(isCountryCode(code)).toBe(false);
  });
});

describe('checkCountryCode', () => {
  it.each([
    ['no', 'must be written in capital letters (NO)', 'må skrives med store bokstaver (NO)'],
    ['NOR', 'must be two capital letters (ISO 3166-1 alpha-2), got "NOR"', 'må være to store bokstaver (ISO 3166-1 alfa-2), men er "NOR"'],
    ['', 'got ""', 'men er ""'],
    ['UK', 'the code for that country is GB', 'landet har koden GB'],
    ['EL', 'the code for that country is GR', 'landet har koden GR'],
    ['EU', 'EU is not a country', 'EU er ikke et land'],
    ['ZZ', 'ZZ is not an ISO 3166 country code', 'ZZ er ikke en ISO 3166-landkode'],
  ])('refuses "%s": %s', (code, en, nb) => {
    const result = checkCountryCode(code);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
