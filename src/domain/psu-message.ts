/**
 * The length rule of a `psuMessage` (Berlin Group `psuMessageText`: `maxLength: 500`). Messages
 * that name things by count (a bulk's failed payments) are composed to fit; {@link withinPsuMessage}
 * is the last guard where a psuMessage leaves the server, for words the server does not choose (a
 * bank's refusal).
 */
export const PSU_MESSAGE_MAX_LENGTH = 500;

/** The text cut to `max` characters (UTF-16 units, so never more code points), ending in "…" when cut. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Not between the two halves of a surrogate pair: a lone half is no character.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** A psuMessage within the Berlin Group's 500 characters. */
export function withinPsuMessage(text: string): string {
  return clipText(text, PSU_MESSAGE_MAX_LENGTH);
}
