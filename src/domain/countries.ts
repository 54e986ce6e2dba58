import { fail, localized, pass, type Check } from './localized.js';

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes, plus XK. XK (Kosovo) is a user-assigned
 * code, not an official one, but the European Commission, SWIFT (BICs such as …XK…) and the IBAN
 * registry (XK IBANs) all use it, so a payment to Kosovo must not be refused for its country.
 * Exceptionally or transitionally reserved codes (UK, EU, EL, AN, …) are left out: a TPP that sends
 * them means GB, GR and so on, and is told so by {@link checkCountryCode}.
 */
const CODES: ReadonlySet<string> = new Set(
  [
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ',
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR',
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP',
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT',
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW',
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG',
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW',
    // User-assigned, see above.
    'XK',
  ]
    .join(' ')
    .split(' '),
);

/** Every accepted code, sorted. */
export const COUNTRY_CODES: readonly string[] = [...CODES].sort();

/** Reserved codes a sender may mistake for country codes, with the code that is meant. */
const MEANT: ReadonlyMap<string, string> = new Map([
  ['UK', 'GB'],
  ['EL', 'GR'],
]);

export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

/** Checks an ISO 3166-1 alpha-2 code, saying why a near miss (lower case, UK, EU) is refused. */
export function checkCountryCode(code: string): Check<string> {
  if (isCountryCode(code)) return pass(code);
  if (isCountryCode(code.toUpperCase())) {
    return fail(
      localized(`must be written in capital letters (${code.toUpperCase()})`, `må skrives med store bokstaver (${code.toUpperCase()})`),
    );
  }
  if (!/^[A-Z]{2}$/.test(code)) {
    return fail(
      localized(
        `must be two capital letters (ISO 3166-1 alpha-2), got "${code}"`,
        `må være to store bokstaver (ISO 3166-1 alfa-2), men er "${code}"`,
      ),
    );
  }
  const meant = MEANT.get(code);
  if (meant !== undefined) {
    return fail(
      localized(
        `${code} is not an ISO 3166 country code; the code for that country is ${meant}`,
        `${code} er ikke en ISO 3166-landkode; landet har koden ${meant}`,
      ),
    );
  }
  if (code === 'EU') {
    return fail(localized('EU is not a country; give the member state', 'EU er ikke et land; oppgi medlemslandet'));
  }
  return fail(localized(`${code} is not an ISO 3166 country code`, `${code} er ikke en ISO 3166-landkode`));
}
