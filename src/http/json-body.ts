import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { localized } from '../domain/localized.js';

/** DESIGN §2 and the issue: bodies above 1 MiB are refused with 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * JSON bodies are read as raw bytes and parsed only after the signature check: the Digest is over
 * the bytes as sent, and an unsigned request should learn nothing about its body's syntax.
 */
export function installRawJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    request.ctx.rawBody = body as Buffer;
    done(null, undefined);
  });
}

/** Parses the raw body kept by the content-type parser into `request.body`. */
export function parseJsonBody(request: FastifyRequest): void {
  const raw = request.ctx.rawBody;
  if (!raw || raw.length === 0) {
    return;
  }
  try {
    request.body = JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        `the body is not valid JSON (${(error as Error).message})`,
        `innholdet er ikke gyldig JSON (${(error as Error).message})`,
      ),
      path: 'body',
    });
  }
}
