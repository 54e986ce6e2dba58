/**
 * How the CLI reports an error answer (src/cli/error-answer.ts), the one place every command uses:
 * a line per tppMessage with the status, the code, `at PATH` when the message names one, and the
 * text; a body without tppMessages by its code and message, or its raw text.
 */
import { describe, expect, it } from 'vitest';
import { errorLines } from '../../src/cli/error-answer.js';

const answer = (status: number, body: unknown, text = JSON.stringify(body)) => ({ status, body, text });

describe('errorLines', () => {
  it('names the path of a tppMessage that has one', () => {
    const body = {
      status: 400,
      code: 'FORMAT_ERROR',
      message: 'The request is not well formed: must be 11 digits, got 3',
      tppMessages: [
        { category: 'ERROR', code: 'FORMAT_ERROR', path: 'PSU-ID', text: 'The request is not well formed: must be 11 digits, got 3' },
      ],
    };
    expect(errorLines(answer(400, body))).toEqual([
      'HTTP 400 FORMAT_ERROR at PSU-ID: The request is not well formed: must be 11 digits, got 3',
    ]);
  });

  it('gives every tppMessage its own line, each with its own code and path', () => {
    const body = {
      code: 'FORMAT_ERROR',
      tppMessages: [
        { category: 'ERROR', code: 'FORMAT_ERROR', path: 'creditorAccount.iban', text: 'not an IBAN' },
        { category: 'ERROR', code: 'PERIOD_INVALID', text: 'validUntil is in the past' },
        { category: 'ERROR', path: 'debtorAccount' },
      ],
    };
    expect(errorLines(answer(400, body))).toEqual([
      'HTTP 400 FORMAT_ERROR at creditorAccount.iban: not an IBAN',
      'HTTP 400 PERIOD_INVALID: validUntil is in the past',
      'HTTP 400 FORMAT_ERROR at debtorAccount',
    ]);
  });

  it('a 500 without text is its status and code', () => {
    const body = { status: 500, code: 'INTERNAL_SERVER_ERROR', tppMessages: [{ category: 'ERROR', code: 'INTERNAL_SERVER_ERROR' }] };
    expect(errorLines(answer(500, body))).toEqual(['HTTP 500 INTERNAL_SERVER_ERROR']);
  });

  it('a body without tppMessages: its code and message, or the raw text on one line', () => {
    expect(errorLines(answer(403, { code: 'CONSENT_INVALID', message: 'revoked' }))).toEqual(['HTTP 403 CONSENT_INVALID: revoked']);
    expect(errorLines(answer(502, '<html>\n  Bad gateway\n</html>', '<html>\n  Bad gateway\n</html>'))).toEqual([
      'HTTP 502: <html> Bad gateway </html>',
    ]);
    expect(errorLines(answer(503, undefined, ''))).toEqual(['HTTP 503']);
  });
});
