import { checkDigitString, mod11CheckDigit } from './digit-number.js';
import { fail, localized, pass, type Check } from './localized.js';

/**
 * A Norwegian national identity number (fødselsnummer) or one of its stand-ins. The research
 * (norway-domain.md §3.1) assumes PSU-ID carries one of these.
 */
export interface NorwegianIdentityNumber {
  readonly number: string;
  /** `synthetic`: a test number of Skatteetaten's Tenor test register (80 added to the month). */
  readonly kind: 'birth-number' | 'd-number' | 'h-number' | 'fh-number' | 'synthetic';
}

const FIRST_WEIGHTS = [3, 7, 6, 1, 8, 9, 4, 5, 2] as const;
const SECOND_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

const checkDigit = mod11CheckDigit;

/**
 * Appends both check digits to nine digits (DDMMYYIII), for tests and sandbox data. Undefined when
 * the input is not nine digits or a check digit would be 10: such prefixes have no valid number.
 */
export function makeNorwegianIdentityNumber(first9: string): string | undefined {
  if (!/^[0-9]{9}$/.test(first9)) return undefined;
  const k1 = checkDigit(first9, FIRST_WEIGHTS);
  if (k1 === undefined) return undefined;
  const k2 = checkDigit(`${first9}${k1}`, SECOND_WEIGHTS);
  return k2 === undefined ? undefined : `${first9}${k1}${k2}`;
}

/** The century rule of norway-domain.md §3.1, from the individual number III and the year YY. */
function century(individual: number, yy: number): number | undefined {
  if (individual < 500) return 1900;
  if (individual < 750 && yy >= 54) return 1800;
  if (yy < 40) return 2000;
  if (individual >= 900) return 1900;
  return undefined;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC avoids local-time surprises.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function checkCheckDigits(value: string): Check<string> {
  const k1 = checkDigit(value, FIRST_WEIGHTS);
  if (k1 === undefined) {
    return fail(
      localized(
        'the first 9 digits cannot form a valid number (the first check digit would be 10)',
        'de 9 første sifrene kan ikke gi et gyldig nummer (første kontrollsiffer ville blitt 10)',
      ),
    );
  }
  if (k1 !== Number(value[9])) {
    return fail(localized('the first check digit (digit 10) is wrong', 'første kontrollsiffer (siffer 10) er feil'));
  }
  const k2 = checkDigit(value, SECOND_WEIGHTS);
  if (k2 === undefined) {
    return fail(
      localized(
        'the first 10 digits cannot form a valid number (the second check digit would be 10)',
        'de 10 første sifrene kan ikke gi et gyldig nummer (andre kontrollsiffer ville blitt 10)',
      ),
    );
  }
  if (k2 !== Number(value[10])) {
    return fail(localized('the second check digit (digit 11) is wrong', 'andre kontrollsiffer (siffer 11) er feil'));
  }
  return pass(value);
}

/** The birth date a birth, D- or H-number encodes must exist; returns the number's kind. */
function checkBirthDate(value: string): Check<NorwegianIdentityNumber['kind']> {
  const dd = Number(value.slice(0, 2));
  const mm = Number(value.slice(2, 4));
  const yy = Number(value.slice(4, 6));
  const individual = Number(value.slice(6, 9));
  const isD = dd >= 40;
  const isH = mm >= 41 && mm <= 52;
  // TPPs test with synthetic persons from Skatteetaten's Tenor register, whose numbers add 80 to
  // the month (also on D-numbers); the sandbox must accept them like real ones.
  const isSynthetic = mm >= 81 && mm <= 92;
  if (!isH && !isSynthetic && (mm < 1 || mm > 12)) {
    return fail(
      localized(
        `the month digits ${value.slice(2, 4)} are neither a month (01–12), an H-number month (41–52) nor a Tenor test-number month (81–92)`,
        `månedssifrene ${value.slice(2, 4)} er verken en måned (01–12), en H-nummer-måned (41–52) eller en Tenor-testnummer-måned (81–92)`,
      ),
    );
  }
  if (isD && isH) {
    return fail(
      localized(
        'a number cannot be both a D-number (40 added to the day) and an H-number (40 added to the month)',
        'et nummer kan ikke være både D-nummer (40 lagt til dagen) og H-nummer (40 lagt til måneden)',
      ),
    );
  }
  const yearBase = century(individual, yy);
  if (yearBase === undefined) {
    return fail(
      localized(
        `the individual number ${value.slice(6, 9)} does not match any century for the year ${value.slice(4, 6)}`,
        `individnummeret ${value.slice(6, 9)} passer ikke med noe århundre for årstallet ${value.slice(4, 6)}`,
      ),
    );
  }
  const day = isD ? dd - 40 : dd;
  const month = isH ? mm - 40 : isSynthetic ? mm - 80 : mm;
  const year = yearBase + yy;
  if (day < 1 || day > daysInMonth(year, month)) {
    const date = `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`;
    const note = isD
      ? localized(' (D-number: 40 subtracted from the day)', ' (D-nummer: 40 trukket fra dagen)')
      : isH
        ? localized(' (H-number: 40 subtracted from the month)', ' (H-nummer: 40 trukket fra måneden)')
        : isSynthetic
          ? localized(' (Tenor test number: 80 subtracted from the month)', ' (Tenor-testnummer: 80 trukket fra måneden)')
          : localized('', '');
    return fail(localized(`the birth date ${date} does not exist${note.en}`, `fødselsdatoen ${date} finnes ikke${note.nb}`));
  }
  return pass(isSynthetic ? 'synthetic' : isD ? 'd-number' : isH ? 'h-number' : 'birth-number');
}

/**
 * Checks a fødselsnummer, D-number, H-number or FH-number: 11 digits, both MOD11 check digits,
 * and (except for FH-numbers, which carry no date by design) an existing birth date.
 */
export function checkNorwegianIdentityNumber(value: string): Check<NorwegianIdentityNumber> {
  const format = checkDigitString(value, 11);
  if (!format.ok) return format;
  const digits = checkCheckDigits(value);
  if (!digits.ok) return digits;
  if (value[0] === '8' || value[0] === '9') return pass({ number: value, kind: 'fh-number' });
  const kind = checkBirthDate(value);
  return kind.ok ? pass({ number: value, kind: kind.value }) : kind;
}

/** The dots that stand for the hidden digits of a masked PSU-ID. */
const MASK = '\u2022';

/**
 * A PSU-ID as the PSU's pages show it: only its last four characters, the rest as dots
 * (`•••••••9955`); an id of four characters or fewer is all dots.
 */
export function maskPsuId(psuId: string): string {
  const visible = psuId.length > 4 ? psuId.slice(-4) : '';
  return `${MASK.repeat(psuId.length - visible.length)}${visible}`;
}
