import { describe, expect, it } from 'vitest';
import { checkNorwegianIdentityNumber, makeNorwegianIdentityNumber, maskPsuId } from '../../src/domain/norwegian-identity-number.js';

/** Builds a number with correct check digits, so only the date or century can be wrong. */
function withCheckDigits(first9: string): string {
  const number = makeNorwegianIdentityNumber(first9);
  if (number === undefined) throw new Error(`test setup: ${first9} has no valid check digits`);
  return number;
}

describe('checkNorwegianIdentityNumber', () => {
  it.each([
    ['31129956715', 'birth-number'], // fnrinfo.no worked example
    ['15108695088', 'birth-number'],
    ['01010750160', 'birth-number'],
    ['14087726100', 'birth-number'], // both remainders 0
    ['29100207042', 'birth-number'],
    ['41010199946', 'd-number'],
    ['43022014103', 'd-number'],
    [withCheckDigits('710199123'), 'd-number'], // 31.01.1999, the highest D-number day
    [withCheckDigits('014399123'), 'h-number'], // 01.03.1999, month + 40
    [withCheckDigits('315299124'), 'h-number'], // 31.12.1999, the highest H-number month
    [withCheckDigits('800101123'), 'fh-number'],
    [withCheckDigits('990000123'), 'fh-number'], // FH-numbers carry no date at all
    [withCheckDigits('290200500'), 'birth-number'], // 29.02.2000: III ≥ 500 with YY < 40, a leap year
    [withCheckDigits('010154500'), 'birth-number'], // 01.01.1854: III 500–749 with YY ≥ 54
    [withCheckDigits('010199900'), 'birth-number'], // 01.01.1999: III 900–999 with YY ≥ 40
    [withCheckDigits('018199123'), 'synthetic'], // Tenor test register: 01.01.1999, month + 80
    [withCheckDigits('419299123'), 'synthetic'], // a Tenor D-number: day + 40 and month + 80
  ])('accepts %s as a %s', (number, kind) => {
    expect(checkNorwegianIdentityNumber(number)).toEqual({ ok: true, value: { number, kind } });
  });

  // The sandbox seeds these customers; they must stay valid.
  it.each(['13039319955', '12085592767', '18129215603', '20079518612'])('accepts seeded customer %s', (number) => {
    expect(checkNorwegianIdentityNumber(number)).toEqual({ ok: true, value: { number, kind: 'birth-number' } });
  });

  it.each([
    ['1510869508', 'must be 11 digits, got 10', 'må ha 11 sifre, men har 10'],
    ['151086950881', 'must be 11 digits, got 12', 'må ha 11 sifre, men har 12'],
    ['', 'must be 11 digits, got 0', 'må ha 11 sifre, men har 0'],
    ['1510869508a', 'character 11 is not a digit', 'tegn nr. 11 er ikke et siffer'],
    ['151086 95088', 'character 7 is a space', 'tegn nr. 7 er et mellomrom'],
    ['15108695088\u00e9', 'character 12 is not a digit', 'tegn nr. 12 er ikke et siffer'], // latin1 bytes from Node
    ['١٥١٠٨٦٩٥٠٨٨', 'character 1 is not a digit', 'tegn nr. 1 er ikke et siffer'], // Arabic-Indic digits
    ['15108695077', 'first check digit (digit 10) is wrong', 'første kontrollsiffer (siffer 10) er feil'],
    ['01010100000', 'first check digit (digit 10) is wrong', 'første kontrollsiffer (siffer 10) er feil'],
    ['31129956716', 'second check digit (digit 11) is wrong', 'andre kontrollsiffer (siffer 11) er feil'],
    ['01019910600', 'first check digit would be 10', 'første kontrollsiffer ville blitt 10'],
    ['01019911060', 'second check digit would be 10', 'andre kontrollsiffer ville blitt 10'],
    [withCheckDigits('310299123'), 'birth date 31.02.1999 does not exist', 'fødselsdatoen 31.02.1999 finnes ikke'],
    [withCheckDigits('290201502'), 'birth date 29.02.2001 does not exist', 'fødselsdatoen 29.02.2001 finnes ikke'],
    [withCheckDigits('290200100'), 'birth date 29.02.1900 does not exist', 'fødselsdatoen 29.02.1900 finnes ikke'],
    [withCheckDigits('000199123'), 'birth date 00.01.1999 does not exist', 'fødselsdatoen 00.01.1999 finnes ikke'],
    [withCheckDigits('310499123'), 'birth date 31.04.1999 does not exist', 'fødselsdatoen 31.04.1999 finnes ikke'],
    [withCheckDigits('400199123'), '00.01.1999 does not exist (D-number', '00.01.1999 finnes ikke (D-nummer'],
    [withCheckDigits('720199123'), '32.01.1999 does not exist (D-number', '32.01.1999 finnes ikke (D-nummer'],
    [withCheckDigits('314499123'), '31.04.1999 does not exist (H-number', '31.04.1999 finnes ikke (H-nummer'],
    [withCheckDigits('011399123'), 'month digits 13 are neither', 'månedssifrene 13 er verken'],
    [withCheckDigits('010099123'), 'month digits 00 are neither', 'månedssifrene 00 er verken'],
    [withCheckDigits('015399123'), 'month digits 53 are neither', 'månedssifrene 53 er verken'],
    [withCheckDigits('018099123'), 'month digits 80 are neither', 'månedssifrene 80 er verken'],
    [withCheckDigits('019399123'), 'month digits 93 are neither', 'månedssifrene 93 er verken'],
    [withCheckDigits('308299124'), 'birth date 30.02.1999 does not exist (Tenor', 'fødselsdatoen 30.02.1999 finnes ikke (Tenor'],
    [withCheckDigits('414199123'), 'both a D-number', 'både D-nummer'],
    [withCheckDigits('010199800'), 'individual number 800 does not match any century for the year 99', 'individnummeret 800'],
    [withCheckDigits('010153500'), 'individual number 500 does not match any century for the year 53', 'årstallet 53'],
  ])('refuses %s: %s', (number, en, nb) => {
    const result = checkNorwegianIdentityNumber(number);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('makeNorwegianIdentityNumber', () => {
  it.each([
    ['311299567', '31129956715'],
    ['151086950', '15108695088'],
    ['140877261', '14087726100'],
    ['410101999', '41010199946'],
  ])('appends the check digits to %s', (first9, number) => {
    expect(makeNorwegianIdentityNumber(first9)).toBe(number);
  });

  it.each([
    ['010199106', 'the first check digit would be 10'],
    ['010199110', 'the second check digit would be 10'],
    ['31129956', 'only 8 digits'],
    ['3112995671', '10 digits'],
    ['31129956x', 'a letter'],
  ])('gives undefined for %s (%s)', (first9) => {
    expect(makeNorwegianIdentityNumber(first9)).toBeUndefined();
  });
});

describe('maskPsuId', () => {
  it.each([
    ['13039319955', '•••••••9955'],
    ['12345', '•2345'],
    ['1234', '••••'],
    ['', ''],
  ])('shows %j as %j: the last four characters only, and nothing of an id of four or fewer', (psuId, masked) => {
    expect(maskPsuId(psuId)).toBe(masked);
    expect(maskPsuId(psuId)).toHaveLength(psuId.length);
  });
});
