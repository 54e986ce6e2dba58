import { fail, localized, pass, type Check } from '../../domain/localized.js';

/** Checks a TPP-Session-ID: 1 to 100 visible ASCII characters (0x21–0x7E), e.g. a UUID. */
export function checkTppSessionId(value: string): Check<string> {
  if (value.length === 0) return fail(localized('must not be empty', 'kan ikke være tom'));
  if (value.length > 100) {
    return fail(localized(`must be at most 100 characters, got ${value.length}`, `kan ha høyst 100 tegn, men har ${value.length}`));
  }
  const bad = value.search(/[^\x21-\x7e]/);
  if (bad >= 0) {
    return fail(
      localized(
        `character ${bad + 1} is not a visible ASCII character (spaces, control and non-ASCII characters are not allowed)`,
        `tegn nr. ${bad + 1} er ikke et synlig ASCII-tegn (mellomrom, kontrolltegn og ikke-ASCII-tegn er ikke tillatt)`,
      ),
    );
  }
  return pass(value);
}
