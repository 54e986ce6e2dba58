import { describe, expect, it } from 'vitest';
import { checkRedirectUri } from '../../../src/http/headers/redirect-uri.js';

describe('checkRedirectUri', () => {
  it.each([
    'https://tpp.example/callback',
    'https://tpp.example/callback?state=abc&x=%20y',
    'https://tpp.example/cb?state=%7B%22a%22%3A1%7D&pct=%25',
    'https://tpp.example/cb?list=a|b&obj={a}', // outside RFC 3986, but sent in the wild and unambiguous
    'https://tpp.example:8443/cb',
    'HTTPS://TPP.EXAMPLE/Callback', // returned as sent, not normalised
    'http://localhost:3000/cb',
    'http://app.localhost/cb',
    'http://127.0.0.1:8080/cb',
    'http://[::1]:8080/cb',
    `https://tpp.example/${'a'.repeat(2048 - 'https://tpp.example/'.length)}`,
  ])('accepts %s', (value) => {
    expect(checkRedirectUri(value)).toEqual({ ok: true, value });
  });

  it.each([
    ['http://tpp.example/cb', 'must use https; http is only allowed for localhost', 'not tpp.example', 'ikke tpp.example'],
    ['http://localhost.evil.example/cb', 'must use https', 'localhost.evil.example', 'må bruke https'],
    ['http://127.0.0.2/cb', 'must use https', '127.0.0.2', 'må bruke https'],
    ['ftp://tpp.example/cb', 'must use https, not ftp', 'not ftp', 'ikke ftp'],
    ['myapp://callback', 'must use https, not myapp', 'myapp', 'ikke myapp'],
    ['/callback', 'must be an absolute URI', 'https://tpp.example/callback', 'absolutt URI'],
    ['tpp.example/callback', 'must be an absolute URI', 'absolute', 'absolutt'],
    ['', 'must be an absolute URI', 'absolute', 'absolutt'],
    ['https:/evil.example/cb', 'must be an absolute URI with a host', 'scheme://host', 'absolutt URI med vert'],
    ['https:evil.example/cb', 'must be an absolute URI with a host', 'scheme://host', 'absolutt URI med vert'],
    ['https:///evil.example/cb', 'must be an absolute URI with a host', 'scheme://host', 'absolutt URI med vert'],
    ['https:\\\\evil.example\\cb', 'must not contain a backslash', 'backslash', 'omvendt skråstrek'],
    ['https://tpp.example\\@evil.example/cb', 'must not contain a backslash', 'backslash', 'omvendt skråstrek'],
    ['https://tpp.example/cb#done', 'must not have a fragment', '#', 'kan ikke ha et fragment'],
    ['https://tpp.example/cb#', 'must not have a fragment', '#', 'fragment'],
    ['https://user:secret@tpp.example/cb', 'must not contain a user name or password', 'password', 'passord'],
    ['https://user@tpp.example/cb', 'must not contain a user name or password', 'user name', 'brukernavn'],
    ['https://tpp.example/a b', 'character 22 is a space', 'percent-encode', 'tegn nr. 22 er et mellomrom'],
    [' https://tpp.example/cb', 'character 1 is a space', 'character 1', 'tegn nr. 1 er et mellomrom'],
    ['https://tpp.example/cb\n', 'character 23 is a control character', 'percent-encode', 'tegn nr. 23 er et kontrolltegn'],
    ['https://tpp.example/bl\u00e5', 'character 23 is not ASCII', 'percent-encode', 'tegn nr. 23 er ikke ASCII'],
    ['https://tpp.example/cb?x="a"', 'character 26 is ", which a URI never holds', 'percent-encode', 'tegn nr. 26 er "'],
    ['https://tpp.example/cb?x=<script>', 'character 26 is <', 'never holds', 'aldri inneholder'],
    ['https://tpp.example/cb?x=a>b', 'character 27 is >', 'percent-encode', 'prosentkod'],
    ['https://tpp.example/cb?x=%zz', 'character 26 is a % not followed by two hex digits', '%25', 'tegn nr. 26 er et %'],
    ['https://tpp.example/cb?x=100%', 'character 29 is a %', 'two hex digits', 'heksadesimale'],
    ['https://tpp.example/cb?x=%2', 'character 26 is a %', '%25', 'skriv % selv som %25'],
    [
      `https://tpp.example/${'a'.repeat(2049 - 'https://tpp.example/'.length)}`,
      'at most 2048 characters, got 2049',
      '2049',
      'høyst 2048 tegn',
    ],
  ])('refuses %s: %s', (value, en1, en2, nb) => {
    const result = checkRedirectUri(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en1);
    expect(result.reason.en).toContain(en2);
    expect(result.reason.nb).toContain(nb);
  });
});
