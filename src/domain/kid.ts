import { fail, localized, pass, type Check } from './localized.js';

export interface Kid {
  readonly kid: string;
  /** The check-digit algorithm the KID passes; MOD10 when it passes both. */
  readonly algorithm: 'MOD10' | 'MOD11';
}

const MIN_LENGTH = 2;
const MAX_LENGTH = 25;

/**
 * Luhn over the body (every character but the last): from the right, weights 2,1,2,1,…; a product
 * over 9 counts as product − 9. Digit by digit on the string, never parseInt: a 24-digit body
 * exceeds Number's exact range.
 */
function mod10CheckCharacter(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const product = Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return String((10 - (sum % 10)) % 10);
}

/** MOD11 over the body: from the right, weights 2–7 repeating; remainder 1 gives "-" (the "10"). */
function mod11CheckCharacter(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    sum += Number(body[body.length - 1 - i]) * (2 + (i % 6));
  }
  const remainder = sum % 11;
  return remainder === 0 ? '0' : remainder === 1 ? '-' : String(11 - remainder);
}

/**
 * A KID from its body digits with the MOD10 (Luhn) check digit appended, for sandbox data.
 * Undefined when the body is not 1–24 digits: no valid KID could be made from it.
 */
export function makeKid(body: string): string | undefined {
  if (!/^[0-9]{1,24}$/.test(body)) return undefined;
  return `${body}${mod10CheckCharacter(body)}`;
}

/**
 * Checks a KID (the OCR payment reference, norway-domain.md §2): 2–25 digits, of which the last
 * may be "-" (the MOD11 check digit 10). Each payee chooses MOD10 or MOD11 in its agreement, and
 * the payer's bank cannot know which, so a KID passing either is accepted (MOD10 tried first).
 */
export function checkKid(value: string): Check<Kid> {
  if (value.length < MIN_LENGTH || value.length > MAX_LENGTH) {
    return fail(
      localized(
        `must be ${MIN_LENGTH} to ${MAX_LENGTH} characters, got ${value.length}`,
        `må ha ${MIN_LENGTH} til ${MAX_LENGTH} tegn, men har ${value.length}`,
      ),
    );
  }
  const bad = value.search(/[^0-9]/);
  if (bad >= 0 && !(bad === value.length - 1 && value.endsWith('-'))) {
    const char = value[bad];
    const what =
      char === ' '
        ? localized('a space', 'et mellomrom')
        : char === '-'
          ? localized('"-", which is allowed only as the last character', '"-", som bare er tillatt som siste tegn')
          : localized(`"${char}", not a digit`, `"${char}", ikke et siffer`);
    return fail(
      localized(
        `must contain only digits (and possibly a final "-"), but character ${bad + 1} is ${what.en}`,
        `kan bare inneholde sifre (og eventuelt "-" til slutt), men tegn nr. ${bad + 1} er ${what.nb}`,
      ),
    );
  }
  const body = value.slice(0, -1);
  const check = value.slice(-1);
  if (mod10CheckCharacter(body) === check) return pass({ kid: value, algorithm: 'MOD10' });
  if (mod11CheckCharacter(body) === check) return pass({ kid: value, algorithm: 'MOD11' });
  return fail(
    localized(
      'the check digit (the last character) matches neither MOD10 (Luhn) nor MOD11',
      'kontrollsifferet (siste tegn) stemmer verken med MOD10 (Luhn) eller MOD11',
    ),
  );
}
