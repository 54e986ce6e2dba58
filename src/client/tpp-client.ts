import { request as httpRequest } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { walkScaRedirect, type PsuActions, type PsuJourney } from './sca-redirect-driver.js';
import { signRequest, type SignOptions, type SigningCredentials } from './request-signer.js';
import { transactionPages, type ReportedTransaction, type ReportPage, type TransactionPagesOptions } from './transaction-pages.js';

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

/**
 * A small TPP SDK: signs each request with the TPP's QSealC and sends it. Used by the CLI, the
 * tests and the benchmark, so all three speak to the server exactly as a TPP would.
 */
export class TppClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: SigningCredentials | undefined,
  ) {}

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<TppResponse<T>> {
    const body = toBody(options.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(body.length > 0 ? { 'content-type': 'application/json' } : {}),
      ...lowerCase(options.headers ?? {}),
    };
    const finalHeaders =
      options.unsigned || !this.credentials
        ? { 'x-request-id': crypto.randomUUID(), ...headers }
        : signRequest({ method, path, headers, body }, this.credentials, options);
    const response = await httpRequest(new URL(path, this.baseUrl), {
      method: method.toUpperCase() as 'GET',
      headers: finalHeaders,
      ...(body.length > 0 ? { body } : {}),
    });
    const text = await response.body.text();
    const contentType = String(response.headers['content-type'] ?? '');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (contentType.includes('json') && text ? JSON.parse(text) : text) as T,
      text,
    };
  }

  get<T = unknown>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, options);
  }
  post<T = unknown>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, { ...options, body });
  }
  put<T = unknown>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, { ...options, body });
  }
  delete<T = unknown>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, options);
  }

  /**
   * Account information: every transaction of an account (`/v1/accounts/{id}`) or card account
   * (`/v1/card-accounts/{id}`) under a consent, across all pages, for `for await`. Throws
   * TransactionPageError (./transaction-pages.ts) when a page is not 200.
   */
  transactions(accountPath: string, options: TransactionPagesOptions): AsyncGenerator<ReportedTransaction> {
    return transactionPages((path, callOptions) => this.get<ReportPage>(path, callOptions), accountPath, options);
  }

  /**
   * Plays the PSU on a sandbox's SCA redirect pages (`scaRedirect`) with plain form posts, for
   * TPPs' own CI: identify, one-time code, approve or reject. Answers where the PSU ended up.
   */
  actAsPsu(scaRedirect: string, actions?: PsuActions): Promise<PsuJourney> {
    return walkScaRedirect(scaRedirect, actions);
  }
}

function toBody(body: unknown): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function lowerCase(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
