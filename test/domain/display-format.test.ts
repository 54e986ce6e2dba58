/**
 * What a PSU reads on the confirmation page: amounts in each language with the
 * currency's own number of decimals, exact for 14-digit amounts, and dates written out.
 *
 * Intl separates groups and the currency with a no-break space (U+00A0), in both languages: the
 * expectations below spell it as NBSP and compare exactly, so a plain space (which lets a browser
 * break "1 234,56 kr" across lines) fails too.
 */
import { describe, expect, it } from 'vitest';
import { displayDate, displayMoney } from '../../src/domain/display-format.js';

const NBSP = '\u00a0';
const nbsp = (text: string) => text.replace(/ /g, NBSP);

describe('displayMoney', () => {
  it.each([
    { minor: 123456n, currency: 'NOK', en: 'NOK 1,234.56', nb: '1 234,56 kr' },
    { minor: 100000n, currency: 'NOK', en: 'NOK 1,000.00', nb: '1 000,00 kr' },
    { minor: 5n, currency: 'NOK', en: 'NOK 0.05', nb: '0,05 kr' },
    { minor: 1050n, currency: 'NOK', en: 'NOK 10.50', nb: '10,50 kr' },
    { minor: 123456n, currency: 'EUR', en: 'EUR 1,234.56', nb: '1 234,56 EUR' },
    { minor: 123456n, currency: 'SEK', en: 'SEK 1,234.56', nb: '1 234,56 SEK' },
    { minor: 123456n, currency: 'JPY', en: 'JPY 123,456', nb: '123 456 JPY' },
    { minor: 1234567n, currency: 'BHD', en: 'BHD 1,234.567', nb: '1 234,567 BHD' },
    { minor: 1000n, currency: 'BHD', en: 'BHD 1.000', nb: '1,000 BHD' },
  ])('$minor $currency reads "$en" / "$nb"', ({ minor, currency, en, nb }) => {
    expect(displayMoney({ minor, currency })).toEqual({ en: nbsp(en), nb: nbsp(nb) });
  });

  it('writes kroner as "kr" only in Norwegian; English and other currencies use the ISO code', () => {
    const nok = displayMoney({ minor: 100n, currency: 'NOK' });
    expect(nok.nb.endsWith(`${NBSP}kr`)).toBe(true);
    expect(nok.en.startsWith(`NOK${NBSP}`)).toBe(true);
    const eur = displayMoney({ minor: 100n, currency: 'EUR' });
    expect(eur.en).not.toContain('€');
    expect(eur.nb).not.toContain('€');
  });

  it('shows the currency minor units even for whole amounts: NOK 2 decimals, JPY none, BHD 3', () => {
    expect(displayMoney({ minor: 200n, currency: 'NOK' }).en).toBe(nbsp('NOK 2.00'));
    expect(displayMoney({ minor: 2n, currency: 'JPY' }).en).toBe(nbsp('JPY 2'));
    expect(displayMoney({ minor: 2000n, currency: 'BHD' }).en).toBe(nbsp('BHD 2.000'));
  });

  it('keeps the largest 14-digit amount exact to the øre (no floating-point rounding)', () => {
    // 99 999 999 999 999.99 is not representable as a double: through Number() it would lose an øre.
    expect(Number('99999999999999.99').toFixed(2)).toBe('99999999999999.98');
    expect(displayMoney({ minor: 9_999_999_999_999_999n, currency: 'NOK' })).toEqual({
      en: nbsp('NOK 99,999,999,999,999.99'),
      nb: nbsp('99 999 999 999 999,99 kr'),
    });
    expect(displayMoney({ minor: 1_234_567_890_123_401n, currency: 'NOK' })).toEqual({
      en: nbsp('NOK 12,345,678,901,234.01'),
      nb: nbsp('12 345 678 901 234,01 kr'),
    });
    expect(displayMoney({ minor: 99_999_999_999_999_999n, currency: 'BHD' }).en).toBe(nbsp('BHD 99,999,999,999,999.999'));
  });

  it('separates groups and the currency with no-break spaces, never a plain space', () => {
    for (const money of [
      { minor: 123456n, currency: 'NOK' },
      { minor: 123456n, currency: 'EUR' },
    ]) {
      const shown = displayMoney(money);
      expect(shown.en).not.toContain(' ');
      expect(shown.nb).not.toContain(' ');
      expect(shown.nb).toContain(NBSP);
    }
  });

  it('throws for a currency without known minor units rather than guess', () => {
    expect(() => displayMoney({ minor: 100n, currency: 'XYZ' })).toThrow();
  });
});

describe('displayDate', () => {
  it.each([
    { date: '2026-12-24', en: '24 December 2026', nb: '24. desember 2026' },
    { date: '2027-01-01', en: '1 January 2027', nb: '1. januar 2027' },
    { date: '2026-05-17', en: '17 May 2026', nb: '17. mai 2026' },
    { date: '2028-02-29', en: '29 February 2028', nb: '29. februar 2028' },
    { date: '2026-03-31', en: '31 March 2026', nb: '31. mars 2026' },
    { date: '2026-10-31', en: '31 October 2026', nb: '31. oktober 2026' },
  ])('$date reads "$en" / "$nb"', ({ date, en, nb }) => {
    expect(displayDate(date)).toEqual({ en, nb });
  });

  it('does not move a date by the time zone or daylight-saving shift of the process', () => {
    // The first and last days of the year, and the days of the spring and autumn clock changes in Oslo.
    expect(displayDate('2026-01-01').en).toBe('1 January 2026');
    expect(displayDate('2026-12-31').en).toBe('31 December 2026');
    expect(displayDate('2026-03-29').nb).toBe('29. mars 2026');
    expect(displayDate('2026-10-25').nb).toBe('25. oktober 2026');
  });
});
