import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';

/**
 * The headers the server reads as one value, by lower-case name, with their canonical spelling.
 * Node joins a repeated header with ", " (and keeps only the first of a few, such as
 * Authorization and Content-Type), so a repeated one would be validated, or silently taken, as a
 * value nobody sent. Such a header sent twice is refused by name instead. Headers that RFC 9110
 * §5.6.1 list syntax allows to repeat are left out: Accept, Accept-Language, Content-Encoding,
 * `accept-fix` / `x-accept-fix` (a comma list of fixes), TPP-Notification-Content-Preferred
 * (`status=…, sca=…`) and the forwarded PSU-Accept* headers.
 */
const SINGLE_VALUED: ReadonlyMap<string, string> = new Map(
  [
    'X-Request-ID',
    'Signature',
    'Digest',
    'Date',
    'TPP-Signature-Certificate',
    'Authorization',
    'Content-Type',
    'Consent-ID',
    'PSU-ID',
    'PSU-ID-Type',
    'PSU-Corporate-ID',
    'PSU-Corporate-ID-Type',
    'PSU-IP-Address',
    'PSU-IP-Port',
    'PSU-User-Agent',
    'PSU-Http-Method',
    'PSU-Device-ID',
    'PSU-Geo-Location',
    'TPP-Redirect-URI',
    'TPP-Nok-Redirect-URI',
    'TPP-Explicit-Authorisation-Preferred',
    'TPP-Redirect-Preferred',
    'TPP-Notification-URI',
    'TPP-Session-ID',
    'Biometric-Authentication',
  ].map((name) => [name.toLowerCase(), name]),
);

export interface RawHeaders {
  /** Header values as received, by lower-case name, repeats kept apart in wire order. */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** The canonical name of the first single-valued header that came more than once, if any. */
  readonly repeated: string | undefined;
}

/**
 * One pass over Node's `rawHeaders` (name, value, name, value, …): every request's headers are
 * read here once, so the repeat check costs a set lookup only for a header that does repeat.
 */
export function readRawHeaders(rawHeaders: readonly string[]): RawHeaders {
  const values = new Map<string, string[]>();
  let repeated: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    const value = rawHeaders[i + 1] ?? '';
    const list = values.get(name);
    if (list === undefined) {
      values.set(name, [value]);
      continue;
    }
    list.push(value);
    repeated ??= SINGLE_VALUED.get(name);
  }
  return { values, repeated };
}

/** 400 at a single-valued header sent more than once, by its canonical name. */
export function sentMoreThanOnce(header: string): AppError {
  return new AppError('FORMAT_ERROR', {
    detail: localized(`the ${header} header is sent more than once`, `${header}-headeren er sendt mer enn én gang`),
    path: header,
  });
}
