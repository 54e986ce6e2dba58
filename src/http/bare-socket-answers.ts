import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors/app-error.js';
import { errorBody } from '../errors/error-body.js';
import { ERROR_CATALOGUE } from '../errors/error-catalogue.js';

/**
 * Answers Node gives on a bare socket, outside any request the app sees: to a request it could not
 * parse or that did not arrive in time (its `clientError`), and to CONNECT. The answer carries the
 * error body and every header an answer has; the connection is then closed whatever the client
 * does.
 */

/**
 * The status and error body of an answer given outside the app: to Node's parse error (bad
 * framing, oversized headers, a timeout) or a refusal. There is no request the app read, so the
 * text is English.
 */
export function outsideAnswer(error: (Error & { code?: string }) | AppError, system: string): { status: number; body: string } {
  const appError =
    error instanceof AppError
      ? error
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('HEADERS_TOO_LARGE')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new AppError('REQUEST_TIMEOUT')
          : new AppError('FORMAT_ERROR', { detail: 'the HTTP request is malformed' });
  const body = JSON.stringify(errorBody(appError, { id: randomUUID(), system, language: 'en' }));
  return { status: ERROR_CATALOGUE[appError.code].status, body };
}

/**
 * The bytes of such an answer on a bare socket; `headers` are those every answer of the server
 * carries (API-Release), written here because this answer bypasses the server.
 */
function bareSocketAnswer(
  error: (Error & { code?: string }) | AppError,
  system: string,
  headers: Readonly<Record<string, string>> = {},
): string {
  const { status, body } = outsideAnswer(error, system);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra.join('')}Connection: close\r\n\r\n${body}`;
}

/**
 * The response Node is writing to a connection, if any: the answer to its current request (Node
 * keeps it on the socket, undocumented, and offers no public way to ask).
 */
export function currentAnswerOf(socket: Duplex): ServerResponse | null | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
}

/** How long a client answered outside the app has to read the answer before the connection is cut. */
const READ_GRACE_MS = 2_000;

/**
 * Writes `answer` and closes the connection: ended at once, what the client still sends read and
 * dropped, and destroyed after a grace for reading, so that a client keeping its side open (or
 * still trickling a body) cannot hold it. A socket error meanwhile (a reset) is the client's: it
 * ends the socket, and must not reach the process as an unhandled error.
 */
function answerAndClose(socket: Duplex, answer: string): void {
  socket.on('error', () => socket.destroy());
  socket.resume();
  socket.end(answer);
  letGoAfterReadGrace(socket);
}

/** Destroys the connection once the client has had a grace to read what it was answered. */
export function letGoAfterReadGrace(socket: Duplex): void {
  setTimeout(() => socket.destroy(), READ_GRACE_MS).unref();
}

/**
 * Fastify's `clientErrorHandler`: the error body for a request Node could not parse or that timed
 * out. When an answer to the connection's current request was sent already (it was refused before
 * its body had all arrived), a second, unasked-for answer would be read as the answer to the next
 * request: the connection is cut instead.
 */
export function clientErrorHandler(system: string, headers: Readonly<Record<string, string>>) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    const current = currentAnswerOf(socket);
    if (!socket.writable || current?.headersSent) {
      socket.destroy(error);
      return;
    }
    answerAndClose(socket, bareSocketAnswer(error, system, headers));
  };
}

/**
 * RFC 9110 §9.3.6: CONNECT asks for a tunnel, which this server never opens: 405 with the error
 * body, `Allow` naming the methods of the path asked for (none for a host and port). Node hands
 * such a request over as a bare socket, and without a listener drops it unanswered.
 */
export function refuseTunnels(
  server: Server,
  system: string,
  headers: Readonly<Record<string, string>>,
  allowedMethods: (path: string) => readonly string[],
): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const target = request.url ?? '';
    const allow = target.startsWith('/') ? allowedMethods(target.split('?')[0] ?? '').join(', ') : '';
    const refusal = new AppError('METHOD_NOT_ALLOWED', { detail: 'CONNECT: this server opens no tunnels' });
    answerAndClose(socket, bareSocketAnswer(refusal, system, { ...headers, allow }));
  });
}
