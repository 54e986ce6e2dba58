import { Type, type Static } from 'typebox';
import type { Language } from '../domain/localized.js';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.js';
import type { AppError } from './app-error.js';

/**
 * The error body of the requirement (`id`, `system`, `status`, `code`, `message`) with the
 * Berlin Group `tppMessages` beside it, so that both kinds of client find what they expect. The
 * schema documents it once for every route (OpenAPI); the types below are derived from it.
 */
export const ErrorBodySchema = Type.Object(
  {
    id: Type.String({ description: 'Identifier of this error occurrence; quote it to the bank' }),
    system: Type.String({ description: 'Name of the reporting system' }),
    status: Type.Integer({ description: 'HTTP status code' }),
    code: Type.String({ description: 'Error code (see docs/errors.md)' }),
    message: Type.Optional(Type.String({ description: 'Text; absent on 500 SYSTEM_ERROR' })),
    tppMessages: Type.Array(
      Type.Object({
        category: Type.Literal('ERROR'),
        code: Type.String(),
        path: Type.Optional(Type.String()),
        text: Type.Optional(Type.String({ maxLength: 500 })),
      }),
    ),
    _links: Type.Optional(Type.Record(Type.String(), Type.Object({ href: Type.String() }))),
  },
  { $id: 'ErrorBody' },
);

export type ErrorBody = Static<typeof ErrorBodySchema>;
export type TppMessage = ErrorBody['tppMessages'][number];

/** Berlin Group caps `tppMessages[].text` at 500 characters. */
const MAX_TEXT = 500;

export function errorBody(
  error: Pick<AppError, 'code' | 'detail' | 'path' | 'links'>,
  occurrence: { id: string; system: string; language: Language },
): ErrorBody {
  const entry = ERROR_CATALOGUE[error.code];
  const status: number = entry.status;
  if (isSystemError(error.code)) {
    // A 500 says nothing about what went wrong: the id lets the bank find it in its logs.
    return {
      id: occurrence.id,
      system: occurrence.system,
      status,
      code: entry.tppCode,
      tppMessages: [{ category: 'ERROR', code: entry.tppCode }],
    };
  }
  const base = entry.text[occurrence.language];
  const detail = error.detail?.[occurrence.language];
  const message = (detail ? `${base}: ${detail}` : base).slice(0, MAX_TEXT);
  const tppMessage: TppMessage = { category: 'ERROR', code: entry.tppCode, text: message };
  if (error.path !== undefined) {
    tppMessage.path = error.path;
  }
  const body: ErrorBody = {
    id: occurrence.id,
    system: occurrence.system,
    status,
    code: entry.tppCode,
    message,
    tppMessages: [tppMessage],
  };
  if (error.links) {
    body._links = { ...error.links };
  }
  return body;
}

function isSystemError(code: ErrorCode): boolean {
  return ERROR_CATALOGUE[code].status >= 500;
}
