import { checkCurrencyCode, minorUnits } from './currencies.js';
import { fail, localized, pass, type Check } from './localized.js';

/**
 * An exact amount: integer minor units (øre for NOK) of an ISO 4217 currency. A bigint, never a
 * floating-point number: 0.1 + 0.2 is not 0.3 in binary, and a payment must not lose an øre.
 */
export interface Money {
  readonly minor: bigint;
  readonly currency: string;
}

/** The Berlin Group amountValue pattern (docs/design.md §2): at most 14 integer digits and 3 decimals. */
const AMOUNT = /^(-?)([0-9]{1,14})(?:\.([0-9]{1,3}))?$/;

function tooManyDecimals(currency: string, digits: number, count: number): Check<never> {
  return fail(
    digits === 0
      ? localized(
          `${currency} has no decimals (ISO 4217), got ${count}`,
          `${currency} har ingen desimaler (ISO 4217), men beløpet har ${count}`,
        )
      : localized(
          `${currency} has at most ${digits} decimals (ISO 4217), got ${count}`,
          `${currency} har høyst ${digits} desimaler (ISO 4217), men beløpet har ${count}`,
        ),
  );
}

/** Why a text is not an amount, naming the first thing a TPP is likely to have got wrong. */
function formatProblem(text: string, currency: string, digits: number): Check<never> {
  if (text === '') return fail(localized('is empty', 'er tom'));
  if (text.includes(',')) {
    return fail(
      localized(`uses a comma; the decimal separator is a dot, got "${text}"`, `bruker komma; desimaltegnet er punktum, men er "${text}"`),
    );
  }
  if (/^-?[0-9]*\.?[0-9]*[eE][-+]?[0-9]+$/.test(text)) {
    return fail(
      localized(
        `must be written out in digits, not in exponent notation, got "${text}"`,
        `må skrives med sifre, ikke med eksponent, men er "${text}"`,
      ),
    );
  }
  if (/\s/.test(text)) {
    return fail(localized(`must not contain spaces, got "${text}"`, `kan ikke inneholde mellomrom, men er "${text}"`));
  }
  const integer = /^-?([0-9]+)(?:\.[0-9]+)?$/.exec(text)?.[1];
  if (integer !== undefined && integer.length > 14) {
    return fail(
      localized(
        `has ${integer.length} digits before the decimal point, at most 14 are allowed`,
        `har ${integer.length} sifre før desimaltegnet, høyst 14 er tillatt`,
      ),
    );
  }
  const decimals = /^-?[0-9]+\.([0-9]+)$/.exec(text)?.[1];
  if (decimals !== undefined && decimals.length > 3) {
    // CLF and UYW have 4 minor units, but the wire pattern stops at 3.
    return digits < decimals.length
      ? tooManyDecimals(currency, digits, decimals.length)
      : fail(localized(`has ${decimals.length} decimals, at most 3 are allowed`, `har ${decimals.length} desimaler, høyst 3 er tillatt`));
  }
  return fail(
    localized(
      `must be digits with an optional leading minus and a dot before the decimals, like 1056 or -5768.20, got "${text}"`,
      `må være sifre med valgfritt minustegn foran og punktum før desimalene, som 1056 eller -5768.20, men er "${text}"`,
    ),
  );
}

/**
 * Parses an amount string (the JSON wire form, docs/design.md §2) in a currency: it must match the Berlin
 * Group pattern and have no more decimals than the currency's minor units, so JPY takes no
 * fraction at all, not even "100.0". Leading zeros ("01.00") match the pattern and are accepted.
 */
export function parseAmount(text: string, currency: string): Check<Money> {
  const code = checkCurrencyCode(currency);
  if (!code.ok) return code;
  // The table holds every code checkCurrencyCode accepts.
  const digits = minorUnits(currency) ?? 0;
  const match = AMOUNT.exec(text);
  if (match === null) return formatProblem(text, currency, digits);
  const [, sign = '', integer = '', fraction = ''] = match;
  if (fraction.length > digits) return tooManyDecimals(currency, digits, fraction.length);
  const magnitude = BigInt(integer + fraction.padEnd(digits, '0'));
  return pass({ minor: sign === '-' ? -magnitude : magnitude, currency });
}

/** Parses a payment amount, which must also be greater than zero (norway-domain.md §6.1). */
export function checkPositiveAmount(text: string, currency: string): Check<Money> {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok || isPositive(parsed.value)) return parsed;
  return fail(localized(`must be greater than zero, got ${text}`, `må være større enn null, men er ${text}`));
}

function digitsOf(currency: string): number {
  const digits = minorUnits(currency);
  if (digits === undefined) throw new Error(`Unknown currency ${currency}`);
  return digits;
}

/** The canonical wire form: exactly the currency's minor units, no leading zeros ("100.30" NOK). */
export function formatAmount(money: Money): string {
  const digits = digitsOf(money.currency);
  const negative = money.minor < 0n;
  const text = (negative ? -money.minor : money.minor).toString().padStart(digits + 1, '0');
  const integer = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${integer}${digits > 0 ? `.${fraction}` : ''}`;
}

/** Mixing currencies is a programming error, not bad input: input is checked before arithmetic. */
function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new Error(`Currency mismatch: ${a.currency} and ${b.currency}`);
}

export function addMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return { minor: a.minor + b.minor, currency: a.currency };
}

export function negate(money: Money): Money {
  return { minor: -money.minor, currency: money.currency };
}

/** -1, 0 or 1 as a is less than, equal to or greater than b, for Array.prototype.sort. */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  return a.minor < b.minor ? -1 : a.minor > b.minor ? 1 : 0;
}

export function isPositive(money: Money): boolean {
  return money.minor > 0n;
}
