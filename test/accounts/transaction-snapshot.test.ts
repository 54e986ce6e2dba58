import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/modules/accounts/transaction-snapshot.js';
import { macOf } from '../../src/security/server-secret.js';

const seal = { key: Buffer.alloc(32, 7), list: 'tpp-1:account:resource-1' };
const TAKEN_AT = '2026-11-27T08:00:00.000Z';
/** A moment an hour after the first page: the links hold. */
const NOW = new Date('2026-11-27T09:00:00.000Z');

/** A body as the server writes one, MAC'd as it would be: only the contents can be wrong. */
const issued = (contents: unknown) => {
  const body = Buffer.from(typeof contents === 'string' ? contents : JSON.stringify(contents)).toString('base64url');
  return body + macOf(seal.key, 'transaction-snapshot', `${seal.list}:${body}`);
};

function expectRefused(token: string, given = seal): void {
  expect(() => decodeSnapshot(token, given, NOW)).toThrow(AppError);
  try {
    decodeSnapshot(token, given, NOW);
  } catch (error) {
    expect(error).toMatchObject({ code: 'FORMAT_ERROR', path: 'snapshot' });
  }
}

describe('the snapshot a paging link carries', () => {
  it('round-trips the bank mark and the pending payments', () => {
    const snapshot = { bankAsOf: '4711', pendingPaymentIds: ['a', 'b-2'], takenAt: TAKEN_AT };
    const token = encodeSnapshot(snapshot, seal);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSnapshot(token, seal, NOW)).toEqual(snapshot);
    expect(decodeSnapshot(encodeSnapshot({ bankAsOf: undefined, pendingPaymentIds: [], takenAt: TAKEN_AT }, seal), seal, NOW)).toEqual({
      bankAsOf: undefined,
      pendingPaymentIds: [],
      takenAt: TAKEN_AT,
    });
  });

  it('leaves out pending payments too many for a link (they are then read on each page)', () => {
    const many = Array.from({ length: 51 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const token = encodeSnapshot({ bankAsOf: '1', pendingPaymentIds: many, takenAt: TAKEN_AT }, seal);
    expect(token.length).toBeLessThan(300);
    expect(decodeSnapshot(token, seal, NOW)).toEqual({ bankAsOf: '1', pendingPaymentIds: undefined, takenAt: TAKEN_AT });
  });

  it.each([
    ['not JSON', issued('nope')],
    ['ids not strings', issued({ a: '1', p: [1], t: TAKEN_AT })],
    ['a mark not a string', issued({ a: 1, p: [], t: TAKEN_AT })],
    ['no pending member', issued({ a: '1', t: TAKEN_AT })],
    ['no moment of the first page', issued({ a: '1', p: [] })],
    ['a moment that is not a date', issued({ a: '1', p: [], t: 'yesterday' })],
  ])('refuses %s with 400 FORMAT_ERROR at snapshot', (_what, token) => {
    expectRefused(token);
  });

  it('refuses a snapshot the server did not issue: plain JSON, a changed body, or a shortened one', () => {
    const made = { a: '726', p: ['00000000-0000-4000-8000-000000000001'] };
    expectRefused(Buffer.from(JSON.stringify(made)).toString('base64url'));
    const token = encodeSnapshot({ bankAsOf: '726', pendingPaymentIds: [], takenAt: TAKEN_AT }, seal);
    const body = Buffer.from(JSON.stringify(made)).toString('base64url');
    expectRefused(body + token.slice(-43));
    expectRefused(token.slice(1));
    expectRefused(token.slice(-43));
  });

  it('refuses a snapshot of another list, or MAC’d under another secret', () => {
    const token = encodeSnapshot({ bankAsOf: '726', pendingPaymentIds: [], takenAt: TAKEN_AT }, seal);
    expectRefused(token, { ...seal, list: 'tpp-1:account:resource-2' });
    expectRefused(token, { ...seal, list: 'tpp-2:account:resource-1' });
    expectRefused(token, { ...seal, key: Buffer.alloc(32, 8) });
  });

  it('holds for 24 hours from the first page, then asks for the list to be read again from its first page', () => {
    const token = encodeSnapshot({ bankAsOf: '726', pendingPaymentIds: [], takenAt: TAKEN_AT }, seal);
    expect(decodeSnapshot(token, seal, new Date('2026-11-28T08:00:00.000Z')).bankAsOf).toBe('726');
    const late = () => decodeSnapshot(token, seal, new Date('2026-11-28T08:00:00.001Z'));
    expect(late).toThrow(AppError);
    expect(late).toThrow(/more than 24 hours old \(first page read at 2026-11-27T08:00:00.000Z\): read the list again from its first page/);
  });
});
