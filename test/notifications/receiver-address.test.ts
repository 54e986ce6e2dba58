import { describe, expect, it } from 'vitest';
import { receiverLookup, refusedAddress, refusedLiteralHost } from '../../src/modules/notifications/receiver-address.js';

describe('the addresses a status notification may be sent to', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1'])(
    'sends to the public address %s',
    (address) => {
      expect(refusedAddress(address, false)).toBeUndefined();
    },
  );

  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1', 'private'],
    ['::', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('refuses %s (%s network)', (address, kind) => {
    expect(refusedAddress(address, false)).toMatch(kind === 'loopback' ? /loopback/ : /private or reserved/);
  });

  it('lets the sandbox send to loopback, and to nothing private', () => {
    expect(refusedAddress('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddress('::1', true)).toBeUndefined();
    expect(refusedAddress('10.0.0.1', true)).toMatch(/private/);
  });

  it('fails the connection when the name resolves to a refused address, with the reason', async () => {
    const lookup = receiverLookup(false);
    const outcome = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      lookup('localhost', { all: false }, (error, address) => resolve({ error, address })),
    );
    expect(outcome.error?.code).toBe('ERR_NOTIFICATION_ADDRESS');
    expect(outcome.error?.message).toMatch(/localhost refused: .* loopback/);
    const allowed = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      receiverLookup(true)('127.0.0.1', { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(allowed).toEqual({ error: null, address: [{ address: '127.0.0.1', family: 4 }] });
  });

  it('judges a URI whose host is an IP address by that address (no name is resolved for it)', () => {
    expect(refusedLiteralHost('https://[::1]:8443/n', false)).toMatch(/loopback/);
    expect(refusedLiteralHost('https://10.0.0.7/n', true)).toMatch(/private/);
    expect(refusedLiteralHost('http://127.0.0.1:9000/n', true)).toBeUndefined();
    expect(refusedLiteralHost('https://hooks.tpp.example/n', false)).toBeUndefined();
  });
});
