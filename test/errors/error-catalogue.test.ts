import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../src/errors/error-body.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/errors/error-catalogue.js';
import { renderErrorDocs } from '../../src/errors/error-docs.js';
import { AppError } from '../../src/errors/app-error.js';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

describe('the error catalogue', () => {
  it('maps every code to an error status, a wire code and texts in both languages', () => {
    for (const code of codes) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.tppCode, code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(entry.text.en.length, code).toBeGreaterThan(0);
      expect(entry.text.nb.length, code).toBeGreaterThan(0);
    }
  });

  it('gives each wire code one HTTP status, except where the Berlin Group shares it', () => {
    const statusByWireCode = new Map<string, Set<number>>();
    for (const code of codes) {
      const entry = ERROR_CATALOGUE[code];
      statusByWireCode.set(entry.tppCode, (statusByWireCode.get(entry.tppCode) ?? new Set()).add(entry.status));
    }
    for (const [wireCode, statuses] of statusByWireCode) {
      expect([...statuses], wireCode).toHaveLength(1);
    }
  });

  it('is what docs/errors.md says (run `npm run docs:errors` after changing it)', () => {
    expect(readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')).toBe(renderErrorDocs());
  });
});

describe('the error body', () => {
  const occurrence = { id: '6f1c5a52-0f6e-4a43-9d0b-1f0f2a3b4c5d', system: 'nordic-xs2a', language: 'en' as const };

  it('carries the requirement fields and the Berlin Group tppMessages, with the detail and path', () => {
    const body = errorBody(
      new AppError('FORMAT_ERROR', { detail: { en: 'must be 11 digits', nb: 'må ha 11 sifre' }, path: 'PSU-ID' }),
      occurrence,
    );
    expect(body).toEqual({
      id: occurrence.id,
      system: 'nordic-xs2a',
      status: 400,
      code: 'FORMAT_ERROR',
      message: 'The request is not well formed: must be 11 digits',
      tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', path: 'PSU-ID', text: 'The request is not well formed: must be 11 digits' }],
    });
  });

  it('speaks Bokmål when asked', () => {
    const body = errorBody(new AppError('FORMAT_ERROR', { detail: { en: 'must be 11 digits', nb: 'må ha 11 sifre' } }), {
      ...occurrence,
      language: 'nb',
    });
    expect(body.message).toBe('Forespørselen har feil format: må ha 11 sifre');
  });

  it('says nothing on SYSTEM_ERROR: no message, no detail, no path', () => {
    const body = errorBody(new AppError('SYSTEM_ERROR', { detail: 'secret internals', path: 'x' }), occurrence);
    expect(body).toEqual({
      id: occurrence.id,
      system: 'nordic-xs2a',
      status: 500,
      code: 'SYSTEM_ERROR',
      tppMessages: [{ category: 'ERROR', code: 'SYSTEM_ERROR' }],
    });
  });

  it('keeps tppMessages text within the Berlin Group limit of 500 characters', () => {
    const body = errorBody(new AppError('FORMAT_ERROR', { detail: 'x'.repeat(2000) }), occurrence);
    expect(body.tppMessages[0]?.text?.length).toBe(500);
  });
});
