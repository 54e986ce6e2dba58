import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { BankError } from '../bank/bank-error.js';
import { AppError } from '../errors/app-error.js';
import { errorBody } from '../errors/error-body.js';
import { ERROR_CATALOGUE } from '../errors/error-catalogue.js';
import { localized } from '../domain/localized.js';
import { languageOf } from './request-context.js';
import { validationAppError, type RouteSchemas, type ValidationIssue } from './validation-errors.js';

/**
 * The one place that turns a thrown error into an HTTP answer. Services throw {@link AppError};
 * the core-banking adapter's {@link BankError}s are mapped here, once; Fastify's own errors
 * (schema validation, body limits, content types) are translated here; any other error is a
 * bug: it is logged with an occurrence id and answered as a bare 500.
 */
export function installErrorHandler(app: FastifyInstance, answering: ErrorAnswering): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => handleError(error, request, reply, answering));
}

/** What answering an error needs besides the error. */
export interface ErrorAnswering {
  /** The system's name in the error body. */
  readonly system: string;
  /** The methods the routes at a concrete path serve (the route table), for a 405's `Allow`. */
  allowedMethods(path: string): readonly string[];
}

/** Answers any thrown error; also used for the router's own errors (`frameworkErrors`). */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply, answering: ErrorAnswering): FastifyReply {
  const appError = toAppError(error, request.routeOptions?.schema as RouteSchemas | undefined);
  // A bank that is down or answered without data it must have: the cause goes to the log.
  const logged =
    appError === undefined || (error instanceof BankError && appError.code !== 'BANK_REFUSED' && appError.code !== 'RESOURCE_UNKNOWN');
  return sendError(request, reply, appError ?? new AppError('SYSTEM_ERROR'), answering, logged ? error : undefined);
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  answering: ErrorAnswering,
  cause?: unknown,
): FastifyReply {
  const id = randomUUID();
  const body = errorBody(error, { id, system: answering.system, language: languageOf(request) });
  if (cause instanceof BankError && cause.simulated === true) {
    // Asked for (the sandbox's core-system fault): nothing for an operator to look into.
    request.log.info({ errorId: id, code: error.code, bankError: cause.kind, reason: cause.message }, 'simulated bank failure');
  } else if (cause !== undefined) {
    request.log.error({ err: cause, errorId: id }, 'unexpected error');
  } else if (body.status === 401) {
    request.log.info({ errorId: id, code: error.code }, 'request refused');
  }
  if (body.status === 405) {
    // RFC 9110 §15.5.6: a 405 lists the methods the resource does support. Whether no route takes
    // the method or the route refuses it now (a payment that can no longer be cancelled), those
    // are the methods of the path's routes other than the one refused.
    const path = request.url.split('?')[0] ?? '';
    const allowed = answering.allowedMethods(path).filter((method) => method !== request.method);
    reply.header('allow', allowed.join(', '));
  }
  if (error.headers) reply.headers(error.headers);
  return reply.code(body.status).type('application/json; charset=utf-8').send(body);
}

/** The status the API answers an error with (a router's refusal, say): that of its catalogue code, 500 for a bug. */
export function statusOfError(error: unknown): number {
  return ERROR_CATALOGUE[toAppError(error)?.code ?? 'SYSTEM_ERROR'].status;
}

/**
 * The status of a PSU page's answer to an error (those pages answer in HTML, not with the error
 * body): a refusal's own (the catalogue's, a 503 while the server closes among them, or a 4xx
 * Fastify raised), anything else 500.
 */
export function pageStatusOf(error: unknown): number {
  if (error instanceof AppError) return statusOfError(error);
  const code = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' && code >= 400 && code < 500 ? code : 500;
}

/** The longest path parameter the router takes (find-my-way's `maxParamLength`). */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/** RFC 9112 §3.2: a request-target has no fragment; a client that sends one means no query by it. */
export function refuseFragment(rawUrl: string | undefined): void {
  if (rawUrl?.includes('#')) {
    throw new AppError('FORMAT_ERROR', {
      detail: localized(
        'the request target holds a fragment (#), which is not sent in HTTP',
        'forespørselsmålet har et fragment (#), som ikke sendes i HTTP',
      ),
    });
  }
}

/**
 * Maps the errors a request can legitimately cause; `undefined` means "a bug". `schemas` are the
 * route's, which a validation error is explained from (http/validation-errors.ts).
 */
export function toAppError(error: unknown, schemas?: RouteSchemas): AppError | undefined {
  if (error instanceof AppError) {
    return error;
  }
  if (error instanceof BankError) {
    return fromBankError(error);
  }
  if (!isFastifyError(error)) {
    return undefined;
  }
  if (error.validation) {
    return validationAppError(error.validation, error.validationContext, schemas);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('CONTENT_TYPE_UNSUPPORTED');
    // The router's own texts echo the whole URL; these say what is wrong without it.
    case 'FST_ERR_BAD_URL':
      return new AppError('FORMAT_ERROR', {
        detail: localized('the path holds a malformed percent-encoding', 'stien har en feilformet prosentkoding'),
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // Every id this server hands out is far shorter, so an over-long one names nothing it knows:
      // 404 as any unknown id (docs/design.md §4), without guessing which parameter the route has.
      return new AppError('RESOURCE_UNKNOWN', {
        detail: localized(
          `no resource has an id of more than ${MAX_PATH_PARAMETER_LENGTH} characters`,
          `ingen ressurs har en id på mer enn ${MAX_PATH_PARAMETER_LENGTH} tegn`,
        ),
      });
    default:
      break;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Malformed framing (bad Content-Length, empty JSON body, bad URL encoding, …).
    return new AppError('FORMAT_ERROR', { detail: error.message });
  }
  return undefined;
}

/**
 * The core-banking port's errors in the catalogue's terms: the bank's refusal and an unknown
 * account carry the bank's words; an unavailable bank is 503; missing data is a bare 500 (DESIGN
 * §2b: never an empty answer).
 */
function fromBankError(error: BankError): AppError {
  switch (error.kind) {
    case 'unavailable':
      return new AppError('BANK_UNAVAILABLE');
    case 'missing-data':
      return new AppError('SYSTEM_ERROR');
    case 'refused':
      return new AppError('BANK_REFUSED', { detail: error.message });
    case 'unknown-account':
      return new AppError('RESOURCE_UNKNOWN');
  }
}

function isFastifyError(error: unknown): error is FastifyError & { validation?: ValidationIssue[]; validationContext?: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}
