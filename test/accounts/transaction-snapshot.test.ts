import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/modules/accounts/transaction-snapshot.js';
import { macOf } from '../../src/security/server-secret.js';

const seal = { key: Buffer.alloc(32, 7), list: 'tpp-1:account:resource-1' };

/** A body as the server writes one, MAC'd as it would be: only the contents can be wrong. */
const issued = (contents: unknown) => {
  const body = Buffer.from(typeof contents === 'string' ? contents : JSON.stringify(contents)).toString('base64url');
  return body + macOf(seal.key, 'transaction-snapshot', `${seal.list}:${body}`);
};

function expectRefused(token: string, given = seal): void {
  expect(() => decodeSnapshot(token, given)).toThrow(AppError);
  try {
    decodeSnapshot(token, given);
  } catch (error) {
    expect(error).toMatchObject({ code: 'FORMAT_ERROR', path: 'snapshot' });
  }
}

describe('the snapshot a paging link carries', () => {
  it('round-trips the bank mark and the pending payments', () => {
    const snapshot = { bankAsOf: '4711', pendingPaymentIds: ['a', 'b-2'] };
    const token = encodeSnapshot(snapshot, seal);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSnapshot(token, seal)).toEqual(snapshot);
    expect(decodeSnapshot(encodeSnapshot({ bankAsOf: undefined, pendingPaymentIds: [] }, seal), seal)).toEqual({
      bankAsOf: undefined,
      pendingPaymentIds: [],
    });
  });

  it('leaves out pending payments too many for a link (they are then read on each page)', () => {
    const many = Array.from({ length: 51 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const token = encodeSnapshot({ bankAsOf: '1', pendingPaymentIds: many }, seal);
    expect(token.length).toBeLessThan(250);
    expect(decodeSnapshot(token, seal)).toEqual({ bankAsOf: '1', pendingPaymentIds: undefined });
  });

  it.each([
    ['not JSON', issued('nope')],
    ['ids not strings', issued({ a: '1', p: [1] })],
    ['a mark not a string', issued({ a: 1, p: [] })],
    ['no pending member', issued({ a: '1' })],
  ])('refuses %s with 400 FORMAT_ERROR at snapshot', (_what, token) => {
    expectRefused(token);
  });

  it('refuses a snapshot the server did not issue: plain JSON, a changed body, or a shortened one', () => {
    const made = { a: '726', p: ['00000000-0000-4000-8000-000000000001'] };
    expectRefused(Buffer.from(JSON.stringify(made)).toString('base64url'));
    const token = encodeSnapshot({ bankAsOf: '726', pendingPaymentIds: [] }, seal);
    const body = Buffer.from(JSON.stringify(made)).toString('base64url');
    expectRefused(body + token.slice(-43));
    expectRefused(token.slice(1));
    expectRefused(token.slice(-43));
  });

  it('refuses a snapshot of another list, or MAC’d under another secret', () => {
    const token = encodeSnapshot({ bankAsOf: '726', pendingPaymentIds: [] }, seal);
    expectRefused(token, { ...seal, list: 'tpp-1:account:resource-2' });
    expectRefused(token, { ...seal, list: 'tpp-2:account:resource-1' });
    expectRefused(token, { ...seal, key: Buffer.alloc(32, 8) });
  });
});
