import { fail, localized, pass, type Check } from './localized.js';

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

/** MOD11 check digit over the first eight digits, or undefined when the remainder rule gives 10. */
function checkDigit(digits: string): number | undefined {
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  const digit = (11 - (sum % 11)) % 11;
  return digit === 10 ? undefined : digit;
}

/**
 * Appends the check digit to eight digits, for tests and sandbox data. Undefined when the input is
 * not eight digits or the check digit would be 10: such prefixes have no valid number.
 */
export function makeOrganisationNumber(first8: string): string | undefined {
  if (!/^[0-9]{8}$/.test(first8)) return undefined;
  const digit = checkDigit(first8);
  return digit === undefined ? undefined : `${first8}${digit}`;
}

/**
 * Checks a Norwegian organisasjonsnummer (norway-domain.md §3.2): 9 digits with a MOD11 check
 * digit. The first digit is not restricted, since published examples such as 123456785 start with 1.
 */
export function checkOrganisationNumber(value: string): Check<string> {
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
  if (value.length !== 9) {
    return fail(localized(`must be 9 digits, got ${value.length}`, `må ha 9 sifre, men har ${value.length}`));
  }
  const digit = checkDigit(value);
  if (digit === undefined) {
    return fail(
      localized(
        'the first 8 digits cannot form a valid number (the check digit would be 10)',
        'de 8 første sifrene kan ikke gi et gyldig nummer (kontrollsifferet ville blitt 10)',
      ),
    );
  }
  if (digit !== Number(value[8])) {
    return fail(localized('the check digit (digit 9) is wrong', 'kontrollsifferet (siffer 9) er feil'));
  }
  return pass(value);
}
