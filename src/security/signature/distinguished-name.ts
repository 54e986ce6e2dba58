/**
 * Distinguished names as they appear in keyIds (`CA=<issuer DN>`) and in certificates, reduced
 * to a comparable form. TPPs write the issuer in every way there is: X.500 or RFC 2253 order,
 * spaces or `%20`, `S` or `ST`, `OID.2.5.4.97` or `organizationIdentifier`. Two names are equal
 * when they hold the same attributes, whatever the order, case and spacing.
 */
const TYPE_ALIASES: Record<string, string> = {
  CN: '2.5.4.3',
  COMMONNAME: '2.5.4.3',
  SURNAME: '2.5.4.4',
  // @peculiar/x509 writes these short names for certificate attributes.
  SN: '2.5.4.4',
  G: '2.5.4.42',
  I: '2.5.4.43',
  INITIALS: '2.5.4.43',
  SERIALNUMBER: '2.5.4.5',
  C: '2.5.4.6',
  COUNTRYNAME: '2.5.4.6',
  L: '2.5.4.7',
  LOCALITYNAME: '2.5.4.7',
  S: '2.5.4.8',
  ST: '2.5.4.8',
  STATEORPROVINCENAME: '2.5.4.8',
  STREET: '2.5.4.9',
  O: '2.5.4.10',
  ORGANIZATIONNAME: '2.5.4.10',
  OU: '2.5.4.11',
  ORGANIZATIONALUNITNAME: '2.5.4.11',
  T: '2.5.4.12',
  TITLE: '2.5.4.12',
  POSTALCODE: '2.5.4.17',
  GIVENNAME: '2.5.4.42',
  GN: '2.5.4.42',
  ORGANIZATIONIDENTIFIER: '2.5.4.97',
  E: '1.2.840.113549.1.9.1',
  EMAIL: '1.2.840.113549.1.9.1',
  EMAILADDRESS: '1.2.840.113549.1.9.1',
  DC: '0.9.2342.19200300.100.1.25',
  UID: '0.9.2342.19200300.100.1.1',
};

/** One attribute as `<oid>=<normalised value>`. */
export type NormalisedAttribute = string;

export function normaliseAttribute(type: string, value: string): NormalisedAttribute {
  const upper = type
    .trim()
    .toUpperCase()
    .replace(/^OID\./, '');
  const oid = TYPE_ALIASES[upper] ?? upper;
  return `${oid}=${value.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/**
 * Parses a string DN (`CN=Test CA,O=Test QTSP AS,C=NO`, percent-encoded or not) into its
 * normalised attributes, sorted. Returns undefined when it is not a DN.
 */
export function parseDistinguishedName(text: string): NormalisedAttribute[] | undefined {
  const decoded = percentDecode(text);
  if (decoded === undefined) {
    return undefined;
  }
  const attributes: NormalisedAttribute[] = [];
  for (const rdn of splitUnescaped(decoded, /[,;+\n]/)) {
    if (rdn.trim() === '') {
      continue;
    }
    const equals = indexOfUnescaped(rdn, '=');
    if (equals <= 0) {
      return undefined;
    }
    attributes.push(normaliseAttribute(rdn.slice(0, equals), unescapeValue(rdn.slice(equals + 1))));
  }
  return attributes.length > 0 ? attributes.sort() : undefined;
}

export function sameAttributes(a: readonly NormalisedAttribute[], b: readonly NormalisedAttribute[]): boolean {
  return a.length === b.length && a.every((attribute, index) => attribute === b[index]);
}

function percentDecode(text: string): string | undefined {
  if (!text.includes('%')) {
    return text;
  }
  try {
    return decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return undefined;
  }
}

function splitUnescaped(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '\\' && i + 1 < text.length) {
      current += char + (text[i + 1] ?? '');
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (!quoted && separator.test(char)) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function indexOfUnescaped(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
    } else if (text[i] === char) {
      return i;
    }
  }
  return -1;
}

function unescapeValue(value: string): string {
  const trimmed = value.trim();
  // RFC 4514 §2.4: `#` + hex is the BER encoding of the value; Java writes attributes it has no
  // keyword for (organizationIdentifier, e-mail) this way.
  const ber = /^#([0-9A-Fa-f]{2})+$/.test(trimmed) ? berString(Buffer.from(trimmed.slice(1), 'hex')) : undefined;
  if (ber !== undefined) {
    return ber;
  }
  const unquoted = trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2 ? trimmed.slice(1, -1) : trimmed;
  return unquoted.replace(/\\([0-9A-Fa-f]{2}|.)/g, (_, escaped: string) =>
    escaped.length === 2 ? String.fromCharCode(parseInt(escaped, 16)) : escaped,
  );
}

/** The text of a BER-encoded string value (UTF8String, PrintableString, IA5String, …). */
function berString(bytes: Buffer): string | undefined {
  const tag = bytes[0];
  const length = bytes[1];
  const STRING_TAGS = [0x0c, 0x13, 0x14, 0x16, 0x1a];
  if (tag === undefined || length === undefined || length > 0x7f || !STRING_TAGS.includes(tag) || bytes.length !== length + 2) {
    return undefined;
  }
  return bytes.subarray(2).toString(tag === 0x0c ? 'utf8' : 'latin1');
}
