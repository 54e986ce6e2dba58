/**
 * Where the bank sends status notifications: an https URI (http to a loopback host only in
 * sandbox mode) whose host lies in one of the TPP's domains, as the Berlin Group rule for
 * TPP-Notification-URI reads (the certificate's domain covers its subdomains; wildcards count).
 */
import { describe, expect, it } from 'vitest';
import { checkNotificationUri, hostCoveredBy } from '../../src/domain/notification-uri.js';

const SANDBOX = { allowLoopbackHttp: true };
const PRODUCTION = { allowLoopbackHttp: false };

describe('checkNotificationUri', () => {
  it.each([
    ['https://www.example-tpp.com/xs2a-client/v1/notifications', 'www.example-tpp.com'],
    ['HTTPS://Notifications.Example-TPP.com:8443/n?x=1', 'notifications.example-tpp.com'],
    ['https://[2001:db8::1]/n', '2001:db8::1'],
  ])('accepts %j (host %s) in either mode', (uri, host) => {
    expect(checkNotificationUri(uri, PRODUCTION)).toEqual({ ok: true, uri, host });
    expect(checkNotificationUri(uri, SANDBOX)).toEqual({ ok: true, uri, host });
  });

  it.each(['http://127.0.0.1:9000/n', 'http://localhost/n', 'http://app.localhost/n'])(
    'accepts plain http %j only in sandbox mode',
    (uri) => {
      expect(checkNotificationUri(uri, SANDBOX).ok).toBe(true);
      expect(checkNotificationUri(uri, PRODUCTION).ok).toBe(false);
    },
  );

  it.each([
    'http://tpp.example/n',
    'ftp://tpp.example/n',
    'https://user:secret@tpp.example/n',
    'https://tpp.example/n#part',
    'https:/tpp.example/n',
    '/relative/path',
    'https://tpp.example/a b',
    `https://tpp.example/${'a'.repeat(2100)}`,
    'not a uri',
  ])('refuses %j', (uri) => {
    expect(checkNotificationUri(uri, SANDBOX).ok).toBe(false);
  });
});

describe('hostCoveredBy', () => {
  it.each([
    ['example-tpp.com', ['example-tpp.com']],
    ['www.example-tpp.com', ['example-tpp.com']],
    ['a.b.example-tpp.com', ['Example-TPP.com.']],
    ['notifications.example-tpp.com', ['*.example-tpp.com']],
    ['127.0.0.1', ['127.0.0.1']],
    ['localhost', ['other.example', 'localhost']],
  ])('%s lies in %j', (host, domains) => {
    expect(hostCoveredBy(host, domains)).toBe(true);
  });

  it.each([
    ['evil-example-tpp.com', ['example-tpp.com']],
    ['example-tpp.com.evil.example', ['example-tpp.com']],
    ['example-tpp.com', ['*.example-tpp.com']],
    ['127.0.0.2', ['127.0.0.1']],
    ['1.127.0.0.1', ['127.0.0.1']],
    ['tpp.example', []],
    ['tpp.example', ['']],
  ])('%s does not lie in %j', (host, domains) => {
    expect(hostCoveredBy(host, domains)).toBe(false);
  });
});
