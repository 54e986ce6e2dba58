import { fail, localized, pass, type Check, type Localized } from '../../domain/localized.js';

const MAX_LENGTH = 2048;

// Plain http is only safe where the traffic never leaves the TPP developer's machine.
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]';
}

function refuse(en: string, nb: string): Check<never> {
  return fail(localized(en, nb));
}

/** The first reason the raw text cannot be a redirect target, before URL parsing forgives it. */
function checkCharacters(value: string): Localized | undefined {
  if (value.length > MAX_LENGTH) {
    return localized(
      `must be at most ${MAX_LENGTH} characters, got ${value.length}`,
      `kan ha høyst ${MAX_LENGTH} tegn, men har ${value.length}`,
    );
  }
  // WHATWG URL silently strips spaces, tabs and newlines; a URI that needs that is malformed.
  const bad = value.search(/[^\x21-\x7e]/);
  if (bad >= 0) {
    const code = value.charCodeAt(bad);
    const what =
      code === 0x20
        ? localized('a space', 'et mellomrom')
        : code < 0x20 || code === 0x7f
          ? localized('a control character', 'et kontrolltegn')
          : localized('not ASCII', 'ikke ASCII');
    return localized(`character ${bad + 1} is ${what.en}; percent-encode it`, `tegn nr. ${bad + 1} er ${what.nb}; prosentkod det`);
  }
  // WHATWG URL reads `\` as `/` in http(s) URLs; a TPP's URI that relies on it is malformed.
  if (value.includes('\\')) {
    return localized('must not contain a backslash', 'kan ikke inneholde omvendt skråstrek');
  }
  // RFC 3986 Appendix C: `"`, `<` and `>` delimit a URI in text, so no URI holds them unencoded.
  const delimiter = value.search(/["<>]/);
  if (delimiter >= 0) {
    return localized(
      `character ${delimiter + 1} is ${value[delimiter]}, which a URI never holds; percent-encode it`,
      `tegn nr. ${delimiter + 1} er ${value[delimiter]}, som en URI aldri inneholder; prosentkod det`,
    );
  }
  // RFC 3986 §2.1: `%` only ever starts a percent-encoding, two hex digits.
  const percent = value.search(/%(?![0-9A-Fa-f]{2})/);
  if (percent >= 0) {
    return localized(
      `character ${percent + 1} is a % not followed by two hex digits; write a % itself as %25`,
      `tegn nr. ${percent + 1} er et % som ikke følges av to heksadesimale sifre; skriv % selv som %25`,
    );
  }
  // '#' always starts a fragment, even an empty one that URL.hash reports as ''.
  if (value.includes('#')) {
    return localized('must not have a fragment (#…)', 'kan ikke ha et fragment (#…)');
  }
  return undefined;
}

/**
 * Checks TPP-Redirect-URI / TPP-Nok-Redirect-URI: an absolute https URI (http only for loopback
 * hosts), without fragment or user:password, at most 2048 characters. Returns it as sent.
 */
export function checkRedirectUri(value: string): Check<string> {
  const characters = checkCharacters(value);
  if (characters) return fail(characters);
  if (!URL.canParse(value)) {
    return refuse(
      'must be an absolute URI such as https://tpp.example/callback',
      'må være en absolutt URI, for eksempel https://tpp.example/callback',
    );
  }
  // WHATWG URL also forgives `https:/host` and `https:host`: docs/design.md §5 wants an absolute URI with
  // a host, written as one.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/.test(value)) {
    return refuse(
      'must be an absolute URI with a host, written scheme://host/…, such as https://tpp.example/callback',
      'må være en absolutt URI med vert, skrevet skjema://vert/…, for eksempel https://tpp.example/callback',
    );
  }
  const url = new URL(value);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return refuse(
      `must use https; http is only allowed for localhost, *.localhost, 127.0.0.1 and [::1], not ${url.hostname}`,
      `må bruke https; http er bare tillatt for localhost, *.localhost, 127.0.0.1 og [::1], ikke ${url.hostname}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`must use https, not ${url.protocol.slice(0, -1)}`, `må bruke https, ikke ${url.protocol.slice(0, -1)}`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('must not contain a user name or password', 'kan ikke inneholde brukernavn eller passord');
  }
  return pass(value);
}
