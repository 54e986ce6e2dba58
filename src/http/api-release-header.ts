import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** The response header that names the interface release (CHANGELOG.md) the server is. */
export const API_RELEASE_HEADER = 'API-Release';

/**
 * States the release on every answer of this server: the header is set on Node's response before
 * Fastify sees the request, so answers of routes, errors, 404s, the SCA pages and the docs all
 * carry it, and so do those Fastify writes before any hook can run (a malformed URL). Requests
 * Node cannot parse never get here; bare-socket-answers.ts writes the header into those answers.
 * Answers made with `app.inject` bypass the server and do not carry it.
 */
export function stateReleaseOnEveryAnswer(server: Server, release: string): void {
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.setHeader(API_RELEASE_HEADER, release);
  });
}
