/**
 * A request's fingerprint under its X-Request-ID (idempotency.plugin.ts) is stored with its
 * record: a retry after an upgrade must compute the same digest, or it is refused as another
 * request (409) instead of replayed. These digests were computed by the server before this test;
 * a change to what is hashed, or how, fails here.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { fingerprintOf } from '../../src/http/idempotency/idempotency.plugin.js';

function request(fields: { method: string; url: string; headers: Record<string, string>; rawBody?: Buffer }): FastifyRequest {
  return { method: fields.method, url: fields.url, headers: fields.headers, ctx: { rawBody: fields.rawBody } } as unknown as FastifyRequest;
}

describe('the fingerprint of a request', () => {
  it('is the digest stored by earlier versions, for a POST with a body, outcome headers and a trailing slash', () => {
    const fingerprint = fingerprintOf(
      request({
        method: 'POST',
        url: '/v1/payments/norwegian-domestic-credit-transfers/?x=1',
        headers: { 'psu-id': '31125461118', 'tpp-redirect-uri': 'https://tpp.example/ok', 'tpp-notification-uri': 'https://tpp.example/n' },
        rawBody: Buffer.from('{"a":1}'),
      }),
    );
    expect(fingerprint).toEqual({
      method: 'POST',
      path: '/v1/payments/norwegian-domestic-credit-transfers',
      hash: 'df61c83ad993da67c8223dce0f1fe169692752c95be05a12bd90b30ab73c1e42',
    });
  });

  it('is the digest stored by earlier versions, for a GET without body or headers', () => {
    expect(fingerprintOf(request({ method: 'GET', url: '/v1/payments/x', headers: {} }))).toEqual({
      method: 'GET',
      path: '/v1/payments/x',
      hash: 'f0aa4db9946f375dc146f521ae511dec489b4158a5a77e51af09e46025015a5a',
    });
  });

  it('changes with the body and with an outcome header', () => {
    const base = { method: 'POST', url: '/v1/payments/x', headers: { 'psu-id': '31125461118' } };
    const one = fingerprintOf(request({ ...base, rawBody: Buffer.from('{"a":1}') })).hash;
    expect(fingerprintOf(request({ ...base, rawBody: Buffer.from('{"a":2}') })).hash).not.toBe(one);
    expect(
      fingerprintOf(request({ ...base, headers: { ...base.headers, 'tpp-redirect-preferred': 'false' }, rawBody: Buffer.from('{"a":1}') }))
        .hash,
    ).not.toBe(one);
    expect(fingerprintOf(request({ ...base, rawBody: Buffer.from('{"a":1}') })).hash).toBe(one);
  });
});
