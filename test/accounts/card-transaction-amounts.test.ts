import { describe, expect, it } from 'vitest';
import type { AcceptFixName } from '../../src/domain/accept-fix.js';
import { cardTransactionAmounts } from '../../src/modules/accounts/card-transaction-amounts.js';

const FIX = new Set<AcceptFixName>(['cardaccount-switch-originalamount-and-transactionamount']);
const NONE = new Set<AcceptFixName>();

describe('card transaction amounts under the accept-fix', () => {
  const abroad = { amount: { minor: -117_245n, currency: 'NOK' }, originalAmount: { minor: 10_000n, currency: 'EUR' } };

  it('with the fix: the card-currency amount is transactionAmount, the merchant’s is originalAmount, both signed as the booking', () => {
    expect(cardTransactionAmounts(abroad, FIX)).toEqual({
      transactionAmount: { currency: 'NOK', amount: '-1172.45' },
      originalAmount: { currency: 'EUR', amount: '-100.00' },
    });
  });

  it('without the fix: the bank’s historical swap', () => {
    expect(cardTransactionAmounts(abroad, NONE)).toEqual({
      transactionAmount: { currency: 'EUR', amount: '-100.00' },
      originalAmount: { currency: 'NOK', amount: '-1172.45' },
    });
  });

  it('changes nothing for a purchase in the card’s own currency', () => {
    const home = { amount: { minor: -24_900n, currency: 'NOK' } };
    expect(cardTransactionAmounts(home, NONE)).toEqual({ transactionAmount: { currency: 'NOK', amount: '-249.00' } });
    expect(cardTransactionAmounts(home, FIX)).toEqual(cardTransactionAmounts(home, NONE));
  });

  it('keeps a refund positive on both sides', () => {
    const refund = { amount: { minor: 5_000n, currency: 'NOK' }, originalAmount: { minor: -500n, currency: 'EUR' } };
    expect(cardTransactionAmounts(refund, FIX).originalAmount).toEqual({ currency: 'EUR', amount: '5.00' });
  });
});
