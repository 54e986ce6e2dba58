/**
 * The accept-fix effects on account details (docs/design.md §2b): `longer-name` lets `name` be 70
 * characters instead of 35; `cash-account-type-iso` gives the ISO 20022 code instead of the bank's
 * legacy word. (In the running server both fixes are past their default date, so every TPP gets
 * the fixed form; the forms without them are seen here.)
 */
import { describe, expect, it } from 'vitest';
import type { BankAccount, BankCardAccount } from '../../src/bank/core-banking.port.js';
import type { AcceptFixName } from '../../src/domain/accept-fix.js';
import { accountDetails, cardAccountDetails } from '../../src/modules/accounts/account-views.js';

const NAME = 'Felleskonto for hytta på Hvaler, vedlikehold, strøm, innbo og brygge og båt';

const account: BankAccount = {
  id: 'bank-1',
  bban: '12345678903',
  iban: 'NO9312345678903',
  currency: 'NOK',
  name: NAME,
  product: 'Sparekonto Pluss',
  cashAccountType: 'SVGS',
  ownerName: 'Kari Nordmann',
  ownerCustomerNumber: '01019012345',
  ownerType: 'PRIVATE',
};

const card: BankCardAccount = {
  id: 'card-1',
  maskedPan: '525412******3241',
  name: NAME,
  product: 'Mastercard',
  currency: 'NOK',
  creditLimit: { minor: 5_000_000n, currency: 'NOK' },
  ownerName: 'Kari Nordmann',
  ownerCustomerNumber: '01019012345',
};

const view = (fixes: AcceptFixName[]) => ({ resourceId: 'r', ownerName: false, fixes: new Set(fixes) });

describe('account details and accept-fix', () => {
  it('cuts name at 35 characters without longer-name and at 70 with it', () => {
    expect(NAME.length).toBeGreaterThan(70);
    expect(accountDetails(account, view([]))['name']).toBe(NAME.slice(0, 35));
    expect(accountDetails(account, view(['longer-name']))['name']).toBe(NAME.slice(0, 70));
    expect(cardAccountDetails(card, view([]))['name']).toBe(NAME.slice(0, 35));
    expect(cardAccountDetails(card, view(['longer-name']))['name']).toBe(NAME.slice(0, 70));
  });

  it("gives cashAccountType as the bank's legacy word without cash-account-type-iso and the ISO code with it", () => {
    expect(accountDetails(account, view([]))['cashAccountType']).toBe('SPAREKONTO');
    expect(accountDetails({ ...account, cashAccountType: 'CACC' }, view([]))['cashAccountType']).toBe('BRUKSKONTO');
    expect(accountDetails(account, view(['cash-account-type-iso']))['cashAccountType']).toBe('SVGS');
  });

  it('shows ownerName only when asked, and the credit limit of a card account as a string amount', () => {
    expect(accountDetails(account, view([]))).not.toHaveProperty('ownerName');
    expect(accountDetails(account, { ...view([]), ownerName: true })['ownerName']).toBe('Kari Nordmann');
    expect(cardAccountDetails(card, view([]))['creditLimit']).toEqual({ currency: 'NOK', amount: '50000.00' });
  });
});
