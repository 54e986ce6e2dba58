import { localized, type Localized } from './localized.js';

/**
 * Characters no text field of the API accepts (docs/design.md §4: bad input is a 4xx): they cannot be
 * stored, signed or shown faithfully, or they make a name read differently from what it is.
 * Refused, never stripped, so what the bank stores is exactly what the TPP sent.
 *
 * - a lone UTF-16 surrogate (not a character at all; JSON's `\uD800` escape can carry one);
 * - control characters other than tab, line feed and carriage return (C0, DEL, C1);
 * - bidirectional formatting (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which can
 *   show "Acme AS" for a name that is stored reversed;
 * - invisible formatting (U+00AD soft hyphen, U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF),
 *   which make two different names look alike.
 */
// Without the `u` flag the pattern sees UTF-16 units, so it can find a surrogate standing alone.
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** Why `text` is refused, naming the first unsafe character and its position (1-based), or undefined. */
export function unsafeCharacterIn(text: string): Localized | undefined {
  const match = UNSAFE.exec(text);
  if (!match) return undefined;
  const unit = text.charCodeAt(match.index);
  const code = `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
  const what =
    unit >= 0xd800 && unit <= 0xdfff
      ? localized('a lone UTF-16 surrogate', 'et enslig UTF-16-surrogat')
      : unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)
        ? localized('a control character', 'et kontrolltegn')
        : BIDI.test(String.fromCharCode(unit))
          ? localized('a bidirectional formatting character', 'et tegn for tekstretning')
          : localized('an invisible formatting character', 'et usynlig formateringstegn');
  return localized(
    `character ${match.index + 1} is ${what.en} (${code}), which is not accepted in text`,
    `tegn nr. ${match.index + 1} er ${what.nb} (${code}), som ikke godtas i tekst`,
  );
}
