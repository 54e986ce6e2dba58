import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, minorUnits } from '../../src/domain/currencies.js';
import {
  addMoney,
  checkPositiveAmount,
  compareMoney,
  formatAmount,
  isPositive,
  negate,
  parseAmount,
  type Money,
} from '../../src/domain/money.js';
import { mulberry32 as random } from '../support/seeded-random.js';

function money(minor: bigint, currency = 'NOK'): Money {
  return { minor, currency };
}

describe('parseAmount', () => {
  it.each([
    ['100.33', 'NOK', 10033n],
    ['100', 'NOK', 10000n],
    ['100.3', 'NOK', 10030n],
    ['-5.00', 'NOK', -500n],
    ['0', 'NOK', 0n],
    ['0.01', 'NOK', 1n],
    ['-0', 'NOK', 0n],
    ['01.00', 'NOK', 100n],
    ['99999999999999.99', 'NOK', 9999999999999999n],
    ['100', 'JPY', 100n],
    ['1.234', 'BHD', 1234n],
    ['1.2', 'BHD', 1200n],
    ['1.234', 'CLF', 12340n],
    ['1056', 'EUR', 105600n],
    ['5768.2', 'EUR', 576820n],
    ['-1.50', 'EUR', -150n],
    ['5877.78', 'EUR', 587778n],
    ['100.10', 'XCG', 10010n],
    // 14 digits are more than Number holds exactly once the minor units are added.
    ['12345678901234.567', 'KWD', 12345678901234567n],
  ])('parses %s %s', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toEqual({ ok: true, value: { minor, currency } });
  });

  it.each([
    ['100.333', 'NOK', 'NOK has at most 2 decimals (ISO 4217), got 3', 'NOK har høyst 2 desimaler (ISO 4217), men beløpet har 3'],
    ['100.330', 'NOK', 'NOK has at most 2 decimals', 'NOK har høyst 2 desimaler'],
    ['100.5', 'JPY', 'JPY has no decimals (ISO 4217), got 1', 'JPY har ingen desimaler (ISO 4217), men beløpet har 1'],
    ['100.0', 'JPY', 'JPY has no decimals', 'JPY har ingen desimaler'],
    ['1.2345', 'BHD', 'BHD has at most 3 decimals (ISO 4217), got 4', 'BHD har høyst 3 desimaler (ISO 4217), men beløpet har 4'],
    ['1.23456', 'NOK', 'NOK has at most 2 decimals (ISO 4217), got 5', 'NOK har høyst 2 desimaler (ISO 4217), men beløpet har 5'],
    ['1.2345', 'CLF', 'has 4 decimals, at most 3 are allowed', 'har 4 desimaler, høyst 3 er tillatt'],
    ['100,50', 'NOK', 'uses a comma; the decimal separator is a dot', 'bruker komma; desimaltegnet er punktum'],
    ['1e3', 'NOK', 'not in exponent notation', 'ikke med eksponent'],
    ['1.5E2', 'NOK', 'not in exponent notation', 'ikke med eksponent'],
    ['', 'NOK', 'is empty', 'er tom'],
    ['1 000', 'NOK', 'must not contain spaces', 'kan ikke inneholde mellomrom'],
    [' 100', 'NOK', 'must not contain spaces', 'kan ikke inneholde mellomrom'],
    ['123456789012345', 'NOK', 'has 15 digits before the decimal point, at most 14 are allowed', 'har 15 sifre før desimaltegnet'],
    ['100.', 'NOK', 'got "100."', 'men er "100."'],
    ['.5', 'NOK', 'got ".5"', 'men er ".5"'],
    ['+5', 'NOK', 'got "+5"', 'men er "+5"'],
    ['--5', 'NOK', 'got "--5"', 'men er "--5"'],
    ['NaN', 'NOK', 'got "NaN"', 'men er "NaN"'],
    ['Infinity', 'NOK', 'got "Infinity"', 'men er "Infinity"'],
    ['0x10', 'NOK', 'got "0x10"', 'men er "0x10"'],
    ['١٠٠', 'NOK', 'got "١٠٠"', 'men er "١٠٠"'],
    ['100', 'ABC', 'ABC is not an active ISO 4217 currency code', 'ABC er ikke en gjeldende ISO 4217-valutakode'],
    ['100', 'nok', 'must be written in capital letters (NOK)', 'må skrives med store bokstaver (NOK)'],
    ['100', 'XAU', 'XAU has no minor unit', 'XAU har ingen minsteenhet'],
    ['100', 'BGN', 'replaced by EUR', 'erstattet av EUR'],
  ])('refuses %s %s: %s', (text, currency, en, nb) => {
    const result = parseAmount(text, currency);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('checkPositiveAmount', () => {
  it.each([
    ['0.01', 'NOK', 1n],
    ['100.33', 'NOK', 10033n],
    ['1', 'JPY', 1n],
  ])('accepts %s %s', (text, currency, minor) => {
    expect(checkPositiveAmount(text, currency)).toEqual({ ok: true, value: { minor, currency } });
  });

  it.each([
    ['0', 'NOK', 'must be greater than zero, got 0', 'må være større enn null, men er 0'],
    ['0.00', 'NOK', 'must be greater than zero, got 0.00', 'må være større enn null, men er 0.00'],
    ['-0', 'NOK', 'must be greater than zero, got -0', 'må være større enn null, men er -0'],
    ['-5.00', 'NOK', 'must be greater than zero, got -5.00', 'må være større enn null, men er -5.00'],
    ['100.333', 'NOK', 'NOK has at most 2 decimals', 'NOK har høyst 2 desimaler'],
  ])('refuses %s %s: %s', (text, currency, en, nb) => {
    const result = checkPositiveAmount(text, currency);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('formatAmount', () => {
  it.each([
    [10030n, 'NOK', '100.30'],
    [10033n, 'NOK', '100.33'],
    [10000n, 'NOK', '100.00'],
    [5n, 'NOK', '0.05'],
    [0n, 'NOK', '0.00'],
    [-500n, 'NOK', '-5.00'],
    [-5n, 'NOK', '-0.05'],
    [100n, 'JPY', '100'],
    [-100n, 'JPY', '-100'],
    [0n, 'JPY', '0'],
    [1234n, 'BHD', '1.234'],
    [4n, 'BHD', '0.004'],
    [12345n, 'CLF', '1.2345'],
    [9999999999999999n, 'NOK', '99999999999999.99'],
  ])('formats %s minor units of %s as %s', (minor, currency, text) => {
    expect(formatAmount(money(minor, currency))).toBe(text);
  });

  it('throws on a currency outside the table, a programming error', () => {
    expect(() => formatAmount(money(1n, 'XAU'))).toThrow(/XAU/);
  });

  it('gives the canonical form for 200 random amounts, and parses back to the same money', () => {
    const next = random(4217);
    const currencies = CURRENCY_CODES.filter((code) => (minorUnits(code) ?? 0) <= 3);
    for (let n = 0; n < 200; n++) {
      const currency = currencies[Math.floor(next() * currencies.length)]!;
      const digits = minorUnits(currency)!;
      const integerLength = 1 + Math.floor(next() * 14);
      let integer = '';
      for (let i = 0; i < integerLength; i++) integer += String(Math.floor(next() * 10));
      const decimalCount = Math.floor(next() * (digits + 1));
      let decimals = '';
      for (let i = 0; i < decimalCount; i++) decimals += String(Math.floor(next() * 10));
      const sign = next() < 0.3 ? '-' : '';
      const text = `${sign}${integer}${decimalCount > 0 ? `.${decimals}` : ''}`;

      const parsed = parseAmount(text, currency);
      if (!parsed.ok) throw new Error(`${text} ${currency} refused: ${parsed.reason.en}`);
      const canonicalInteger = integer.replace(/^0+(?=[0-9])/, '');
      const canonicalFraction = digits > 0 ? `.${decimals.padEnd(digits, '0')}` : '';
      const isZero = /^[0.]+$/.test(canonicalInteger + canonicalFraction);
      const expected = `${sign === '-' && !isZero ? '-' : ''}${canonicalInteger}${canonicalFraction}`;
      const formatted = formatAmount(parsed.value);
      expect(formatted, `${text} ${currency}`).toBe(expected);
      expect(parseAmount(formatted, currency)).toEqual(parsed);
      expect(formatAmount(negate(negate(parsed.value)))).toBe(formatted);
    }
  });
});

describe('arithmetic', () => {
  it('adds exactly where floating point would not', () => {
    const sum = addMoney(money(10n), money(20n));
    expect(formatAmount(sum)).toBe('0.30');
    expect(addMoney(money(10033n), negate(money(10033n)))).toEqual(money(0n));
  });

  it('negates', () => {
    expect(negate(money(500n))).toEqual(money(-500n));
    expect(negate(money(-500n))).toEqual(money(500n));
  });

  it.each([
    [1n, 2n, -1],
    [2n, 1n, 1],
    [2n, 2n, 0],
    [-5n, 0n, -1],
  ])('compares %s and %s as %i', (a, b, order) => {
    expect(compareMoney(money(a), money(b))).toBe(order);
  });

  it('sorts with compareMoney', () => {
    const sorted = [money(3n), money(-1n), money(2n)].sort(compareMoney);
    expect(sorted.map((m) => m.minor)).toEqual([-1n, 2n, 3n]);
  });

  it.each([
    [1n, true],
    [0n, false],
    [-1n, false],
  ])('isPositive(%s) is %s', (minor, positive) => {
    expect(isPositive(money(minor))).toBe(positive);
  });

  it('throws a plain Error when currencies differ', () => {
    expect(() => addMoney(money(1n, 'NOK'), money(1n, 'SEK'))).toThrow('Currency mismatch: NOK and SEK');
    expect(() => compareMoney(money(1n, 'NOK'), money(1n, 'EUR'))).toThrow('Currency mismatch: NOK and EUR');
  });
});
