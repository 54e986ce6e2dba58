import { compareMoney, type Money } from '../../domain/money.js';
import { nokEquivalentMinor, type NokRates } from '../../domain/regulatory-reporting.js';

/**
 * Whether an amount is above a PSU's register or approval limit, comparing in NOK when the
 * currencies differ. Without a rate for either currency the amount counts as above: a limit is
 * never passed by a missing rate.
 */
export function exceedsLimit(amount: Money, limit: Money, rates: NokRates): boolean {
  if (amount.currency === limit.currency) return compareMoney(amount, limit) > 0;
  const amountNok = nokEquivalentMinor(amount, rates);
  const limitNok = nokEquivalentMinor(limit, rates);
  return amountNok === undefined || limitNok === undefined || amountNok > limitNok;
}
