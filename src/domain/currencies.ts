import { fail, localized, pass, type Check } from './localized.js';

/**
 * The edition of ISO 4217 list one (SIX, the maintenance agency) the table below reflects:
 * published 2026-01-01 (after amendment 180). Compared with older copies found in npm packages it
 * has XCG (Caribbean guilder, replaced ANG on 2025-03-31), ZWG (replaced ZWL), SLE without SLL,
 * XAD (Arab Accounting Dinar, amendment 179) and no BGN (Bulgaria adopted the euro on 2026-01-01).
 * Update the table and this date together when SIX publishes a new list.
 */
export const ISO_4217_PUBLISHED = '2026-01-01';

/** Space-separated codes, so the table stays a compact block. */
function codes(...lines: string[]): string[] {
  return lines.join(' ').split(' ');
}

/**
 * Active codes by their minor units (CcyMnrUnts). Funds codes (BOV, CHE, CHW, CLF, COU, MXV, USN,
 * UYI, UYW, XAD) are included: list one gives them a real minor unit, so an amount in them can be
 * checked. Codes whose minor unit list one gives as "N.A." are left out on purpose: the precious
 * metals XAU, XAG, XPD, XPT, the bond-market units XBA–XBD, XDR, XSU, XUA, and XTS/XXX. An amount
 * in them has no defined number of decimals, and none of them is something a PSU pays with.
 * Node's Intl is no substitute: its CLDR fraction digits differ from ISO for some 29 codes
 * (norway-domain.md §6.2).
 */
const CODES_BY_MINOR_UNITS: Readonly<Record<0 | 2 | 3 | 4, readonly string[]>> = {
  0: codes('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'),
  2: codes(
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF',
    'CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD',
    'GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL',
    'MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR',
    'PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP',
    'TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XAD XCD XCG YER ZAR ZMW ZWG',
  ),
  3: codes('BHD IQD JOD KWD LYD OMR TND'),
  4: codes('CLF UYW'),
};

const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_MINOR_UNITS).flatMap(([digits, list]) => list.map((code): [string, number] => [code, Number(digits)])),
);

/** Every code of the table, sorted. */
export const CURRENCY_CODES: readonly string[] = [...MINOR_UNITS.keys()].sort();

/** List-one codes without a minor unit: known to ISO 4217, yet no amount can be written in them. */
const WITHOUT_MINOR_UNIT = new Set(['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX']);

/** Codes withdrawn recently enough that a TPP may still send them, with what replaced them. */
const REPLACED: ReadonlyMap<string, string> = new Map([
  ['ANG', 'XCG'],
  ['BGN', 'EUR'],
  ['HRK', 'EUR'],
  ['SLL', 'SLE'],
  ['ZWL', 'ZWG'],
]);

export function isCurrencyCode(code: string): boolean {
  return MINOR_UNITS.has(code);
}

/** The currency's number of decimals (ISO 4217 minor units); undefined for a code not in the table. */
export function minorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

/** Checks a currency code, saying why a near miss (lower case, withdrawn, no minor unit) is refused. */
export function checkCurrencyCode(code: string): Check<string> {
  if (isCurrencyCode(code)) return pass(code);
  if (isCurrencyCode(code.toUpperCase())) {
    return fail(
      localized(`must be written in capital letters (${code.toUpperCase()})`, `må skrives med store bokstaver (${code.toUpperCase()})`),
    );
  }
  if (!/^[A-Z]{3}$/.test(code)) {
    return fail(
      localized(`must be three capital letters (ISO 4217), got "${code}"`, `må være tre store bokstaver (ISO 4217), men er "${code}"`),
    );
  }
  const replacement = REPLACED.get(code);
  if (replacement !== undefined) {
    return fail(
      localized(
        `${code} has been withdrawn from ISO 4217 and replaced by ${replacement}`,
        `${code} er trukket tilbake fra ISO 4217 og erstattet av ${replacement}`,
      ),
    );
  }
  if (WITHOUT_MINOR_UNIT.has(code)) {
    return fail(
      localized(
        `${code} has no minor unit in ISO 4217 (metals, bond-market units, SDR, test codes) and cannot be used for amounts`,
        `${code} har ingen minsteenhet i ISO 4217 (metaller, obligasjonsenheter, SDR, testkoder) og kan ikke brukes for beløp`,
      ),
    );
  }
  return fail(localized(`${code} is not an active ISO 4217 currency code`, `${code} er ikke en gjeldende ISO 4217-valutakode`));
}

/**
 * Whether an account reference (Berlin Group accountReference) with this `currency` names an
 * account held in `accountCurrency`: a reference without a currency names the account whatever
 * its currency; one with a currency names only the account (or sub-account) in that currency.
 */
export function referenceNamesCurrency(referenceCurrency: string | undefined, accountCurrency: string): boolean {
  return referenceCurrency === undefined || referenceCurrency === accountCurrency;
}
