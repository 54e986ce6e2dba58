/**
 * The text parsers of signed requests (docs/design.md §5), table by table:
 * - parseDistinguishedName / sameAttributes: a DN is a set of attributes, whatever the order
 *   (X.500 or RFC 2253), spacing (`, `, `%20`), case, type alias (`S`/`ST`, `OID.2.5.4.97`,
 *   `organizationIdentifier`, `2.5.4.97`) or escaping (`\,`, `\2C`, quotes); junk is undefined;
 * - parseKeyId / normaliseSerial: `SN=<hex>,CA=<DN>`, serials compared without case, leading
 *   zeros or a `0x` prefix; junk is undefined;
 * - parseSignatureParameters: last duplicate wins, unknown parameters ignored, escaped quotes,
 *   missing keyId or signature, non-base64 signature, RFC 2047-wrapped signature;
 * - decodeEncodedWords: B and Q words, adjacent words joined, unknown charset refused;
 * - parseDigest / digestMatches: SHA-256 and SHA-512, case-insensitive token, unsupported-only
 *   (MD5) refused, every supported instance must match;
 * - buildSigningString: instances joined with ", ", `(request-target)` with the query, missing
 *   headers named, header bytes kept as sent (latin1).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestHeader, digestMatches, parseDigest } from '../../src/security/signature/digest.js';
import { parseDistinguishedName, sameAttributes } from '../../src/security/signature/distinguished-name.js';
import { normaliseSerial, parseKeyId } from '../../src/security/signature/key-id.js';
import { decodeEncodedWords } from '../../src/security/signature/rfc2047.js';
import { parseSignatureParameters } from '../../src/security/signature/signature-parameters.js';
import { buildSigningString, type MessageParts } from '../../src/security/signature/signing-string.js';

/** The test CA of test/fixtures/certs/generated, as its certificate holds the issuer. */
const TEST_CA = ['2.5.4.10=test qtsp as', '2.5.4.3=test psd2 qsealc ca', '2.5.4.6=no'];

describe('parseDistinguishedName', () => {
  it.each([
    ['RFC 2253 order, no spaces', 'CN=Test PSD2 QSealC CA,O=Test QTSP AS,C=NO'],
    ['X.500 order, spaces after commas', 'C=NO, O=Test QTSP AS, CN=Test PSD2 QSealC CA'],
    ['percent-encoded spaces', 'CN=Test%20PSD2%20QSealC%20CA,O=Test%20QTSP%20AS,C=NO'],
    ['percent-encoded commas and spaces', 'C=NO%2C%20O=Test%20QTSP%20AS%2C%20CN=Test%20PSD2%20QSealC%20CA'],
    ['other case and extra spaces', 'cn = test  psd2 qsealc ca ,  o=TEST QTSP AS,c=no'],
    ['long type names', 'commonName=Test PSD2 QSealC CA,organizationName=Test QTSP AS,countryName=NO'],
    ['numeric OIDs', '2.5.4.3=Test PSD2 QSealC CA,2.5.4.10=Test QTSP AS,2.5.4.6=NO'],
    ['semicolons (RFC 1779)', 'CN=Test PSD2 QSealC CA; O=Test QTSP AS; C=NO'],
    ['node:crypto newlines', 'C=NO\nO=Test QTSP AS\nCN=Test PSD2 QSealC CA'],
    ['quoted values', 'CN="Test PSD2 QSealC CA",O="Test QTSP AS",C=NO'],
  ])('reads the test CA written in %s', (_form, text) => {
    expect(parseDistinguishedName(text)).toEqual(TEST_CA);
  });

  it.each([
    ['S', 'S=Bavaria,C=DE'],
    ['ST', 'ST=Bavaria,C=DE'],
    ['stateOrProvinceName', 'stateOrProvinceName=Bavaria,C=DE'],
    ['2.5.4.8', '2.5.4.8=Bavaria,C=DE'],
  ])('reads the state as %s', (_type, text) => {
    expect(parseDistinguishedName(text)).toEqual(['2.5.4.6=de', '2.5.4.8=bavaria']);
  });

  it.each([
    ['OID.2.5.4.97', 'OID.2.5.4.97=PSDNO-FSA-123456789'],
    ['oid.2.5.4.97', 'oid.2.5.4.97=PSDNO-FSA-123456789'],
    ['organizationIdentifier', 'organizationIdentifier=PSDNO-FSA-123456789'],
    ['ORGANIZATIONIDENTIFIER', 'ORGANIZATIONIDENTIFIER=PSDNO-FSA-123456789'],
    ['2.5.4.97', '2.5.4.97=PSDNO-FSA-123456789'],
  ])('reads the organizationIdentifier as %s', (_type, text) => {
    expect(parseDistinguishedName(text)).toEqual(['2.5.4.97=psdno-fsa-123456789']);
  });

  it.each([
    ['an escaped comma', 'O=Acme\\, Inc.,C=NO'],
    ['a hex-escaped comma', 'O=Acme\\2C Inc.,C=NO'],
    ['a quoted comma', 'O="Acme, Inc.",C=NO'],
  ])('keeps %s inside the value', (_form, text) => {
    expect(parseDistinguishedName(text)).toEqual(['2.5.4.10=acme, inc.', '2.5.4.6=no']);
  });

  it('keeps an equals sign inside a value', () => {
    expect(parseDistinguishedName('CN=a\\=b,C=NO')).toEqual(['2.5.4.3=a=b', '2.5.4.6=no']);
  });

  it('reads the attributes of a multi-valued RDN', () => {
    expect(parseDistinguishedName('CN=Seal+O=Acme,C=NO')).toEqual(['2.5.4.10=acme', '2.5.4.3=seal', '2.5.4.6=no']);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['only separators', ' , ; '],
    ['no equals sign', 'Test CA'],
    ['no type', '=Test CA,C=NO'],
    ['one part not an attribute', 'CN=Test CA,junk'],
    ['broken percent-encoding', 'CN=%E0%A4%A'],
  ])('refuses %s', (_case, text) => {
    expect(parseDistinguishedName(text)).toBeUndefined();
  });
});

describe('sameAttributes', () => {
  const dn = (text: string) => parseDistinguishedName(text) ?? [];

  it('is true for the same attributes in any order and spelling', () => {
    expect(sameAttributes(dn('CN=Test CA,O=QTSP,C=NO'), dn('C=NO, O=QTSP, CN=Test CA'))).toBe(true);
    expect(sameAttributes(dn('ST=Oslo,C=NO'), dn('S=oslo,C=no'))).toBe(true);
  });

  it.each([
    ['a value differs', 'CN=Test CA,O=QTSP,C=NO', 'CN=Test CA,O=QTSP,C=SE'],
    ['an attribute is missing', 'CN=Test CA,O=QTSP,C=NO', 'CN=Test CA,O=QTSP'],
    ['an attribute is extra', 'CN=Test CA,C=NO', 'CN=Test CA,OU=Unit,C=NO'],
    ['the type differs', 'CN=QTSP,C=NO', 'O=QTSP,C=NO'],
  ])('is false when %s', (_case, a, b) => {
    expect(sameAttributes(dn(a), dn(b))).toBe(false);
  });
});

describe('parseKeyId and normaliseSerial', () => {
  it.each([
    ['SN=3E1C1DAD0A1B2C3D,CA=CN=Test PSD2 QSealC CA,O=Test QTSP AS,C=NO', '3E1C1DAD0A1B2C3D'],
    ['SN=3e1c1dad0a1b2c3d,CA=C=NO, O=Test QTSP AS, CN=Test PSD2 QSealC CA', '3E1C1DAD0A1B2C3D'],
    ['SN=003E1C1DAD0A1B2C3D,CA=C=NO,O=Test QTSP AS,CN=Test PSD2 QSealC CA', '3E1C1DAD0A1B2C3D'],
    ['SN=0x3E1C1DAD0A1B2C3D,CA=C=NO,O=Test QTSP AS,CN=Test PSD2 QSealC CA', '3E1C1DAD0A1B2C3D'],
    ['  SN = 3E1C1DAD0A1B2C3D , CA = CN=Test%20PSD2%20QSealC%20CA,O=Test%20QTSP%20AS,C=NO  ', '3E1C1DAD0A1B2C3D'],
  ])('reads %j', (keyId, serial) => {
    expect(parseKeyId(keyId)).toEqual({ serial, issuer: TEST_CA });
  });

  it.each([
    ['not a keyId'],
    [''],
    ['CA=CN=Test CA'], // no serial
    ['SN=3E1C1DAD'], // no issuer
    ['SN=3E1C1DAD,CA='], // empty issuer
    ['SN=3E1C1DAG,CA=CN=Test CA'], // not hex
    ['SN=,CA=CN=Test CA'], // empty serial
    ['SN=3E1C1DAD,CA=junk'], // issuer not a DN
    ['CA=CN=Test CA,SN=3E1C1DAD'], // wrong order
  ])('refuses %j', (keyId) => {
    expect(parseKeyId(keyId)).toBeUndefined();
  });

  it.each([
    ['0AA54CBC8DC8B4CDE0DD757670', 'AA54CBC8DC8B4CDE0DD757670'], // node:crypto keeps the leading zero nibble
    ['0aa54cbc8dc8b4cde0dd757670', 'AA54CBC8DC8B4CDE0DD757670'], // @peculiar/x509 writes lower case
    ['AA54CBC8DC8B4CDE0DD757670', 'AA54CBC8DC8B4CDE0DD757670'], // Java's BigInteger drops it
    ['0a:a5:4c:bc', 'AA54CBC'],
    ['0000', '0'],
    ['0', '0'],
    ['10', '10'],
  ])('normaliseSerial(%j) is %j', (serial, normalised) => {
    expect(normaliseSerial(serial)).toBe(normalised);
  });
});

describe('parseSignatureParameters', () => {
  const SIGNATURE = Buffer.from('a signature of some bytes').toString('base64');

  it('reads every parameter of a Berlin Group Signature header', () => {
    const result = parseSignatureParameters(
      `keyId="SN=3E1C1DAD,CA=CN=Test CA,O=QTSP,C=NO",algorithm="rsa-sha256",headers="Digest X-Request-ID Date",signature="${SIGNATURE}"`,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        keyId: 'SN=3E1C1DAD,CA=CN=Test CA,O=QTSP,C=NO',
        algorithm: 'rsa-sha256',
        headers: ['digest', 'x-request-id', 'date'],
        signature: Buffer.from('a signature of some bytes'),
      },
    });
  });

  it('reads the Authorization form ("Signature " prefix) with spaces around separators', () => {
    const result = parseSignatureParameters(`Signature keyId = "k" , headers = "date  digest" , signature = "${SIGNATURE}"`);
    expect(result.ok && result.value).toMatchObject({ keyId: 'k', headers: ['date', 'digest'] });
  });

  it('uses date alone when headers is absent, and leaves algorithm undefined', () => {
    const result = parseSignatureParameters(`keyId="k",signature="${SIGNATURE}"`);
    expect(result.ok && result.value).toMatchObject({ headers: ['date'], algorithm: undefined });
  });

  it('takes the last value of a repeated parameter', () => {
    const result = parseSignatureParameters(
      `keyId="first",headers="date",keyId="second",signature="AAAA",headers="digest",signature="${SIGNATURE}"`,
    );
    expect(result.ok && result.value).toMatchObject({
      keyId: 'second',
      headers: ['digest'],
      signature: Buffer.from('a signature of some bytes'),
    });
  });

  it('ignores unknown parameters', () => {
    const result = parseSignatureParameters(`created="1402170695",keyId="k",expires=1402170699,foo="bar",signature="${SIGNATURE}"`);
    expect(result.ok && result.value.keyId).toBe('k');
  });

  it('unescapes quotes and backslashes in quoted values', () => {
    const result = parseSignatureParameters(`keyId="SN=1,CA=O=\\"Acme, Inc.\\",C=NO\\\\",signature="${SIGNATURE}"`);
    expect(result.ok && result.value.keyId).toBe('SN=1,CA=O="Acme, Inc.",C=NO\\');
  });

  it('reads bare (unquoted) values', () => {
    const result = parseSignatureParameters(`keyId=k,algorithm=rsa-sha256,signature=${SIGNATURE}`);
    expect(result.ok && result.value).toMatchObject({ keyId: 'k', algorithm: 'rsa-sha256' });
  });

  it('unwraps a signature sent as adjacent RFC 2047 encoded-words', () => {
    const half = SIGNATURE.length / 2;
    const words = [SIGNATURE.slice(0, half), SIGNATURE.slice(half)].map((part) => `=?utf-8?B?${Buffer.from(part).toString('base64')}?=`);
    const result = parseSignatureParameters(`keyId="k",signature="${words.join(' ')}"`);
    expect(result.ok && result.value.signature).toEqual(Buffer.from('a signature of some bytes'));
  });

  it.each([
    ['keyId is missing', `signature="${SIGNATURE}"`, /keyId .*missing/],
    ['keyId is empty', `keyId="",signature="${SIGNATURE}"`, /keyId .*missing/],
    ['signature is missing', 'keyId="k",headers="date"', /signature .*missing/],
    ['signature is empty', 'keyId="k",signature=""', /signature .*missing/],
    ['signature is not base64', 'keyId="k",signature="not base64!"', /not base64/],
    ['signature has a bad length', 'keyId="k",signature="AAA"', /not base64/],
    ['a parameter has no value separator', `keyId="k" signature="${SIGNATURE}"`, /not a list/],
    ['a quote is not closed', 'keyId="k,signature="AAAA', /not a list|missing/],
    ['the header is empty', '', /keyId .*missing/],
    ['the signature uses an unknown charset', 'keyId="k",signature="=?koi8-r?B?QUFBQQ==?="', /charset "koi8-r"/],
  ])('refuses it when %s', (_case, header, problem) => {
    const result = parseSignatureParameters(header);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(problem);
  });
});

describe('decodeEncodedWords (RFC 2047)', () => {
  it.each([
    ['a B word', '=?utf-8?B?aGVsbG8=?=', 'hello'],
    ['a b word with an upper-case charset', '=?UTF-8?b?aGVsbG8=?=', 'hello'],
    ['a Q word in UTF-8', '=?utf-8?Q?caf=C3=A9_au_lait?=', 'café au lait'],
    ['a q word in ISO-8859-1', '=?ISO-8859-1?q?caf=E9?=', 'café'],
    ['a word with an RFC 2231 language', '=?utf-8*no?B?aGVsbG8=?=', 'hello'],
    ['adjacent words', '=?utf-8?B?aGVs?= =?utf-8?B?bG8=?=', 'hello'],
    ['adjacent words across a folded line', '=?utf-8?B?aGVs?=\r\n =?iso-8859-1?Q?lo?=', 'hello'],
    ['an empty word', '=?utf-8?B??=', ''],
  ])('decodes %s', (_case, value, text) => {
    expect(decodeEncodedWords(value)).toEqual({ ok: true, text });
  });

  it.each([
    ['plain text', 'AAAA=='],
    ['text mixed with a word', 'hello =?utf-8?B?aGVsbG8=?='],
    ['an unterminated word', '=?utf-8?B?aGVsbG8='],
  ])('returns %s unchanged', (_case, value) => {
    expect(decodeEncodedWords(value)).toEqual({ ok: true, text: value });
  });

  it.each([
    ['an unknown charset', '=?koi8-r?B?aGVsbG8=?=', /unsupported charset "koi8-r"/],
    ['an unknown charset in a later word', '=?utf-8?B?aGVs?= =?x-unknown?B?bG8=?=', /unsupported charset "x-unknown"/],
    ['bad base64', '=?utf-8?B?aGVsbG8?=', /malformed/],
    ['a bad Q escape', '=?utf-8?Q?caf=ZZ?=', /malformed/],
    ['a truncated Q escape', '=?utf-8?Q?caf=E?=', /malformed/],
  ])('refuses %s', (_case, value, problem) => {
    const result = decodeEncodedWords(value);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(problem);
  });
});

describe('parseDigest and digestMatches', () => {
  const body = Buffer.from('{"instructedAmount":{"currency":"NOK","amount":"123.50"}}');
  const sha256 = createHash('sha256').update(body).digest('base64');
  const sha512 = createHash('sha512').update(body).digest('base64');

  const matches = (header: string, payload: Buffer = body) => {
    const parsed = parseDigest(header);
    if (!parsed.ok) throw new Error(parsed.problem);
    return digestMatches(parsed.instances, payload);
  };

  it.each([
    ['SHA-256', `SHA-256=${sha256}`],
    ['SHA-512', `SHA-512=${sha512}`],
    ['a lower-case token', `sha-256=${sha256}`],
    ['a mixed-case token', `Sha-512=${sha512}`],
    ['both algorithms', `SHA-256=${sha256}, SHA-512=${sha512}`],
    ['an unsupported algorithm next to a supported one', `MD5=${createHash('md5').update(body).digest('base64')},SHA-256=${sha256}`],
    ['digestHeader(sha256)', digestHeader(body)],
    ['digestHeader(sha512)', digestHeader(body, 'sha512')],
  ])('accepts %s when it matches the body', (_case, header) => {
    expect(matches(header)).toBe(true);
  });

  it('reads the algorithm of each instance', () => {
    const parsed = parseDigest(`SHA-512=${sha512},SHA-256=${sha256}`);
    expect(parsed.ok && parsed.instances.map((instance) => instance.algorithm)).toEqual(['sha512', 'sha256']);
  });

  it.each([
    ['another body', `SHA-256=${sha256}`, Buffer.from('{}')],
    ['an empty body', `SHA-256=${sha256}`, Buffer.alloc(0)],
    ['one of two supported instances is wrong', `SHA-256=${sha256},SHA-512=${sha256}`, body],
    ['a SHA-256 value labelled SHA-512', `SHA-512=${sha256}`, body],
  ])('does not match %s', (_case, header, payload) => {
    expect(matches(header, payload)).toBe(false);
  });

  it.each([
    ['only MD5', `MD5=${createHash('md5').update(body).digest('base64')}`, /SHA-256 or SHA-512/],
    ['only SHA (SHA-1)', `SHA=${createHash('sha1').update(body).digest('base64')}`, /SHA-256 or SHA-512/],
    ['no value', 'SHA-256', /must look like/],
    ['empty', '', /must look like/],
    ['an empty instance', `SHA-256=${sha256},`, /must look like/],
    ['a non-base64 value', 'SHA-256=not base64!', /SHA-256 value of Digest is not base64/],
    ['a value of bad length', 'SHA-256=abc', /not base64/],
  ])('refuses %s', (_case, header, problem) => {
    const parsed = parseDigest(header);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });
});

describe('buildSigningString', () => {
  const message = (
    headers: Record<string, string[]>,
    method = 'POST',
    target = '/v1/payments/norwegian-domestic-credit-transfers',
  ): MessageParts => ({
    method,
    target,
    header: (name) => headers[name],
  });

  it('writes "name: value" lines in the signed order, joined by LF, with no trailing newline', () => {
    const result = buildSigningString(['digest', 'date'], message({ date: ['Tue, 07 Jun 2014 20:51:35 GMT'], digest: ['SHA-256=abc='] }));
    expect(result.ok && result.bytes.toString('latin1')).toBe('digest: SHA-256=abc=\ndate: Tue, 07 Jun 2014 20:51:35 GMT');
  });

  it('joins several instances of a header with ", " after trimming each', () => {
    const result = buildSigningString(['x-example'], message({ 'x-example': [' one ', 'two', '\tthree'] }));
    expect(result.ok && result.bytes.toString('latin1')).toBe('x-example: one, two, three');
  });

  it('writes (request-target) as the lower-case method and the path with its query', () => {
    const result = buildSigningString(
      ['(request-target)', 'date'],
      message({ date: ['d'] }, 'GET', '/v1/accounts?withBalance=true&x=%20y'),
    );
    expect(result.ok && result.bytes.toString('latin1')).toBe('(request-target): get /v1/accounts?withBalance=true&x=%20y\ndate: d');
  });

  it('keeps the header bytes as sent (a UTF-8 PSU-ID received as latin1)', () => {
    const utf8 = Buffer.from('PSU-ID: Søren Ærø', 'utf8');
    const received = Buffer.from('Søren Ærø', 'utf8').toString('latin1');
    const result = buildSigningString(['psu-id'], message({ 'psu-id': [received] }));
    expect(result.ok && result.bytes).toEqual(Buffer.concat([Buffer.from('psu-id: '), utf8.subarray('PSU-ID: '.length)]));
  });

  it.each([
    ['absent', {}],
    ['present with no value', { 'x-request-id': [] }],
  ])('names a signed header that is %s', (_case, headers) => {
    expect(buildSigningString(['date', 'x-request-id'], message({ date: ['d'], ...headers }))).toEqual({
      ok: false,
      missingHeader: 'x-request-id',
    });
  });
});
