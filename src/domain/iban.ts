import { checkNorwegianBban } from './bban.js';
import { isCountryCode } from './countries.js';
import { fail, localized, pass, type Check } from './localized.js';

/** ISO 13616: at most 34 characters (country, check digits and a BBAN of up to 30). */
const MAX_LENGTH = 34;
const NORWEGIAN_LENGTH = 15;

/**
 * ISO 7064 MOD 97-10 over the IBAN rearranged (first four characters moved to the end), letters
 * read as 10–35. One character at a time keeps the remainder small, so no BigInt is needed and a
 * 34-character IBAN cannot lose precision the way Number would.
 */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = parseInt(char, 36);
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder;
}

/** The first character the wire format does not allow, explained; undefined when all are allowed. */
function characterProblem(value: string): Check<never> | undefined {
  const bad = value.search(/[^A-Z0-9]/);
  if (bad < 0) return undefined;
  const char = value[bad] ?? '';
  const position = bad + 1;
  if (/\s/.test(char)) {
    return fail(
      localized(
        `must be written without spaces, but character ${position} is a space`,
        `må skrives uten mellomrom, men tegn nr. ${position} er et mellomrom`,
      ),
    );
  }
  if (/[a-z]/.test(char)) {
    return fail(
      localized(
        `must be written in capital letters, but character ${position} is lower case`,
        `må skrives med store bokstaver, men tegn nr. ${position} er en liten bokstav`,
      ),
    );
  }
  return fail(
    localized(
      `may contain only letters A–Z and digits, but character ${position} is "${char}"`,
      `kan bare inneholde bokstavene A–Z og sifre, men tegn nr. ${position} er "${char}"`,
    ),
  );
}

/** Country code, check digits and length, before any arithmetic. */
function structureProblem(value: string): Check<never> | undefined {
  if (value === '') return fail(localized('is empty', 'er tom'));
  const characters = characterProblem(value);
  if (characters !== undefined) return characters;
  if (value.length > MAX_LENGTH) {
    return fail(
      localized(
        `must be at most ${MAX_LENGTH} characters, got ${value.length}`,
        `kan ha høyst ${MAX_LENGTH} tegn, men har ${value.length}`,
      ),
    );
  }
  const country = value.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(country)) {
    return fail(
      localized(
        `must start with a two-letter country code, got "${country}"`,
        `må begynne med en landkode på to bokstaver, men begynner med "${country}"`,
      ),
    );
  }
  if (!/^[0-9]{2}$/.test(value.slice(2, 4))) {
    return fail(
      localized(
        `characters 3–4 must be the two check digits, got "${value.slice(2, 4)}"`,
        `tegn 3–4 må være de to kontrollsifrene, men er "${value.slice(2, 4)}"`,
      ),
    );
  }
  if (value.length < 5) {
    return fail(localized(`must be at least 5 characters, got ${value.length}`, `må ha minst 5 tegn, men har ${value.length}`));
  }
  if (!isCountryCode(country)) {
    return fail(localized(`${country} is not an ISO 3166 country code`, `${country} er ikke en ISO 3166-landkode`));
  }
  if (country === 'NO') {
    if (value.length !== NORWEGIAN_LENGTH) {
      return fail(
        localized(
          `a Norwegian IBAN has ${NORWEGIAN_LENGTH} characters, got ${value.length}`,
          `et norsk IBAN har ${NORWEGIAN_LENGTH} tegn, men dette har ${value.length}`,
        ),
      );
    }
    const letter = value.slice(4).search(/[^0-9]/);
    if (letter >= 0) {
      return fail(
        localized(
          `characters 5–15 of a Norwegian IBAN must be digits, but character ${letter + 5} is "${value[letter + 4] ?? ''}"`,
          `tegn 5–15 i et norsk IBAN må være sifre, men tegn nr. ${letter + 5} er "${value[letter + 4] ?? ''}"`,
        ),
      );
    }
  }
  return undefined;
}

/**
 * Checks an IBAN in its wire form (no spaces, capital letters; research §1.3): the generic ISO
 * 13616 structure, an ISO 3166 country, the MOD 97-10 check digits and, for Norway, 15 characters
 * whose BBAN part also passes the MOD11 check, so a typo is usually caught twice. The Berlin Group
 * schema leaves the country length and both checks to the ASPSP. Other countries' lengths are not
 * checked: the MOD 97-10 check already catches nearly every typo.
 */
export function checkIban(value: string): Check<string> {
  const structure = structureProblem(value);
  if (structure !== undefined) return structure;
  const remainder = mod97(value);
  const bban = value.startsWith('NO') ? checkNorwegianBban(value.slice(4)) : pass(value.slice(4));
  if (remainder !== 1) {
    const also = bban.ok
      ? localized('', '')
      : localized(
          `; the account number (characters 5–15) is also wrong: ${bban.reason.en}`,
          `; kontonummeret (tegn 5–15) er også feil: ${bban.reason.nb}`,
        );
    return fail(
      localized(
        `the check digits (characters 3–4) do not match the rest (MOD 97-10 remainder ${remainder}, must be 1)${also.en}`,
        `kontrollsifrene (tegn 3–4) stemmer ikke med resten (MOD 97-10 gir rest ${remainder}, må være 1)${also.nb}`,
      ),
    );
  }
  if (!bban.ok) {
    return fail(
      localized(
        `the IBAN check digits are right, but the account number (characters 5–15) is not: ${bban.reason.en}`,
        `IBAN-kontrollsifrene stemmer, men kontonummeret (tegn 5–15) gjør ikke det: ${bban.reason.nb}`,
      ),
    );
  }
  return pass(value);
}

/**
 * The Norwegian IBAN of a BBAN: check digits 98 − (BBAN + "2324" + "00") mod 97, where 2324 is
 * "NO" read as 23 and 24. Throws on an invalid BBAN: callers check input first, so that is a
 * programming error, and an IBAN made from it would be refused by {@link checkIban} anyway.
 */
export function ibanFromNorwegianBban(bban: string): string {
  const checked = checkNorwegianBban(bban);
  if (!checked.ok) throw new Error(`Not a valid Norwegian BBAN: ${checked.reason.en}`);
  const check = 98 - mod97(`NO00${bban}`);
  return `NO${String(check).padStart(2, '0')}${bban}`;
}

/** The BBAN inside a valid Norwegian IBAN; undefined for any other IBAN or an invalid one. */
export function norwegianBbanOfIban(iban: string): string | undefined {
  return iban.startsWith('NO') && checkIban(iban).ok ? iban.slice(4) : undefined;
}
