import { checkCurrencyCode, minorUnits } from './currencies.js';
import type { IsoDate } from './iso-date.js';
import { fail, localized, pass, type Check, type Localized } from './localized.js';
import type { Money } from './money.js';

/**
 * The Norwegian currency register (Valutaregisteret, norway-domain.md §5): a bank reports every
 * cross-border transfer, and from NOK 100 000 (or the equivalent in another currency) the payer
 * must also give a payment-type code (regulatoryReportingCode) and a short text on what the
 * payment is for.
 */

/** A payment-type code ("kode for betalingsart") of the currency register. */
export interface RegulatoryReportingCode {
  readonly code: string;
  /** nb: Skatteetaten's name; en: a gloss of what the code covers. */
  readonly name: Localized;
}

/** Skatteetaten's payment-type codes ("Koder for betalingsart", norway-domain.md §5.2), in code order. */
export const REGULATORY_REPORTING_CODES: readonly RegulatoryReportingCode[] = [
  { code: '14', name: localized('Purchase/sale of goods', 'Kjøp/salg av varer') },
  { code: '26', name: localized('Rent and lease, including licence fees and royalties', 'Leie') },
  { code: '29', name: localized('Other purchase/sale of services', 'Annet kjøp/salg av tjenester') },
  { code: '31', name: localized('Interest', 'Renter') },
  { code: '35', name: localized('Dividends', 'Utbytte') },
  { code: '38', name: localized('Other return on capital', 'Annen kapitalavkastning') },
  {
    code: '41',
    name: localized(
      'Purchase/sale of real estate and capitalised rights abroad',
      'Kjøp/salg av fast eiendom og aktiverte rettigheter i utlandet',
    ),
  },
  { code: '43', name: localized('Direct investment in shares and equity', 'Direkteinvesteringer i aksjer mm') },
  { code: '45', name: localized('Direct investment in other capital', 'Direkteinvesteringer i annen kapital') },
  {
    code: '51',
    name: localized('Portfolio investment in shares and fund units', 'Porteføljeinvestering i aksjer og verdipapirfondsandeler'),
  },
  { code: '52', name: localized('Portfolio investment in bonds and notes', 'Porteføljeinvesteringer i obligasjoner og sertifikater') },
  { code: '53', name: localized('Portfolio investment in derivatives', 'Porteføljeinvesteringer i derivater') },
  { code: '71', name: localized('Life insurance and pensions', 'Livsforsikring/pensjon') },
  { code: '79', name: localized('Other financial investments', 'Andre finansinvesteringer') },
  { code: '81', name: localized('Salary', 'Lønn') },
  { code: '82', name: localized('Inheritance, gifts and the like', 'Arv, gave, med mer') },
].map((entry) => Object.freeze({ code: entry.code, name: Object.freeze(entry.name) }));

const CODES: ReadonlySet<string> = new Set(REGULATORY_REPORTING_CODES.map((entry) => entry.code));

/** Whether a regulatoryReportingCode is one of the register's payment-type codes (exact, two digits). */
export function isRegulatoryReportingCode(code: string): boolean {
  return CODES.has(code);
}

/**
 * The amount, in whole kroner, from which the code and text are required. Sources differ between
 * "over" and "or more" (norway-domain.md §5.1); requiring them at exactly NOK 100 000.00 is the
 * safe superset.
 */
export const REGULATORY_REPORTING_THRESHOLD_NOK = 100_000n;

/** Exchange rates to NOK: how many kroner one unit of each currency (ISO 4217 code) costs, as a decimal string. */
export interface NokRates {
  /** The date the rates are for. */
  readonly asOf: IsoDate;
  readonly rates: ReadonlyMap<string, string>;
}

/**
 * Indicative sandbox rates, NOK per 1 unit (not per 100, as Norges Bank quotes JPY, SEK and
 * others). They are round figures near the level of early 2026, NOT market data: good enough to
 * decide whether a sandbox payment crosses NOK 100 000. A deployment that needs real rates
 * configures its own table (parsed with {@link parseNokRates}).
 */
export const DEFAULT_NOK_RATES: NokRates = Object.freeze({
  asOf: '2026-01-02',
  rates: new Map([
    ['NOK', '1'],
    ['EUR', '11.7250'],
    ['USD', '10.1000'],
    ['GBP', '13.5500'],
    ['SEK', '1.0700'],
    ['DKK', '1.5700'],
    ['CHF', '12.6000'],
    ['JPY', '0.0680'],
    ['PLN', '2.7700'],
    ['ISK', '0.0810'],
    ['CAD', '7.3000'],
    ['AUD', '6.7000'],
  ]),
});

const RATE = /^([0-9]+)(?:\.([0-9]{1,6}))?$/;

/**
 * Parses a rate table from configuration text such as `EUR=11.725,SEK=0.98`: comma-separated
 * CODE=RATE entries (spaces around an entry are ignored), each code an active ISO 4217 currency
 * given once, each rate a positive decimal with at most 6 decimals. NOK=1 is always included.
 */
export function parseNokRates(text: string, asOf: IsoDate): Check<NokRates> {
  const rates = new Map<string, string>([['NOK', '1']]);
  const given = new Set<string>();
  const entries = text.trim() === '' ? [] : text.split(',');
  for (const [index, raw] of entries.entries()) {
    const entry = raw.trim();
    const name = localized(`entry ${index + 1} ("${entry}")`, `oppføring ${index + 1} ("${entry}")`);
    const equals = entry.indexOf('=');
    if (equals < 0) {
      return fail(localized(`${name.en} must be CODE=RATE, like EUR=11.725`, `${name.nb} må være KODE=KURS, som EUR=11.725`));
    }
    const code = entry.slice(0, equals).trim();
    const rate = entry.slice(equals + 1).trim();
    const currency = checkCurrencyCode(code);
    if (!currency.ok) {
      return fail(localized(`${name.en}: the currency ${currency.reason.en}`, `${name.nb}: valutaen ${currency.reason.nb}`));
    }
    if (given.has(code)) {
      return fail(localized(`${name.en}: ${code} is given more than once`, `${name.nb}: ${code} er oppgitt mer enn én gang`));
    }
    given.add(code);
    if (!RATE.test(rate) || !/[1-9]/.test(rate)) {
      return fail(
        localized(
          `${name.en}: the rate must be a positive decimal number with a dot and at most 6 decimals, like 11.725, got "${rate}"`,
          `${name.nb}: kursen må være et positivt desimaltall med punktum og høyst 6 desimaler, som 11.725, men er "${rate}"`,
        ),
      );
    }
    if (code === 'NOK') {
      const { scaled, decimals } = rateFraction(rate);
      if (scaled !== 10n ** BigInt(decimals)) {
        return fail(
          localized(`${name.en}: the rate of NOK is always 1, got "${rate}"`, `${name.nb}: kursen for NOK er alltid 1, men er "${rate}"`),
        );
      }
      continue;
    }
    rates.set(code, rate);
  }
  return pass({ asOf, rates });
}

/** A checked decimal rate as an integer and its number of decimals: "11.725" is 11725 and 3. */
function rateFraction(rate: string): { scaled: bigint; decimals: number } {
  const [, integer = '0', fraction = ''] = RATE.exec(rate) ?? [];
  return { scaled: BigInt(integer + fraction), decimals: fraction.length };
}

/** Divides rounding half away from zero ("half up" for the positive amounts of payments). */
function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

/**
 * The NOK value of an amount in øre, converted exactly with integers and rounded half up once at
 * the end. NOK itself is always at rate 1. Undefined when the table has no (valid) rate for the
 * currency or the currency is unknown.
 */
export function nokEquivalentMinor(amount: Money, rates: NokRates): bigint | undefined {
  if (amount.currency === 'NOK') return amount.minor;
  const rate = rates.rates.get(amount.currency);
  const digits = minorUnits(amount.currency);
  if (rate === undefined || digits === undefined || !RATE.test(rate)) return undefined;
  const { scaled, decimals } = rateFraction(rate);
  // minor / 10^digits units × scaled / 10^decimals NOK per unit × 100 øre per NOK.
  return divideRoundingHalfUp(amount.minor * scaled * 100n, 10n ** BigInt(digits + decimals));
}

/**
 * Whether the payer must give a regulatoryReportingCode and text: the amount is worth NOK 100 000.00
 * or more (its size counts, whatever its sign). Undefined when no rate is known; the caller decides.
 */
export function requiresRegulatoryReporting(amount: Money, rates: NokRates): boolean | undefined {
  const nok = nokEquivalentMinor(amount, rates);
  if (nok === undefined) return undefined;
  return (nok < 0n ? -nok : nok) >= REGULATORY_REPORTING_THRESHOLD_NOK * 100n;
}

/**
 * An amount in another currency's minor units, through NOK with the same table (the sandbox
 * debits a NOK account for a payment in USD, say). Undefined without a rate for either currency.
 */
export function convertMinor(amount: Money, to: string, rates: NokRates): bigint | undefined {
  if (amount.currency === to) return amount.minor;
  const nok = nokEquivalentMinor(amount, rates);
  if (nok === undefined) return undefined;
  if (to === 'NOK') return nok;
  const rate = rates.rates.get(to);
  const digits = minorUnits(to);
  if (rate === undefined || digits === undefined || !RATE.test(rate)) return undefined;
  const { scaled, decimals } = rateFraction(rate);
  // nok øre / 100 NOK ÷ (scaled / 10^decimals NOK per unit) × 10^digits minor per unit.
  return divideRoundingHalfUp(nok * 10n ** BigInt(decimals + digits), scaled * 100n);
}
