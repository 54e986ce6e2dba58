import { isCountryCode } from './countries.js';
import { fail, localized, pass, type Check } from './localized.js';

/** The parts of an ISO 9362 BIC, with the characters each may hold. */
const PARTS = [
  {
    from: 0,
    to: 4,
    pattern: /^[A-Z]{4}$/,
    en: 'characters 1–4 (the institution code) must be letters',
    nb: 'tegn 1–4 (institusjonskoden) må være bokstaver',
  },
  {
    from: 4,
    to: 6,
    pattern: /^[A-Z]{2}$/,
    en: 'characters 5–6 (the country code) must be letters',
    nb: 'tegn 5–6 (landkoden) må være bokstaver',
  },
  {
    from: 6,
    to: 8,
    pattern: /^[A-Z0-9]{2}$/,
    en: 'characters 7–8 (the location code) must be letters or digits',
    nb: 'tegn 7–8 (stedskoden) må være bokstaver eller sifre',
  },
  {
    from: 8,
    to: 11,
    pattern: /^([A-Z0-9]{3})?$/,
    en: 'characters 9–11 (the branch code) must be letters or digits',
    nb: 'tegn 9–11 (filialkoden) må være bokstaver eller sifre',
  },
] as const;

/**
 * Checks a BIC (ISO 9362, e.g. DNBANOKKXXX): 8 or 11 capital letters and digits, institution code
 * of letters, and a country part that is an ISO 3166 code (XK included, see countries.ts). The
 * Berlin Group schema's extra location rule (character 7 not 0 or 1, character 8 not the letter O)
 * is SWIFT practice, not ISO 9362 structure, and is not enforced here.
 */
export function checkBic(value: string): Check<string> {
  const space = value.indexOf(' ');
  if (space >= 0) {
    return fail(
      localized(
        `must be written without spaces, but character ${space + 1} is a space`,
        `må skrives uten mellomrom, men tegn nr. ${space + 1} er et mellomrom`,
      ),
    );
  }
  if (value.length !== 8 && value.length !== 11) {
    return fail(localized(`must be 8 or 11 characters, got ${value.length}`, `må ha 8 eller 11 tegn, men har ${value.length}`));
  }
  if (/[a-z]/.test(value)) {
    return fail(
      localized(`must be written in capital letters (${value.toUpperCase()})`, `må skrives med store bokstaver (${value.toUpperCase()})`),
    );
  }
  for (const part of PARTS) {
    const text = value.slice(part.from, part.to);
    if (!part.pattern.test(text)) {
      return fail(localized(`${part.en}, got "${text}"`, `${part.nb}, men er "${text}"`));
    }
  }
  const country = value.slice(4, 6);
  if (!isCountryCode(country)) {
    return fail(
      localized(`characters 5–6 (${country}) are not an ISO 3166 country code`, `tegn 5–6 (${country}) er ikke en ISO 3166-landkode`),
    );
  }
  return pass(value);
}
