import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { localized, type Localized } from '../domain/localized.js';
import { unsafeCharacterIn } from '../domain/unsafe-text.js';
import { repeatedMemberIn } from './repeated-member.js';
import { OPTIONAL_BODY } from './schemas/common.schemas.js';

/** docs/design.md §2 and the issue: bodies above 1 MiB are refused with 413. */
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

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

/**
 * Reads the body of a GET or HEAD, which Fastify leaves unread: a TPP (or its tooling: Postman
 * keeps a body on a GET) may send one and sign its Digest, and the Digest is checked against the
 * bytes sent. Such a body has no meaning and is never parsed. The same size limit applies.
 */
export async function readBodyOfBodilessMethod(request: FastifyRequest): Promise<void> {
  if (!METHODS_WITHOUT_BODY.has(request.method) || request.ctx.rawBody !== undefined) return;
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request.raw) {
      size += (chunk as Buffer).length;
      if (size > BODY_LIMIT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError || !cutOffByClient(request, error)) throw error;
    // The client's doing, not a fault of ours: it went away in the middle of the body, or framed it
    // so that Node's parser gave up (the client-error handler answers that one). A refusal, never
    // logged as an error.
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        'the request body was cut off or could not be read as HTTP',
        'forespørselens innhold ble avbrutt eller kunne ikke leses som HTTP',
      ),
    });
  }
  request.ctx.rawBody = Buffer.concat(chunks);
}

/** Whether reading a body failed because the connection went or its framing broke, not through a fault of ours. */
function cutOffByClient(request: FastifyRequest, error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    request.raw.destroyed ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (typeof code === 'string' && code.startsWith('HPE_'))
  );
}

/**
 * A body not sent (no bytes) is read as `{}`, so an optional body's schema validates it as the
 * empty object. A JSON `null` that was sent stays `null` and is refused by the schema like any
 * other body that is not an object.
 */
async function absentBodyIsEmptyObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}

/**
 * Every route of the scope whose body schema is marked {@link OPTIONAL_BODY} reads a body not sent
 * as `{}`: one place for the rule, however many routes take an optional body. Installed before the
 * routes are registered.
 */
export function installOptionalBodies(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const body = route.schema?.body as Record<string, unknown> | undefined;
    if (body?.[OPTIONAL_BODY] !== true) return;
    const others =
      route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [absentBodyIsEmptyObject, ...others];
  });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses the raw body kept by the content-type parser into `request.body`: sent without a content
 * coding, UTF-8 (bytes that are not are refused, never replaced), JSON in which no object names a
 * member twice, and no text anywhere in it with a character the API does not accept
 * (domain/unsafe-text.ts), in values and in names alike. One place for every body of every route.
 */
export function parseJsonBody(request: FastifyRequest): void {
  const raw = request.ctx.rawBody;
  if (!raw || raw.length === 0 || METHODS_WITHOUT_BODY.has(request.method)) {
    return;
  }
  checkContentCoding(request.headers['content-encoding']);
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new AppError('FORMAT_ERROR', {
      detail: localized('the body is not valid UTF-8', 'innholdet er ikke gyldig UTF-8'),
      path: 'body',
    });
  }
  try {
    request.body = JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        `the body is not valid JSON (${(error as Error).message})`,
        `innholdet er ikke gyldig JSON (${(error as Error).message})`,
      ),
      path: 'body',
    });
  }
  const repeated = repeatedMemberIn(text);
  if (repeated !== undefined) {
    // A member of the body itself named "" has an empty path: the body is where it is.
    const named = repeated === '' ? 'a member named ""' : repeated;
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        `${named} is given twice: name each member of an object once`,
        `${repeated === '' ? 'et felt med navnet ""' : repeated} er oppgitt to ganger: oppgi hvert felt i et objekt én gang`,
      ),
      path: repeated === '' ? 'body' : repeated,
    });
  }
  checkText(request.body);
}

/**
 * A body is read as sent: the Digest is over those bytes, and no body is inflated (RFC 9110
 * §8.4.1: a content coding the server does not apply is refused with 415, not read as identity).
 */
function checkContentCoding(header: string | undefined): void {
  if (header === undefined) return;
  const codings = header.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === '' || coding === 'identity')) return;
  throw new AppError('CONTENT_ENCODING_UNSUPPORTED', {
    detail: localized(
      `Content-Encoding ${header} is not supported: send the body uncompressed (no Content-Encoding, or identity)`,
      `Content-Encoding ${header} støttes ikke: send innholdet ukomprimert (uten Content-Encoding, eller identity)`,
    ),
    path: 'Content-Encoding',
  });
}

/**
 * Refuses the first string (value or property name) holding an unsafe character, naming where it
 * is. Iterative: a body of a million nested arrays must not overflow the stack.
 */
function checkText(body: unknown): void {
  const pending: [unknown, string][] = [[body, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      const problem = unsafeCharacterIn(value);
      if (problem) throw unsafe(path || 'body', problem);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push([value[index], `${path}[${index}]`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, item] of Object.entries(value).reverse()) {
        const at = path ? `${path}.${name}` : name;
        const problem = unsafeCharacterIn(name);
        if (problem) throw unsafe(at, problem);
        pending.push([item, at]);
      }
    }
  }
}

function unsafe(path: string, problem: Localized): AppError {
  return new AppError('FORMAT_ERROR', { detail: localized(`${path}: ${problem.en}`, `${path}: ${problem.nb}`), path });
}
