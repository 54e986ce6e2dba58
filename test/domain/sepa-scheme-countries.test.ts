/**
 * The SEPA schemes' geographical scope (EPC409-09): the EU and EEA, the non-EEA countries, the
 * 2024–2025 accessions and the territories with codes of their own; other countries are out.
 */
import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../src/domain/countries.js';
import { isSepaSchemeCountry, SEPA_SCHEME_COUNTRY_CODES } from '../../src/domain/sepa-scheme-countries.js';

const EU = 'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');

describe('isSepaSchemeCountry', () => {
  it('holds the 27 EU member states and the other EEA states', () => {
    expect(EU).toHaveLength(27);
    for (const code of [...EU, 'IS', 'LI', 'NO']) expect(isSepaSchemeCountry(code), code).toBe(true);
  });

  it.each([
    ['CH', 'Switzerland'],
    ['GB', 'the United Kingdom'],
    ['MC', 'Monaco'],
    ['SM', 'San Marino'],
    ['AD', 'Andorra'],
    ['VA', 'the Vatican City State'],
    ['AL', 'Albania'],
    ['ME', 'Montenegro'],
    ['MD', 'Moldova'],
    ['MK', 'North Macedonia'],
    ['RS', 'Serbia'],
    ['GI', 'Gibraltar'],
    ['GG', 'Guernsey'],
    ['JE', 'Jersey'],
    ['IM', 'the Isle of Man'],
    ['PM', 'Saint-Pierre-et-Miquelon'],
    ['BL', 'Saint Barthélemy'],
    ['MF', 'Saint Martin'],
    ['AX', 'Åland'],
  ])('holds %s (%s)', (code) => {
    expect(isSepaSchemeCountry(code)).toBe(true);
  });

  it.each(['BR', 'US', 'TR', 'UA', 'XK', 'BA', 'RU', 'PF', 'NC', 'WF', 'FO', 'GL', 'SJ', 'UK', 'EU', 'no', ''])(
    'leaves out "%s"',
    (code) => {
      expect(isSepaSchemeCountry(code)).toBe(false);
    },
  );

  it('lists only ISO 3166 codes, each once, sorted', () => {
    for (const code of SEPA_SCHEME_COUNTRY_CODES) expect(isCountryCode(code), code).toBe(true);
    expect(new Set(SEPA_SCHEME_COUNTRY_CODES).size).toBe(SEPA_SCHEME_COUNTRY_CODES.length);
    expect([...SEPA_SCHEME_COUNTRY_CODES].sort()).toEqual(SEPA_SCHEME_COUNTRY_CODES);
    // 30 EU/EEA, 11 outside the EEA, Gibraltar and 12 territories banking with their country's IBAN.
    expect(SEPA_SCHEME_COUNTRY_CODES).toHaveLength(54);
  });
});
