/**
 * A text in each language the service speaks. Error messages and the PSU's pages are offered in
 * English and Norwegian Bokmål; the request's Accept-Language picks one (docs/design.md §2).
 */
export interface Localized {
  readonly en: string;
  readonly nb: string;
}

export const LANGUAGES = ['en', 'nb'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Builds a {@link Localized} text; `nb` falls back to `en` for texts not yet translated. */
export function localized(en: string, nb: string = en): Localized {
  return { en, nb };
}

/** The outcome of a pure check: the parsed value, or why the input was refused. */
export type Check<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: Localized };

export function pass<T>(value: T): Check<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: Localized): Check<T> {
  return { ok: false, reason };
}
