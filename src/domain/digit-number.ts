import { fail, localized, pass, type Check } from './localized.js';

/**
 * The MOD11 check digit of Norwegian numbers (identity numbers, organisation numbers, account
 * numbers): Σ weight·digit, remainder r, digit 11 − r (0 when r is 0). Undefined when that gives
 * 10: such a prefix has no valid number and is never issued.
 */
export function mod11CheckDigit(digits: string, weights: readonly number[]): number | undefined {
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  const digit = (11 - (sum % 11)) % 11;
  return digit === 10 ? undefined : digit;
}

/** A number written as exactly `length` digits, refused with a text that points at what is wrong. */
export function checkDigitString(value: string, length: number): Check<string> {
  const bad = value.search(/[^0-9]/);
  if (bad >= 0) {
    const what = value[bad] === ' ' ? localized('a space', 'et mellomrom') : localized('not a digit', 'ikke et siffer');
    return fail(
      localized(
        `must contain only digits, but character ${bad + 1} is ${what.en}`,
        `kan bare inneholde sifre, men tegn nr. ${bad + 1} er ${what.nb}`,
      ),
    );
  }
  if (value.length !== length) {
    return fail(localized(`must be ${length} digits, got ${value.length}`, `må ha ${length} sifre, men har ${value.length}`));
  }
  return pass(value);
}
