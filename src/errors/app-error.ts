import type { Localized } from '../domain/localized.js';
import type { ErrorCode } from './error-catalogue.js';

export interface AppErrorOptions {
  /** What exactly was wrong, appended to the catalogue text; never internal detail. */
  readonly detail?: Localized | string;
  /** The offending field: a JSON path into the body (`creditorAccount.bban`) or a header name. */
  readonly path?: string;
  /** Links to hand to the TPP with the error (the 401 PSU pre-step's `scaRedirect`). */
  readonly links?: Readonly<Record<string, { href: string }>>;
  /** Response headers the refusal carries (a 429's `Retry-After` and rate-limit fields). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The only error services throw. It names a catalogue code; the HTTP status and the body are
 * decided in one place, the error handler.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: Localized | undefined;
  readonly path: string | undefined;
  readonly links: AppErrorOptions['links'];
  readonly headers: AppErrorOptions['headers'];

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const detail = typeof options.detail === 'string' ? { en: options.detail, nb: options.detail } : options.detail;
    super(detail ? `${code}: ${detail.en}` : code);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.path = options.path;
    this.links = options.links;
    this.headers = options.headers;
  }
}
