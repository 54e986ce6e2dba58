import { isIP } from 'node:net';
import { fail, localized, pass, type Check, type Localized } from '../../domain/localized.js';

export const PSU_HTTP_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const;
export type PsuHttpMethod = (typeof PSU_HTTP_METHODS)[number];

export interface PsuGeoLocation {
  readonly latitude: number;
  readonly longitude: number;
}

/** What the TPP forwards about the PSU's own connection; only the headers that were sent. */
export interface PsuContext {
  readonly ipAddress?: string;
  readonly ipPort?: number;
  readonly userAgent?: string;
  readonly accept?: string;
  readonly acceptCharset?: string;
  readonly acceptEncoding?: string;
  readonly acceptLanguage?: string;
  readonly httpMethod?: PsuHttpMethod;
  readonly deviceId?: string;
  readonly geoLocation?: PsuGeoLocation;
}

function refuse(en: string, nb: string): Check<never> {
  return fail(localized(en, nb));
}

/** PSU-IP-Address: IPv4 or IPv6 (BG says ipv4, but PSUs on IPv6-only mobile networks exist). */
export function checkPsuIpAddress(value: string): Check<string> {
  if (isIP(value) !== 0) return pass(value);
  return refuse(
    'must be an IPv4 address such as 192.168.8.78 or an IPv6 address such as 2001:db8::1 (without brackets)',
    'må være en IPv4-adresse som 192.168.8.78 eller en IPv6-adresse som 2001:db8::1 (uten klammer)',
  );
}

/** PSU-IP-Port: digits only (no sign, no spaces), 1 to 65535. */
export function checkPsuIpPort(value: string): Check<number> {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    return refuse('must be a port number from 1 to 65535, digits only', 'må være et portnummer fra 1 til 65535, bare sifre');
  }
  return pass(Number(value));
}

/**
 * The forwarded PSU-User-Agent and PSU-Accept* headers: 1 to 512 printable characters. Bytes
 * 0x80–0xFF are allowed because Node hands over UTF-8 header bytes as latin1 characters.
 */
export function checkPsuHeaderText(value: string): Check<string> {
  if (value.length === 0) return refuse('must not be empty', 'kan ikke være tom');
  if (value.length > 512) {
    return refuse(`must be at most 512 characters, got ${value.length}`, `kan ha høyst 512 tegn, men har ${value.length}`);
  }
  const bad = value.search(/[^\x20-\x7e\x80-\xff]/);
  if (bad >= 0) {
    return refuse(`character ${bad + 1} is a control character`, `tegn nr. ${bad + 1} er et kontrolltegn`);
  }
  return pass(value);
}

/** PSU-Http-Method: one of the five BG methods, in upper case as BG lists them. */
export function checkPsuHttpMethod(value: string): Check<PsuHttpMethod> {
  const method = PSU_HTTP_METHODS.find((known) => known === value);
  if (method !== undefined) return pass(method);
  const known = PSU_HTTP_METHODS.join(', ');
  return refuse(`must be one of ${known} (upper case)`, `må være en av ${known} (store bokstaver)`);
}

/** PSU-Device-ID: 1 to 255 printable ASCII characters; BG suggests a UUID but apps send other ids. */
export function checkPsuDeviceId(value: string): Check<string> {
  if (value.length === 0) return refuse('must not be empty', 'kan ikke være tom');
  if (value.length > 255) {
    return refuse(`must be at most 255 characters, got ${value.length}`, `kan ha høyst 255 tegn, men har ${value.length}`);
  }
  const bad = value.search(/[^\x20-\x7e]/);
  if (bad >= 0) {
    return refuse(`character ${bad + 1} is a control character or not ASCII`, `tegn nr. ${bad + 1} er et kontrolltegn eller ikke ASCII`);
  }
  return pass(value);
}

const GEO = /^GEO:(-?[0-9]{1,3}(?:\.[0-9]+)?);(-?[0-9]{1,3}(?:\.[0-9]+)?)$/;

/** PSU-Geo-Location: `GEO:lat;lon`; any number of decimals, where BG's pattern wants exactly six. */
export function checkPsuGeoLocation(value: string): Check<PsuGeoLocation> {
  const match = GEO.exec(value);
  if (!match) {
    return refuse(
      'must look like GEO:52.506931;13.144558 (GEO:latitude;longitude in decimal degrees)',
      'må se ut som GEO:52.506931;13.144558 (GEO:breddegrad;lengdegrad i desimalgrader)',
    );
  }
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90) {
    return refuse(`the latitude ${match[1]} is outside −90..90`, `breddegraden ${match[1]} er utenfor −90..90`);
  }
  if (Math.abs(longitude) > 180) {
    return refuse(`the longitude ${match[2]} is outside −180..180`, `lengdegraden ${match[2]} er utenfor −180..180`);
  }
  return pass({ latitude, longitude });
}

type Field = {
  [K in keyof PsuContext]-?: {
    readonly header: string;
    readonly key: K;
    readonly check: (value: string) => Check<NonNullable<PsuContext[K]>>;
  };
}[keyof PsuContext];

/** The PSU context headers in the order they are checked, with their canonical names. */
export const PSU_CONTEXT_HEADERS: readonly Field[] = [
  { header: 'PSU-IP-Address', key: 'ipAddress', check: checkPsuIpAddress },
  { header: 'PSU-IP-Port', key: 'ipPort', check: checkPsuIpPort },
  { header: 'PSU-User-Agent', key: 'userAgent', check: checkPsuHeaderText },
  { header: 'PSU-Accept', key: 'accept', check: checkPsuHeaderText },
  { header: 'PSU-Accept-Charset', key: 'acceptCharset', check: checkPsuHeaderText },
  { header: 'PSU-Accept-Encoding', key: 'acceptEncoding', check: checkPsuHeaderText },
  { header: 'PSU-Accept-Language', key: 'acceptLanguage', check: checkPsuHeaderText },
  { header: 'PSU-Http-Method', key: 'httpMethod', check: checkPsuHttpMethod },
  { header: 'PSU-Device-ID', key: 'deviceId', check: checkPsuDeviceId },
  { header: 'PSU-Geo-Location', key: 'geoLocation', check: checkPsuGeoLocation },
];

/** Collects the PSU context headers that are present; on failure names the header. */
export function checkPsuContext(
  header: (lowerCaseName: string) => string | undefined,
): { ok: true; value: PsuContext } | { ok: false; header: string; reason: Localized } {
  const context: Record<string, unknown> = {};
  for (const field of PSU_CONTEXT_HEADERS) {
    const raw = header(field.header.toLowerCase());
    if (raw === undefined) continue;
    const result = field.check(raw);
    if (!result.ok) return { ok: false, header: field.header, reason: result.reason };
    context[field.key] = result.value;
  }
  return { ok: true, value: context };
}
