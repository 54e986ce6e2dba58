import Negotiator from 'negotiator';
import type { Language } from '../domain/localized.js';

/**
 * Accept / Accept-Language handling (docs/design.md §2). The API speaks JSON only; error texts and the
 * PSU's pages come in English or Bokmål. Norwegian in any written form (`no`, `nb`, `nn`) gets
 * Bokmål, anything else English.
 */
const NORWEGIAN_TAGS = ['nb', 'no', 'nn'];
const OFFERED_LANGUAGES = ['en', ...NORWEGIAN_TAGS];

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8'];

export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') {
    return true;
  }
  // Offered with and without the charset parameter: Java and .NET clients send
  // `application/json; charset=utf-8`, and Negotiator matches parameters exactly.
  return new Negotiator({ headers: { accept } }).mediaType(JSON_TYPES) !== undefined;
}

export function pickLanguage(acceptLanguage: string | undefined): Language {
  if (acceptLanguage === undefined || acceptLanguage === '') {
    return 'en';
  }
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(OFFERED_LANGUAGES);
  return best !== undefined && NORWEGIAN_TAGS.includes(best) ? 'nb' : 'en';
}
