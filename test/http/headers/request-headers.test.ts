import { describe, expect, it } from 'vitest';
import { REQUEST_HEADER_NAMES, parseRequestHeaders } from '../../../src/http/headers/request-headers.js';

/** A header lookup like Node's: lower-case names, absent headers undefined. */
function lookup(values: Record<string, string>): (lowerCaseName: string) => string | undefined {
  const lower = new Map(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => {
    expect(name).toBe(name.toLowerCase());
    return lower.get(name);
  };
}

describe('parseRequestHeaders', () => {
  it('applies the defaults when no header is sent', () => {
    expect(parseRequestHeaders(lookup({}))).toEqual({
      ok: true,
      value: {
        psuId: undefined,
        psuCorporateId: undefined,
        tppRedirectUri: undefined,
        tppNokRedirectUri: undefined,
        acceptFixes: new Set(),
        tppSessionId: undefined,
        biometricAuthentication: true,
        tppExplicitAuthorisationPreferred: false,
        tppRedirectPreferred: undefined,
        psuContext: {},
        notification: {},
      },
    });
  });

  it('reads every header it knows', () => {
    const result = parseRequestHeaders(
      lookup({
        'PSU-ID': '41010199946',
        'PSU-Corporate-ID': '988077917',
        'TPP-Redirect-URI': 'https://tpp.example/ok',
        'TPP-Nok-Redirect-URI': 'https://tpp.example/nok',
        'Accept-Fix': 'longer-name',
        'TPP-Session-ID': 'session-1',
        'Biometric-Authentication': 'FALSE',
        'TPP-Explicit-Authorisation-Preferred': 'true',
        'TPP-Redirect-Preferred': 'false',
        'PSU-IP-Address': '192.168.8.78',
        'PSU-Http-Method': 'POST',
        'TPP-Notification-URI': 'not even a URI',
        'TPP-Notification-Content-Preferred': 'status=whatever',
      }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        psuId: { number: '41010199946', kind: 'd-number' },
        psuCorporateId: '988077917',
        tppRedirectUri: 'https://tpp.example/ok',
        tppNokRedirectUri: 'https://tpp.example/nok',
        acceptFixes: new Set(['longer-name']),
        tppSessionId: 'session-1',
        biometricAuthentication: false,
        tppExplicitAuthorisationPreferred: true,
        tppRedirectPreferred: false,
        psuContext: { ipAddress: '192.168.8.78', httpMethod: 'POST' },
        // Kept as sent: the notifications module answers ASPSP-Notification-Support: false for a
        // URI it will not send to, and refuses a malformed preference only on a creating request.
        notification: { uri: 'not even a URI', contentPreferred: 'status=whatever' },
      },
    });
  });

  it.each([
    [{}, []],
    [{ 'Accept-Fix': 'longer-name' }, ['longer-name']],
    [{ 'X-Accept-Fix': 'cash-account-type-iso' }, ['cash-account-type-iso']],
    [{ 'Accept-Fix': 'longer-names', 'X-Accept-Fix': 'cash-account-type-iso, longer-name' }, ['cash-account-type-iso', 'longer-name']],
    [{ 'Accept-Fix': '', 'X-Accept-Fix': 'amount-as-string' }, ['amount-as-string']],
  ])('takes the union of accept-fix and x-accept-fix: %j', (values, expected) => {
    const result = parseRequestHeaders(lookup(values));
    expect(result.ok && [...result.value.acceptFixes].sort()).toEqual(expected);
  });

  it.each([
    ['Biometric-Authentication', 'true', 'biometricAuthentication', true],
    ['Biometric-Authentication', 'false', 'biometricAuthentication', false],
    ['TPP-Explicit-Authorisation-Preferred', 'TRUE', 'tppExplicitAuthorisationPreferred', true],
    ['TPP-Explicit-Authorisation-Preferred', 'false', 'tppExplicitAuthorisationPreferred', false],
    ['TPP-Redirect-Preferred', 'true', 'tppRedirectPreferred', true],
    ['TPP-Redirect-Preferred', 'False', 'tppRedirectPreferred', false],
  ])('reads %s: %s', (header, value, key, expected) => {
    const result = parseRequestHeaders(lookup({ [header]: value }));
    expect(result.ok && result.value[key as 'biometricAuthentication']).toBe(expected);
  });

  it.each([
    ['PSU-ID', '1510869508', 'must be 11 digits, got 10'],
    ['PSU-ID', '15108695077', 'first check digit'],
    ['PSU-ID', '1510869508\u00e9', 'character 11 is not a digit'], // latin1 from Node
    ['PSU-Corporate-ID', '988077918', 'check digit (digit 9) is wrong'],
    ['TPP-Redirect-URI', 'http://tpp.example/cb', 'must use https'],
    ['TPP-Nok-Redirect-URI', 'https://tpp.example/cb#x', 'fragment'],
    ['Accept-Fix', 'longer-nam', 'unknown fix "longer-nam"'],
    ['X-Accept-Fix', 'nope', 'unknown fix "nope"'],
    ['TPP-Session-ID', '', 'must not be empty'],
    ['Biometric-Authentication', 'yes', 'must be "true" or "false"'],
    ['TPP-Explicit-Authorisation-Preferred', '1', 'must be "true" or "false"'],
    ['TPP-Redirect-Preferred', '', 'must be "true" or "false"'],
    ['PSU-IP-Address', '192.168.8', 'IPv4'],
    ['PSU-IP-Port', '70000', '1 to 65535'],
    ['PSU-User-Agent', '', 'must not be empty'],
    ['PSU-Accept-Language', 'nb\u0000', 'control character'],
    ['PSU-Http-Method', 'HEAD', 'must be one of'],
    ['PSU-Device-ID', 'x'.repeat(256), 'at most 255'],
    ['PSU-Geo-Location', 'GEO:0;181', 'longitude 181'],
  ])('names %s when it is %j', (header, value, reason) => {
    const result = parseRequestHeaders(lookup({ [header]: value }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.header).toBe(header);
    expect(result.reason.en).toContain(reason);
    expect(result.reason.nb).not.toBe('');
  });

  it('names the first failing header in REQUEST_HEADER_NAMES order', () => {
    const result = parseRequestHeaders(
      lookup({ 'PSU-Geo-Location': 'nowhere', 'TPP-Redirect-Preferred': 'maybe', 'PSU-Corporate-ID': '1' }),
    );
    expect(result).toMatchObject({ ok: false, header: 'PSU-Corporate-ID' });
  });

  it('does not look at X-Request-ID', () => {
    const result = parseRequestHeaders(lookup({ 'X-Request-ID': 'not a uuid' }));
    expect(result.ok).toBe(true);
  });
});

describe('REQUEST_HEADER_NAMES', () => {
  it('lists every header in canonical spelling, once', () => {
    expect(REQUEST_HEADER_NAMES).toEqual([
      'PSU-ID',
      'PSU-Corporate-ID',
      'TPP-Redirect-URI',
      'TPP-Nok-Redirect-URI',
      'Accept-Fix',
      'X-Accept-Fix',
      'TPP-Session-ID',
      'Biometric-Authentication',
      'TPP-Explicit-Authorisation-Preferred',
      'TPP-Redirect-Preferred',
      'PSU-IP-Address',
      'PSU-IP-Port',
      'PSU-User-Agent',
      'PSU-Accept',
      'PSU-Accept-Charset',
      'PSU-Accept-Encoding',
      'PSU-Accept-Language',
      'PSU-Http-Method',
      'PSU-Device-ID',
      'PSU-Geo-Location',
    ]);
  });
});
