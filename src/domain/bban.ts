import { checkDigitString, mod11CheckDigit } from './digit-number.js';
import { fail, localized, pass, type Check } from './localized.js';

/** ECBS TR201 weights over digits 1–10 of a Norwegian account number (norway-domain.md §1.2). */
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

function checkDigit(digits: string): number | undefined {
  return mod11CheckDigit(digits, WEIGHTS);
}

/**
 * Appends the check digit to ten digits, for tests and sandbox data. Undefined when the input is
 * not ten digits, the bank code is 0000, or the check digit would be 10: no valid number starts so.
 */
export function makeNorwegianBban(first10: string): string | undefined {
  if (!/^[0-9]{10}$/.test(first10) || first10.startsWith('0000')) return undefined;
  const digit = checkDigit(first10);
  return digit === undefined ? undefined : `${first10}${digit}`;
}

/**
 * Checks a Norwegian BBAN (kontonummer) in its wire form: 11 bare digits, no dots or spaces, with
 * the MOD11 check digit over all ten digits before it. python-stdnum and most validators ignore
 * ECBS's variant for account group 00 (check over digits 7–10 only), and so do we (research §1.2).
 */
export function checkNorwegianBban(value: string): Check<string> {
  const format = checkDigitString(value, 11);
  if (!format.ok) return format;
  // 00000000000 passes MOD11, and the old 7-digit postgiro numbers padded with 0000 use another
  // check; no bank has the register number 0000.
  if (value.startsWith('0000')) {
    return fail(localized('the bank code 0000 (digits 1–4) does not exist', 'bankkoden 0000 (siffer 1–4) finnes ikke'));
  }
  const digit = checkDigit(value);
  if (digit === undefined) {
    return fail(
      localized(
        'the first 10 digits cannot form a valid account number (the check digit would be 10)',
        'de 10 første sifrene kan ikke gi et gyldig kontonummer (kontrollsifferet ville blitt 10)',
      ),
    );
  }
  if (digit !== Number(value[10])) {
    return fail(localized('the check digit (digit 11) is wrong', 'kontrollsifferet (siffer 11) er feil'));
  }
  return pass(value);
}
