import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppError } from '../errors/app-error.js';
import { errorBody } from '../errors/error-body.js';
import { pickLanguage } from './content-negotiation.js';
import { checkRequestId } from './headers/request-id.js';

/**
 * Answers a request whose `Expect` header asks for anything but `100-continue` (RFC 9110 §10.1.1:
 * 417) with the error body. Node answers such a request itself, before any route or hook runs, and
 * with an empty body; `100-continue` stays Node's to answer (a `100 Continue`, then the request as
 * usual). `headers` are those every answer of the server carries (API-Release): this answer, too,
 * bypasses the server. The connection is closed: the client may or may not send the body it held.
 */
export function answerUnmetExpectations(server: Server, system: string, headers: Readonly<Record<string, string>>): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const language = pickLanguage(request.headers['accept-language']);
    const error = errorBody(new AppError('EXPECTATION_UNSUPPORTED', { path: 'Expect' }), { id: randomUUID(), system, language });
    const body = JSON.stringify(error);
    const requestId = request.headers['x-request-id'];
    response.writeHead(error.status, {
      ...headers,
      ...(typeof requestId === 'string' && checkRequestId(requestId).ok ? { 'x-request-id': requestId } : {}),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'content-language': language,
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(body);
  });
}
