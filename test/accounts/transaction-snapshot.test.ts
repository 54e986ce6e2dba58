import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/modules/accounts/transaction-snapshot.js';

describe('the snapshot a paging link carries', () => {
  it('round-trips the bank mark and the pending payments', () => {
    const snapshot = { bankAsOf: '4711', pendingPaymentIds: ['a', 'b-2'] };
    const token = encodeSnapshot(snapshot);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSnapshot(token)).toEqual(snapshot);
    expect(decodeSnapshot(encodeSnapshot({ bankAsOf: undefined, pendingPaymentIds: [] }))).toEqual({
      bankAsOf: undefined,
      pendingPaymentIds: [],
    });
  });

  it('leaves out pending payments too many for a link (they are then read on each page)', () => {
    const many = Array.from({ length: 51 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const token = encodeSnapshot({ bankAsOf: '1', pendingPaymentIds: many });
    expect(token.length).toBeLessThan(200);
    expect(decodeSnapshot(token)).toEqual({ bankAsOf: '1', pendingPaymentIds: undefined });
  });

  it.each([
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['ids not strings', Buffer.from(JSON.stringify({ a: '1', p: [1] })).toString('base64url')],
    ['a mark not a string', Buffer.from(JSON.stringify({ a: 1, p: [] })).toString('base64url')],
    ['no pending member', Buffer.from(JSON.stringify({ a: '1' })).toString('base64url')],
  ])('refuses %s with 400 FORMAT_ERROR at snapshot', (_what, token) => {
    expect(() => decodeSnapshot(token)).toThrow(AppError);
    try {
      decodeSnapshot(token);
    } catch (error) {
      expect(error).toMatchObject({ code: 'FORMAT_ERROR', path: 'snapshot' });
    }
  });
});
