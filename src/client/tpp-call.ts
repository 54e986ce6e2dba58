import type { IncomingHttpHeaders } from 'undici/types/header.js';
import type { SignOptions } from './request-signer.js';

/** What a signed call sends and what it answers: shared by the client and its page iterator. */
export interface TppResponse<T = unknown> {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON when the answer is JSON, else the text. */
  readonly body: T;
  readonly text: string;
}

export interface CallOptions extends SignOptions {
  /** A JSON value (serialised here) or the exact body bytes to send. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Send without Signature (for unsigned endpoints such as /sandbox/tpp-certificates). */
  readonly unsigned?: boolean;
}
