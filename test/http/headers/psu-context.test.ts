import { describe, expect, it } from 'vitest';
import type { Check } from '../../../src/domain/localized.js';
import {
  checkPsuContext,
  checkPsuDeviceId,
  checkPsuGeoLocation,
  checkPsuHeaderText,
  checkPsuHttpMethod,
  checkPsuIpAddress,
  checkPsuIpPort,
} from '../../../src/http/headers/psu-context.js';

function refusal<T>(result: Check<T>): { en: string; nb: string } {
  expect(result.ok).toBe(false);
  return result.ok ? { en: '', nb: '' } : result.reason;
}

describe('checkPsuIpAddress', () => {
  it.each(['192.168.8.78', '0.0.0.0', '2001:db8::1', '::1', '::ffff:192.168.8.78'])('accepts %s', (value) => {
    expect(checkPsuIpAddress(value)).toEqual({ ok: true, value });
  });
  it.each(['', '192.168.8', '192.168.8.256', '[::1]', '2001:db8::g', 'localhost', ' 192.168.8.78'])('refuses %j', (value) => {
    const reason = refusal(checkPsuIpAddress(value));
    expect(reason.en).toContain('must be an IPv4 address');
    expect(reason.nb).toContain('IPv6-adresse');
  });
});

describe('checkPsuIpPort', () => {
  it.each([
    ['1', 1],
    ['1234', 1234],
    ['65535', 65535],
    ['08080', 8080],
  ])('accepts %s', (value, port) => {
    expect(checkPsuIpPort(value)).toEqual({ ok: true, value: port });
  });
  it.each(['', '0', '65536', '99999', '-1', '+80', '80.0', '1e3', ' 80', '0x50', '000000080'])('refuses %j', (value) => {
    const reason = refusal(checkPsuIpPort(value));
    expect(reason.en).toBe('must be a port number from 1 to 65535, digits only');
    expect(reason.nb).toContain('fra 1 til 65535');
  });
});

describe('checkPsuHeaderText', () => {
  it.each([
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
    'nb-NO,nb;q=0.9,en;q=0.8',
    'text/html,application/xhtml+xml',
    'Bl\u00c3\u00a5Bank/1.0', // UTF-8 bytes as Node hands them over (latin1)
    'x'.repeat(512),
  ])('accepts %s', (value) => {
    expect(checkPsuHeaderText(value)).toEqual({ ok: true, value });
  });
  it.each([
    ['', 'must not be empty', 'kan ikke være tom'],
    ['x'.repeat(513), 'at most 512 characters, got 513', 'høyst 512 tegn, men har 513'],
    ['Mozilla\u0000', 'character 8 is a control character', 'tegn nr. 8 er et kontrolltegn'],
    ['a\tb', 'character 2 is a control character', 'tegn nr. 2'],
    ['ab\x7f', 'character 3 is a control character', 'tegn nr. 3'],
  ])('refuses %j: %s', (value, en, nb) => {
    const reason = refusal(checkPsuHeaderText(value));
    expect(reason.en).toContain(en);
    expect(reason.nb).toContain(nb);
  });
});

describe('checkPsuHttpMethod', () => {
  it.each(['GET', 'PUT', 'POST', 'PATCH', 'DELETE'])('accepts %s', (value) => {
    expect(checkPsuHttpMethod(value)).toEqual({ ok: true, value });
  });
  it.each(['get', 'Post', 'HEAD', 'OPTIONS', '', 'GET '])('refuses %j', (value) => {
    const reason = refusal(checkPsuHttpMethod(value));
    expect(reason.en).toBe('must be one of GET, PUT, POST, PATCH, DELETE (upper case)');
    expect(reason.nb).toContain('store bokstaver');
  });
});

describe('checkPsuDeviceId', () => {
  it.each(['99435c7e-ad88-49ec-a2ad-99ddcb1f5555', 'a', 'iPhone 15 / app 3.2', 'x'.repeat(255)])('accepts %s', (value) => {
    expect(checkPsuDeviceId(value)).toEqual({ ok: true, value });
  });
  it.each([
    ['', 'must not be empty', 'kan ikke være tom'],
    ['x'.repeat(256), 'at most 255 characters, got 256', 'høyst 255 tegn, men har 256'],
    ['abc\r\n', 'character 4 is a control character or not ASCII', 'tegn nr. 4'],
    ['enhet-\u00f8', 'character 7', 'ikke ASCII'],
  ])('refuses %j: %s', (value, en, nb) => {
    const reason = refusal(checkPsuDeviceId(value));
    expect(reason.en).toContain(en);
    expect(reason.nb).toContain(nb);
  });
});

describe('checkPsuGeoLocation', () => {
  it.each([
    ['GEO:52.506931;13.144558', 52.506931, 13.144558],
    ['GEO:-33.8688;151.2093', -33.8688, 151.2093],
    ['GEO:90;-180', 90, -180],
    ['GEO:-90.000000;180.000000', -90, 180],
    ['GEO:0;0', 0, 0],
  ])('reads %s', (value, latitude, longitude) => {
    expect(checkPsuGeoLocation(value)).toEqual({ ok: true, value: { latitude, longitude } });
  });
  it.each([
    ['GEO:90.5;10', 'the latitude 90.5 is outside −90..90', 'breddegraden 90.5'],
    ['GEO:-91;10', 'the latitude -91 is outside', 'breddegraden -91'],
    ['GEO:10;180.000001', 'the longitude 180.000001 is outside −180..180', 'lengdegraden 180.000001'],
    ['GEO:10;-200', 'the longitude -200 is outside', 'lengdegraden -200'],
    ['geo:52.5;13.1', 'must look like GEO:52.506931;13.144558', 'må se ut som'],
    ['GEO:52.5,13.1', 'must look like', 'må se ut som'],
    ['GEO:52.5', 'must look like', 'må se ut som'],
    ['52.5;13.1', 'must look like', 'må se ut som'],
    ['GEO:52.;13.1', 'must look like', 'må se ut som'],
    ['GEO:+52.5;13.1', 'must look like', 'må se ut som'],
    ['GEO:1e1;13.1', 'must look like', 'må se ut som'],
    ['GEO: 52.5;13.1', 'must look like', 'må se ut som'],
  ])('refuses %j: %s', (value, en, nb) => {
    const reason = refusal(checkPsuGeoLocation(value));
    expect(reason.en).toContain(en);
    expect(reason.nb).toContain(nb);
  });
});

describe('checkPsuContext', () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];

  it('collects only the headers that are present, with camelCase keys', () => {
    const result = checkPsuContext(
      headers({ 'psu-ip-address': '192.168.8.78', 'psu-ip-port': '1234', 'psu-geo-location': 'GEO:52.5;13.1' }),
    );
    expect(result).toEqual({
      ok: true,
      value: { ipAddress: '192.168.8.78', ipPort: 1234, geoLocation: { latitude: 52.5, longitude: 13.1 } },
    });
    expect(result.ok && Object.keys(result.value)).toEqual(['ipAddress', 'ipPort', 'geoLocation']);
  });

  it('reads every PSU context header', () => {
    const result = checkPsuContext(
      headers({
        'psu-ip-address': '2001:db8::1',
        'psu-ip-port': '443',
        'psu-user-agent': 'Mozilla/5.0',
        'psu-accept': 'text/html',
        'psu-accept-charset': 'utf-8',
        'psu-accept-encoding': 'gzip',
        'psu-accept-language': 'nb-NO',
        'psu-http-method': 'POST',
        'psu-device-id': '99435c7e-ad88-49ec-a2ad-99ddcb1f5555',
        'psu-geo-location': 'GEO:59.9139;10.7522',
      }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        ipAddress: '2001:db8::1',
        ipPort: 443,
        userAgent: 'Mozilla/5.0',
        accept: 'text/html',
        acceptCharset: 'utf-8',
        acceptEncoding: 'gzip',
        acceptLanguage: 'nb-NO',
        httpMethod: 'POST',
        deviceId: '99435c7e-ad88-49ec-a2ad-99ddcb1f5555',
        geoLocation: { latitude: 59.9139, longitude: 10.7522 },
      },
    });
  });

  it.each([
    ['psu-ip-address', '300.1.1.1', 'PSU-IP-Address'],
    ['psu-ip-port', '0', 'PSU-IP-Port'],
    ['psu-user-agent', '', 'PSU-User-Agent'],
    ['psu-accept', 'a\u0001', 'PSU-Accept'],
    ['psu-accept-charset', '', 'PSU-Accept-Charset'],
    ['psu-accept-encoding', '', 'PSU-Accept-Encoding'],
    ['psu-accept-language', 'x'.repeat(513), 'PSU-Accept-Language'],
    ['psu-http-method', 'get', 'PSU-Http-Method'],
    ['psu-device-id', '', 'PSU-Device-ID'],
    ['psu-geo-location', 'GEO:91;0', 'PSU-Geo-Location'],
  ])('names the failing header when %s is %j', (name, value, header) => {
    const result = checkPsuContext(headers({ 'psu-ip-address': '192.168.8.78', [name]: value }));
    expect(result).toMatchObject({ ok: false, header });
  });
});
