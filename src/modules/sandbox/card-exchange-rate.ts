import { minorUnits } from '../../domain/currencies.js';
import type { Money } from '../../domain/money.js';

/** Decimals of a derived exchange rate: what card statements print. */
const RATE_DECIMALS = 6;

/**
 * The rate a card purchase in a foreign currency was converted at: card-currency units per unit of
 * the original currency, as decimal text without trailing zeros ("11.7", "0.954321"). Derived from
 * the two amounts when the card network gave no rate; undefined when either amount is zero.
 */
export function exchangeRateOf(amount: Money, original: Money): string | undefined {
  const cardMinor = amount.minor < 0n ? -amount.minor : amount.minor;
  const originalMinor = original.minor < 0n ? -original.minor : original.minor;
  if (cardMinor === 0n || originalMinor === 0n) return undefined;
  const cardDigits = BigInt(minorUnits(amount.currency) ?? 2);
  const originalDigits = BigInt(minorUnits(original.currency) ?? 2);
  const scale = 10n ** BigInt(RATE_DECIMALS);
  const numerator = cardMinor * 10n ** originalDigits * scale;
  const denominator = originalMinor * 10n ** cardDigits;
  const scaled = (numerator + denominator / 2n) / denominator;
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(RATE_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
