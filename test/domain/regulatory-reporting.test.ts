import { describe, expect, it } from 'vitest';
import { checkIsoDate } from '../../src/domain/iso-date.js';
import {
  DEFAULT_NOK_RATES,
  isRegulatoryReportingCode,
  nokEquivalentMinor,
  parseNokRates,
  REGULATORY_REPORTING_CODES,
  REGULATORY_REPORTING_THRESHOLD_NOK,
  requiresRegulatoryReporting,
  type NokRates,
} from '../../src/domain/regulatory-reporting.js';

function ratesOf(text: string): NokRates {
  const parsed = parseNokRates(text, '2026-11-20');
  if (!parsed.ok) throw new Error(parsed.reason.en);
  return parsed.value;
}

describe('REGULATORY_REPORTING_CODES', () => {
  it('holds the 16 payment-type codes of norway-domain.md §5.2 in order', () => {
    expect(REGULATORY_REPORTING_CODES.map(({ code }) => code)).toEqual([
      '14',
      '26',
      '29',
      '31',
      '35',
      '38',
      '41',
      '43',
      '45',
      '51',
      '52',
      '53',
      '71',
      '79',
      '81',
      '82',
    ]);
  });

  it.each([
    ['14', 'Kjøp/salg av varer'],
    ['26', 'Leie'],
    ['81', 'Lønn'],
    ['82', 'Arv, gave, med mer'],
  ])('names code %s "%s" in Norwegian', (code, nb) => {
    expect(REGULATORY_REPORTING_CODES.find((entry) => entry.code === code)?.name.nb).toBe(nb);
  });

  it('has an English gloss for every code', () => {
    for (const { name } of REGULATORY_REPORTING_CODES) {
      expect(name.en).not.toBe('');
      expect(name.en).not.toBe(name.nb);
    }
  });

  it.each(['14', '26', '82'])('isRegulatoryReportingCode accepts %s', (code) => {
    expect(isRegulatoryReportingCode(code)).toBe(true);
  });

  it.each(['', '15', '83', '026', ' 26', '26 ', 'Leie', '2'])('isRegulatoryReportingCode refuses %j', (code) => {
    expect(isRegulatoryReportingCode(code)).toBe(false);
  });
});

describe('requiresRegulatoryReporting', () => {
  it('has a threshold of NOK 100 000', () => {
    expect(REGULATORY_REPORTING_THRESHOLD_NOK).toBe(100_000n);
  });

  it.each([
    ['NOK', 9_999_999n, false],
    ['NOK', 10_000_000n, true],
    ['NOK', 10_000_001n, true],
    ['NOK', 1n, false],
    // EUR at 11.7250: 8 528.78 EUR is 99 999.95 NOK, 8 528.79 EUR is 100 000.06 NOK.
    ['EUR', 852_878n, false],
    ['EUR', 852_879n, true],
    // JPY (no decimals) at 0.0680: 1 470 588 JPY is 99 999.98 NOK, 1 470 589 JPY is 100 000.05 NOK.
    ['JPY', 1_470_588n, false],
    ['JPY', 1_470_589n, true],
    // The size counts, whatever the sign.
    ['NOK', -10_000_000n, true],
  ] as const)('%s %i minor: %s', (currency, minor, required) => {
    expect(requiresRegulatoryReporting({ minor, currency }, DEFAULT_NOK_RATES)).toBe(required);
  });

  it('is undefined when no rate is known, so the caller decides', () => {
    expect(requiresRegulatoryReporting({ minor: 100_000_000n, currency: 'XCG' }, DEFAULT_NOK_RATES)).toBeUndefined();
  });
});

describe('nokEquivalentMinor', () => {
  it.each([
    // 1 234.56 EUR × 11.7250 = 14 475.216 NOK.
    ['EUR', 123_456n, 1_447_522n],
    // 0.20 EUR × 11.7250 = 2.345 NOK: half an øre rounds up.
    ['EUR', 20n, 235n],
    // 0.04 EUR × 11.7250 = 0.469 NOK.
    ['EUR', 4n, 47n],
    // 1 500 000 JPY × 0.0680 = 102 000 NOK.
    ['JPY', 1_500_000n, 10_200_000n],
    // 1 JPY × 0.0680 = 0.068 NOK: 6.8 øre.
    ['JPY', 1n, 7n],
    ['NOK', 12_345n, 12_345n],
    ['NOK', 0n, 0n],
  ] as const)('%s %i minor is %i øre', (currency, minor, ore) => {
    expect(nokEquivalentMinor({ minor, currency }, DEFAULT_NOK_RATES)).toBe(ore);
  });

  it('converts currencies with three decimals (KWD) exactly', () => {
    // 1.234 KWD × 33.1 = 40.8454 NOK.
    expect(nokEquivalentMinor({ minor: 1234n, currency: 'KWD' }, ratesOf('KWD=33.1'))).toBe(4085n);
  });

  it('keeps every digit of a large amount and a six-decimal rate', () => {
    // 99 999 999 999 999.99 USD × 10.123456 = 101 234 559 999 999 989.876544 øre, which a double cannot hold.
    expect(nokEquivalentMinor({ minor: 9_999_999_999_999_999n, currency: 'USD' }, ratesOf('USD=10.123456'))).toBe(101_234_559_999_999_990n);
  });

  it('rounds a negative amount half away from zero', () => {
    expect(nokEquivalentMinor({ minor: -20n, currency: 'EUR' }, DEFAULT_NOK_RATES)).toBe(-235n);
  });

  it('counts NOK at 1 even when the table leaves it out', () => {
    expect(nokEquivalentMinor({ minor: 500n, currency: 'NOK' }, { asOf: '2026-11-20', rates: new Map() })).toBe(500n);
  });

  it.each(['XCG', 'BHD', 'XYZ'])('is undefined for %s, which has no rate', (currency) => {
    expect(nokEquivalentMinor({ minor: 100n, currency }, DEFAULT_NOK_RATES)).toBeUndefined();
  });
});

describe('DEFAULT_NOK_RATES', () => {
  it('covers the main currencies with valid rates and a date', () => {
    expect(checkIsoDate(DEFAULT_NOK_RATES.asOf).ok).toBe(true);
    for (const code of ['NOK', 'EUR', 'USD', 'GBP', 'SEK', 'DKK', 'CHF', 'JPY', 'PLN', 'ISK', 'CAD', 'AUD']) {
      expect(DEFAULT_NOK_RATES.rates.has(code), code).toBe(true);
    }
    expect(DEFAULT_NOK_RATES.rates.get('NOK')).toBe('1');
    const text = [...DEFAULT_NOK_RATES.rates].map(([code, rate]) => `${code}=${rate}`).join(',');
    expect(parseNokRates(text, DEFAULT_NOK_RATES.asOf)).toEqual({ ok: true, value: DEFAULT_NOK_RATES });
  });
});

describe('parseNokRates', () => {
  it.each([
    [
      'EUR=11.725,SEK=0.98',
      [
        ['NOK', '1'],
        ['EUR', '11.725'],
        ['SEK', '0.98'],
      ],
    ],
    [
      ' EUR = 11.725 , USD=10 ',
      [
        ['NOK', '1'],
        ['EUR', '11.725'],
        ['USD', '10'],
      ],
    ],
    ['', [['NOK', '1']]],
    [
      'NOK=1.000,JPY=0.068001',
      [
        ['NOK', '1'],
        ['JPY', '0.068001'],
      ],
    ],
  ])('parses %j', (text, entries) => {
    expect(parseNokRates(text, '2026-11-20')).toEqual({
      ok: true,
      value: { asOf: '2026-11-20', rates: new Map(entries as [string, string][]) },
    });
  });

  it.each([
    ['EUR11', 'entry 1 ("EUR11") must be CODE=RATE, like EUR=11.725', 'oppføring 1 ("EUR11") må være KODE=KURS'],
    ['EUR=11,725', 'entry 2 ("725") must be CODE=RATE', 'oppføring 2 ("725")'],
    ['EUR=11.725,', 'entry 2 ("") must be CODE=RATE', 'oppføring 2 ("")'],
    [
      'eur=11',
      'entry 1 ("eur=11"): the currency must be written in capital letters (EUR)',
      'valutaen må skrives med store bokstaver (EUR)',
    ],
    ['EUR=11,XYZ=2', 'entry 2 ("XYZ=2"): the currency XYZ is not an active ISO 4217 currency code', 'oppføring 2 ("XYZ=2"): valutaen XYZ'],
    ['HRK=1.5', 'HRK has been withdrawn from ISO 4217', 'HRK er trukket tilbake'],
    ['EUR=11,EUR=12', 'entry 2 ("EUR=12"): EUR is given more than once', 'EUR er oppgitt mer enn én gang'],
    ['EUR=0', 'entry 1 ("EUR=0"): the rate must be a positive decimal number', 'kursen må være et positivt desimaltall'],
    ['EUR=0.000', 'the rate must be a positive decimal number', 'positivt desimaltall'],
    ['EUR=-11', 'got "-11"', 'men er "-11"'],
    ['EUR=1.1234567', 'at most 6 decimals', 'høyst 6 desimaler'],
    ['EUR=', 'got ""', 'men er ""'],
    ['EUR=1e3', 'got "1e3"', 'men er "1e3"'],
    ['EUR=.5', 'got ".5"', 'men er ".5"'],
    ['NOK=2', 'entry 1 ("NOK=2"): the rate of NOK is always 1, got "2"', 'kursen for NOK er alltid 1'],
  ])('refuses %j: %s', (text, en, nb) => {
    const result = parseNokRates(text, '2026-11-20');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
