import { describe, expect, it } from 'vitest';
import { checkOrganisationNumber, makeOrganisationNumber } from '../../src/domain/organisation-number.js';

describe('checkOrganisationNumber', () => {
  it.each(['988077917', '998447356', '123456785', '974760673', '923609016', '914778271', '988077100'])('accepts %s', (number) => {
    expect(checkOrganisationNumber(number)).toEqual({ ok: true, value: number });
  });

  it.each([
    ['988077918', 'check digit (digit 9) is wrong', 'kontrollsifferet (siffer 9) er feil'],
    ['988077160', 'the check digit would be 10', 'kontrollsifferet ville blitt 10'],
    ['98807791', 'must be 9 digits, got 8', 'må ha 9 sifre, men har 8'],
    ['9880779170', 'must be 9 digits, got 10', 'må ha 9 sifre, men har 10'],
    ['', 'must be 9 digits, got 0', 'må ha 9 sifre, men har 0'],
    ['988 077 917', 'character 4 is a space', 'tegn nr. 4 er et mellomrom'],
    ['NO988077917MVA', 'character 1 is not a digit', 'tegn nr. 1 er ikke et siffer'],
    ['98807791-', 'character 9 is not a digit', 'tegn nr. 9 er ikke et siffer'],
  ])('refuses %s: %s', (number, en, nb) => {
    const result = checkOrganisationNumber(number);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('makeOrganisationNumber', () => {
  it.each([
    ['98807791', '988077917'],
    ['12345678', '123456785'],
    ['98807710', '988077100'],
  ])('appends the check digit to %s', (first8, number) => {
    expect(makeOrganisationNumber(first8)).toBe(number);
  });

  it.each(['98807716', '9880779', '988077917', '9880779x'])('gives undefined for %s', (first8) => {
    expect(makeOrganisationNumber(first8)).toBeUndefined();
  });
});
