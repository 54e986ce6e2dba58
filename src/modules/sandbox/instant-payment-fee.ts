import { localized, type Localized } from '../../domain/localized.js';
import { formatAmount, parseAmount, type Money } from '../../domain/money.js';

/**
 * The sandbox bank's price list for instant (Straks) payments (docs/design.md §2b): tiers by the
 * payment's amount in NOK, each from its `fromAmount` up to the next tier's, with the fee a debtor
 * pays. A TPP sets its own sandbox's list through the mock-data API; until it does, or after an
 * initialize, the default list below applies. Pure.
 */
export interface InstantPaymentFeeTier {
  /** The smallest amount (NOK) the tier prices; the first tier starts at 0. */
  readonly from: Money;
  /** The fee (NOK) for an amount from `from` up to the next tier's `from`. */
  readonly fee: Money;
}

/** At most this many tiers: a price list, not a table of every amount. */
export const MAX_FEE_TIERS = 20;

const nok = (minor: bigint): Money => ({ minor, currency: 'NOK' });

/**
 * What a new sandbox charges: NOK 5 for a Straks payment below NOK 100 000, NOK 10 from there,
 * the order of magnitude Norwegian banks' price lists show for an instant payment to another bank.
 */
export const DEFAULT_INSTANT_PAYMENT_FEES: readonly InstantPaymentFeeTier[] = [
  { from: nok(0n), fee: nok(500n) },
  { from: nok(10_000_000n), fee: nok(1000n) },
];

/** The fee of the highest tier that starts at or below `amount` (NOK øre, positive). */
export function instantPaymentFeeOf(tiers: readonly InstantPaymentFeeTier[], amountNokMinor: bigint): Money {
  let fee = tiers[0]?.fee ?? nok(0n);
  for (const tier of tiers) {
    if (tier.from.minor <= amountNokMinor) fee = tier.fee;
  }
  return fee;
}

/** A tier as the mock-data API and the stored table write it. */
export interface InstantPaymentFeeTierText {
  readonly fromAmount: string;
  readonly fee: string;
}

export function tierTexts(tiers: readonly InstantPaymentFeeTier[]): InstantPaymentFeeTierText[] {
  return tiers.map((tier) => ({ fromAmount: formatAmount(tier.from), fee: formatAmount(tier.fee) }));
}

/**
 * Reads a price list sent or stored as text: NOK amounts, the first tier from 0, each later one
 * from more than the one before, no fee negative. A problem is answered with the field's path
 * (`tiers[1].fromAmount`) and the reason.
 */
export function readInstantPaymentFees(
  texts: readonly InstantPaymentFeeTierText[],
): { ok: true; tiers: InstantPaymentFeeTier[] } | { ok: false; path: string; reason: Localized } {
  const tiers: InstantPaymentFeeTier[] = [];
  for (const [index, text] of texts.entries()) {
    const path = `tiers[${index}]`;
    const from = parseAmount(text.fromAmount, 'NOK');
    if (!from.ok) return { ok: false, path: `${path}.fromAmount`, reason: from.reason };
    const fee = parseAmount(text.fee, 'NOK');
    if (!fee.ok) return { ok: false, path: `${path}.fee`, reason: fee.reason };
    if (fee.value.minor < 0n) {
      return { ok: false, path: `${path}.fee`, reason: localized('must not be negative', 'kan ikke være negativt') };
    }
    const previous = tiers.at(-1);
    if (previous === undefined && from.value.minor !== 0n) {
      return {
        ok: false,
        path: `${path}.fromAmount`,
        reason: localized(
          'must be 0: the first tier prices every amount up to the next',
          'må være 0: første trinn priser alle beløp opp til neste',
        ),
      };
    }
    if (previous !== undefined && from.value.minor <= previous.from.minor) {
      return {
        ok: false,
        path: `${path}.fromAmount`,
        reason: localized(
          `must be more than the tier before (${formatAmount(previous.from)})`,
          `må være mer enn trinnet før (${formatAmount(previous.from)})`,
        ),
      };
    }
    tiers.push({ from: from.value, fee: fee.value });
  }
  if (tiers.length === 0) return { ok: false, path: 'tiers', reason: localized('must have at least one tier', 'må ha minst ett trinn') };
  return { ok: true, tiers };
}
