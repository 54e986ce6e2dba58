import { checkDigitString, mod11CheckDigit } from './digit-number.js';
import { fail, localized, pass, type Check } from './localized.js';

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

function checkDigit(digits: string): number | undefined {
  return mod11CheckDigit(digits, WEIGHTS);
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
  const format = checkDigitString(value, 9);
  if (!format.ok) return format;
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
