/**
 * The first member name that an object of a JSON text gives twice. `JSON.parse` keeps the last of
 * two equal names without a word (RFC 8259 §4 leaves the meaning open), so a payment naming
 * `instructedAmount` twice would be stored with one amount while a reader of the first sees
 * another, over the same signed bytes. The parsed value cannot show a repeat: the text is read.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** An open object (with the names given so far) or an open array (with the element's index). */
interface Container {
  readonly names: Set<string> | undefined;
  name: string;
  index: number;
}

/**
 * The path (`access.accounts[0].iban`, as the API names fields) of the first repeated member name
 * in `text`, which must be valid JSON (parse it first); `undefined` when every name is given once.
 * One pass over the text, names compared after their escapes are read (`"a"` and `"\u0061"` are
 * the same name).
 */
export function repeatedMemberIn(text: string): string | undefined {
  const open: Container[] = [];
  // In an object, the string after `{` or `,` is a name; the one after `:` is a value.
  let nameNext = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = endOfString(text, at);
      if (nameNext) {
        const container = open[open.length - 1]!;
        const raw = text.slice(at + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(at, end + 1)) as string) : raw;
        if (container.names!.has(name)) return pathOf(open, name);
        container.names!.add(name);
        container.name = name;
        nameNext = false;
      }
      at = end;
    } else if (code === OPEN_OBJECT) {
      open.push({ names: new Set(), name: '', index: 0 });
      nameNext = true;
    } else if (code === OPEN_ARRAY) {
      open.push({ names: undefined, name: '', index: 0 });
      nameNext = false;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      open.pop();
      nameNext = false;
    } else if (code === COMMA) {
      const container = open[open.length - 1]!;
      if (container.names) nameNext = true;
      else container.index++;
    }
  }
  return undefined;
}

/** The index of the quote that ends the string whose opening quote is at `start`. */
function endOfString(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  // A quote after an odd number of backslashes is escaped: part of the string.
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function pathOf(open: readonly Container[], repeated: string): string {
  let path = '';
  // The innermost container holds the repeat; every one outside it is at its current member or element.
  for (let depth = 0; depth < open.length - 1; depth++) {
    const container = open[depth]!;
    path = container.names ? (path ? `${path}.${container.name}` : container.name) : `${path}[${container.index}]`;
  }
  return path ? `${path}.${repeated}` : repeated;
}
