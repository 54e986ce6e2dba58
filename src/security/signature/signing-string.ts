/**
 * The signing string of draft-cavage-http-signatures-10 §2.3, built over the bytes the client
 * sent. Node hands header values over as latin1 strings (one character per byte), so the string
 * is turned back into bytes with latin1: a UTF-8 PSU-ID is signed and verified byte for byte.
 */
export interface MessageParts {
  /** HTTP method as received. */
  readonly method: string;
  /** Path and query exactly as sent on the request line. */
  readonly target: string;
  /** Every value of a header, in wire order; undefined when absent. Names are lower-case. */
  readonly header: (name: string) => readonly string[] | undefined;
}

export type SigningStringResult = { ok: true; bytes: Buffer } | { ok: false; missingHeader: string };

export function buildSigningString(headerNames: readonly string[], message: MessageParts): SigningStringResult {
  const lines: string[] = [];
  for (const name of headerNames) {
    if (name === '(request-target)') {
      lines.push(`(request-target): ${message.method.toLowerCase()} ${message.target}`);
      continue;
    }
    const values = message.header(name);
    if (values === undefined || values.length === 0) {
      return { ok: false, missingHeader: name };
    }
    // §2.3: trim optional whitespace; several instances are joined with ", ".
    lines.push(`${name}: ${values.map((value) => value.trim()).join(', ')}`);
  }
  return { ok: true, bytes: Buffer.from(lines.join('\n'), 'latin1') };
}
