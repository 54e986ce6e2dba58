import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, ISO_4217_PUBLISHED, checkCurrencyCode, isCurrencyCode, minorUnits } from '../../src/domain/currencies.js';

describe('currency table', () => {
  it('records the edition of ISO 4217 list one it reflects', () => {
    expect(ISO_4217_PUBLISHED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('holds the 165 list-one codes that have a minor unit, each once, sorted', () => {
    expect(CURRENCY_CODES).toHaveLength(165);
    expect(new Set(CURRENCY_CODES).size).toBe(165);
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it.each([
    ['NOK', 2],
    ['SEK', 2],
    ['DKK', 2],
    ['EUR', 2],
    ['USD', 2],
    ['GBP', 2],
    ['JPY', 0],
    ['ISK', 0],
    ['KRW', 0],
    ['XOF', 0],
    ['UYI', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['UYW', 4],
    ['XCG', 2],
    ['ZWG', 2],
    ['XAD', 2],
    ['SLE', 2],
    // Node's Intl says 0 for these; ISO 4217 says 2 (research §6.2).
    ['HUF', 2],
    ['IDR', 2],
    ['COP', 2],
    ['IQD', 3],
  ])('%s has %i minor units', (code, digits) => {
    expect(isCurrencyCode(code)).toBe(true);
    expect(minorUnits(code)).toBe(digits);
    expect(checkCurrencyCode(code)).toEqual({ ok: true, value: code });
  });

  it.each([
    'XAU',
    'XAG',
    'XPT',
    'XPD',
    'XDR',
    'XBA',
    'XSU',
    'XUA',
    'XTS',
    'XXX',
    'ANG',
    'BGN',
    'SLL',
    'ZWL',
    'HRK',
    'CUC',
    'nok',
    'NO',
    'NOKK',
    '',
    'ABC',
  ])('%s is not in the table', (code) => {
    expect(isCurrencyCode(code)).toBe(false);
    expect(minorUnits(code)).toBeUndefined();
  });
});

describe('checkCurrencyCode', () => {
  it.each([
    ['nok', 'must be written in capital letters (NOK)', 'må skrives med store bokstaver (NOK)'],
    ['NO', 'must be three capital letters (ISO 4217), got "NO"', 'må være tre store bokstaver (ISO 4217), men er "NO"'],
    ['', 'got ""', 'men er ""'],
    ['N0K', 'got "N0K"', 'men er "N0K"'],
    ['ANG', 'ANG has been withdrawn from ISO 4217 and replaced by XCG', 'ANG er trukket tilbake fra ISO 4217 og erstattet av XCG'],
    ['BGN', 'replaced by EUR', 'erstattet av EUR'],
    ['ZWL', 'replaced by ZWG', 'erstattet av ZWG'],
    ['XAU', 'XAU has no minor unit in ISO 4217', 'XAU har ingen minsteenhet i ISO 4217'],
    ['XDR', 'XDR has no minor unit', 'XDR har ingen minsteenhet'],
    ['XTS', 'cannot be used for amounts', 'kan ikke brukes for beløp'],
    ['ABC', 'ABC is not an active ISO 4217 currency code', 'ABC er ikke en gjeldende ISO 4217-valutakode'],
  ])('refuses "%s": %s', (code, en, nb) => {
    const result = checkCurrencyCode(code);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
