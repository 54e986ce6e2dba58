/**
 * Route schemas compile after the start (docs/design.md §9, cold start): each validator and
 * serializer compiles once, when first needed or when the server warms up, and every route
 * schema of the app compiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeferredCompiles } from '../../src/http/deferred-compiles.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('deferred compiles', () => {
  it('compile once, on first use or by warm-up, whichever comes first', async () => {
    const deferred = new DeferredCompiles();
    const calls: string[] = [];
    const a = deferred.defer(() => (calls.push('a'), 'A'));
    const b = deferred.defer(() => (calls.push('b'), 'B'));
    expect(calls).toEqual([]);
    expect(deferred.remaining).toBe(2);
    expect(a()).toBe('A');
    expect(a()).toBe('A');
    expect(calls).toEqual(['a']);
    await deferred.warmUp(() => undefined);
    expect(calls).toEqual(['a', 'b']);
    expect(b()).toBe('B');
    expect(calls).toEqual(['a', 'b']);
    expect(deferred.remaining).toBe(0);
  });

  it('report a compile that fails to the warm-up and fail again where it is used', async () => {
    const deferred = new DeferredCompiles();
    const broken = deferred.defer((): string => {
      throw new Error('bad schema');
    });
    const fine = deferred.defer(() => 'fine');
    const errors: unknown[] = [];
    await deferred.warmUp((error) => errors.push(error));
    expect(errors).toEqual([new Error('bad schema')]);
    expect(fine()).toBe('fine');
    expect(() => broken()).toThrow('bad schema');
  });
});

describe('the app’s route schemas', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('all compile, and a request served by a deferred validator is still validated', async () => {
    await expect(server.app.compileRouteSchemas()).resolves.toBeUndefined();
    const refused = await server.client.post('/v1/payments/norwegian-domestic-credit-transfers', {
      instructedAmount: { amount: 100, currency: 'NOK' },
    });
    expect(refused.status).toBe(400);
  });
});
