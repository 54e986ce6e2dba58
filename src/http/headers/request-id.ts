import { fail, localized, pass, type Check } from '../../domain/localized.js';

// Any UUID version: TPPs generate X-Request-ID with whatever library they have (BG says "UUID").
const SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';
const EXAMPLE = '99391c7e-ad88-49ec-a2ad-99ddcb1f7721';

/** Checks an X-Request-ID value: a UUID of any version, in either case, returned as sent. */
export function checkRequestId(value: string): Check<string> {
  if (value.length !== SHAPE.length) {
    return fail(
      localized(
        `must be a UUID of 36 characters (8-4-4-4-12 hexadecimal digits, e.g. ${EXAMPLE}), got ${value.length}`,
        `må være en UUID på 36 tegn (8-4-4-4-12 heksadesimale sifre, f.eks. ${EXAMPLE}), men har ${value.length}`,
      ),
    );
  }
  const bad = [...SHAPE].findIndex((shape, i) => !(shape === '-' ? value[i] === '-' : /[0-9a-f]/i.test(value[i] ?? '')));
  if (bad < 0) return pass(value);
  const expected =
    SHAPE[bad] === '-' ? localized('a hyphen', 'en bindestrek') : localized('a hexadecimal digit', 'et heksadesimalt siffer');
  return fail(
    localized(
      `must be a UUID (8-4-4-4-12 hexadecimal digits, e.g. ${EXAMPLE}), but character ${bad + 1} is not ${expected.en}`,
      `må være en UUID (8-4-4-4-12 heksadesimale sifre, f.eks. ${EXAMPLE}), men tegn nr. ${bad + 1} er ikke ${expected.nb}`,
    ),
  );
}
