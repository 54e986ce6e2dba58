import type { BankCardTransaction } from '../../bank/core-banking.port.js';
import type { AcceptFixName } from '../../domain/accept-fix.js';
import type { Money } from '../../domain/money.js';
import { amountOf } from './account-views.js';

/**
 * The amounts of a card transaction as the accept-fixes in force show them (docs/design.md §2b).
 * With `cardaccount-switch-originalamount-and-transactionamount` they mean what Berlin Group says:
 * `transactionAmount` in the card account's currency, `originalAmount` what the merchant charged.
 * Without it a purchase abroad keeps the bank's historical swap: the merchant's amount as
 * `transactionAmount`, the card-currency amount as `originalAmount`. A purchase in the card's own
 * currency has no originalAmount, so the fix changes nothing for it. Both amounts carry the sign
 * of the booking (a purchase is negative), whichever sign the bank gave the original amount.
 */
export function cardTransactionAmounts(
  transaction: Pick<BankCardTransaction, 'amount' | 'originalAmount'>,
  fixes: ReadonlySet<AcceptFixName>,
): { transactionAmount: { currency: string; amount: string }; originalAmount?: { currency: string; amount: string } } {
  const { amount, originalAmount } = transaction;
  if (originalAmount === undefined) return { transactionAmount: amountOf(amount) };
  const original: Money = { currency: originalAmount.currency, minor: withSignOf(amount.minor, originalAmount.minor) };
  return fixes.has('cardaccount-switch-originalamount-and-transactionamount')
    ? { transactionAmount: amountOf(amount), originalAmount: amountOf(original) }
    : { transactionAmount: amountOf(original), originalAmount: amountOf(amount) };
}

function withSignOf(sign: bigint, value: bigint): bigint {
  const magnitude = value < 0n ? -value : value;
  return sign < 0n ? -magnitude : magnitude;
}
