/**
 * The countries and territories in the geographical scope of the SEPA payment schemes: a SEPA credit
 * transfer (SCT) can only reach an account held there. Source: European Payments Council, EPC409-09
 * "EPC List of countries and territories of the SEPA schemes", version 8.0 of 24 December 2025 (read
 * through secondary references: the EPC's PDF itself was not reachable from here). ISO 3166-1 alpha-2
 * codes, as the first two characters of an IBAN.
 *
 * Territories that the list places in the scope but that have no IBAN of their own bank with their
 * country's IBAN (the IBAN registry): Åland (AX) with FI; French Guiana (GF), Guadeloupe (GP),
 * Martinique (MQ), Réunion (RE), Mayotte (YT), Saint Barthélemy (BL), Saint Martin (MF) and
 * Saint-Pierre-et-Miquelon (PM) with FR; Guernsey (GG), Jersey (JE) and the Isle of Man (IM) with GB.
 * Their own codes are listed too, so the list names every country and territory of the scope. The
 * converse cannot be seen from an IBAN: French Polynesia, New Caledonia and Wallis and Futuna are
 * outside the scope but also bank with FR IBANs, so such an account is not refused here.
 */
const SEPA_SCHEME_COUNTRIES: ReadonlySet<string> = new Set(
  [
    // EU member states.
    'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK',
    // The other EEA states.
    'IS LI NO',
    // Outside the EEA: Andorra, Switzerland, the United Kingdom, Monaco, San Marino, the Vatican City State.
    'AD CH GB MC SM VA',
    // Admitted in 2024–2025: Albania and Montenegro (November 2024), Moldova and North Macedonia (2025), and
    // Serbia (May 2025, its banks adhering from May 2026).
    'AL ME MD MK RS',
    // Gibraltar: the list's IBAN table gives it its own IBAN code, GI, though its lists of countries do not
    // name it (before 2021 it was in the scope as part of the EU, with the United Kingdom). Kept in on the
    // strength of the IBAN table; not confirmed otherwise.
    'GI',
    // Territories banking with their country's IBAN (see above).
    'AX GF GP MQ RE YT BL MF PM GG JE IM',
  ]
    .join(' ')
    .split(' '),
);

/** Every code in the scope, sorted. */
export const SEPA_SCHEME_COUNTRY_CODES: readonly string[] = [...SEPA_SCHEME_COUNTRIES].sort();

/** Whether an ISO 3166 country code (an IBAN's first two characters) is in the SEPA schemes' scope. */
export function isSepaSchemeCountry(code: string): boolean {
  return SEPA_SCHEME_COUNTRIES.has(code);
}
