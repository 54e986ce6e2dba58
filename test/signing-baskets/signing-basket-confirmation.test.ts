/**
 * What the PSU's confirmation page lists for a signing basket: the heading "Approve N
 * payments" (singular for one), the number of payments and one total per currency over the
 * payments still awaiting approval (RCVD, PATC), and each payment as "Payment i of n" with the
 * lines of its own confirmation; a payment no longer awaiting approval is marked "not included"
 * and left out of the count and the totals. Payment objects are built directly (no database).
 */
import { describe, expect, it } from 'vitest';
import { localized } from '../../src/domain/localized.js';
import { paymentConfirmation } from '../../src/modules/payments/payment-confirmation.js';
import type { TransactionStatus } from '../../src/modules/payments/payment-status.js';
import { TRANSACTION_STATUSES } from '../../src/modules/payments/payment-status.js';
import type { Payment } from '../../src/modules/payments/payment.model.js';
import { CREDITOR, DEBTOR, line, money, storedPayment, type StoredPaymentOverrides } from '../support/stored-payment.js';
import { basketConfirmation } from '../../src/modules/signing-baskets/signing-basket-confirmation.js';

const BASKET = '0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';

/** A payment of a basket, as the repository returns it. */
function payment(overrides: StoredPaymentOverrides): Payment {
  return storedPayment({ basketId: BASKET, ...overrides });
}

/** An NDCT payment of `amount` NOK (amountMinor as the repository stores it). */
function nok(amount: string, status: TransactionStatus = 'RCVD', extra: Record<string, unknown> = {}): Payment {
  return payment({
    status,
    currency: 'NOK',
    amountMinor: BigInt(amount.replace('.', '')),
    body: {
      debtorAccount: { bban: DEBTOR },
      instructedAmount: { currency: 'NOK', amount },
      creditorAccount: { bban: CREDITOR },
      creditorName: 'Kari Nordmann',
      ...extra,
    },
  });
}

/** A SEPA payment of `amount` EUR. */
function eur(amount: string, status: TransactionStatus = 'RCVD'): Payment {
  return payment({
    product: 'sepa-credit-transfers',
    status,
    currency: 'EUR',
    amountMinor: BigInt(amount.replace('.', '')),
    body: {
      debtorAccount: { iban: 'NO9312345678903' },
      instructedAmount: { currency: 'EUR', amount },
      creditorAccount: { iban: 'DE89370400440532013000' },
      creditorName: 'Max Mustermann',
      creditorAgent: 'COBADEFFXXX',
    },
  });
}

/** An NCBCT payment of `amount` SEK. */
function sek(amount: string, status: TransactionStatus = 'RCVD'): Payment {
  return payment({
    product: 'norwegian-cross-border-credit-transfers',
    status,
    currency: 'SEK',
    amountMinor: BigInt(amount.replace('.', '')),
    body: {
      debtorAccount: { bban: DEBTOR },
      instructedAmount: { currency: 'SEK', amount },
      creditorAccount: { bban: CREDITOR },
      creditorName: 'Company 123',
      creditorAgent: 'ESSESESS',
      regulatoryReportingCode: '14',
    },
  });
}

const titles = (payments: readonly Payment[], language: 'en' | 'nb' = 'en') =>
  (basketConfirmation(payments).items ?? []).map((item) => item.title[language]);

describe('the heading', () => {
  it.each([
    [2, 'Approve 2 payments', 'Godkjenn 2 betalinger'],
    [3, 'Approve 3 payments', 'Godkjenn 3 betalinger'],
    [10, 'Approve 10 payments', 'Godkjenn 10 betalinger'],
  ])('of %i payments reads "%s" / "%s"', (count, en, nb) => {
    const payments = Array.from({ length: count }, () => nok('100.00'));
    expect(basketConfirmation(payments).heading).toEqual(localized(en, nb));
  });

  it('of one payment is singular: "Approve 1 payment" / "Godkjenn 1 betaling"', () => {
    expect(basketConfirmation([nok('100.00')]).heading).toEqual(localized('Approve 1 payment', 'Godkjenn 1 betaling'));
  });

  it('counts only payments awaiting approval: three listed, two cancelled → singular', () => {
    const confirmation = basketConfirmation([nok('1.00', 'CANC'), nok('2.00'), nok('3.00', 'RJCT')]);
    expect(confirmation.heading).toEqual(localized('Approve 1 payment', 'Godkjenn 1 betaling'));
    expect(confirmation.items).toHaveLength(3);
  });
});

describe('the number of payments and the totals per currency', () => {
  it('two NOK and one EUR payment: "Number of payments" 3, "Total NOK" and "Total EUR" with the sums, in en and nb', () => {
    const confirmation = basketConfirmation([nok('1234.56'), eur('250.00'), nok('100.44')]);
    expect(confirmation.heading).toEqual(localized('Approve 3 payments', 'Godkjenn 3 betalinger'));
    expect(confirmation.lines).toEqual([
      line('Number of payments', 'Antall betalinger', '3'),
      line('Total NOK', 'Sum NOK', money('NOK 1,335.00', '1 335,00 kr')),
      line('Total EUR', 'Sum EUR', money('EUR 250.00', '250,00 EUR')),
    ]);
  });

  it('lists the currencies in the order they first appear', () => {
    const labels = basketConfirmation([eur('1.00'), sek('2.00'), nok('3.00'), eur('4.00')]).lines.map((entry) => entry.label.en);
    expect(labels).toEqual(['Number of payments', 'Total EUR', 'Total SEK', 'Total NOK']);
  });

  it('adds up in minor units exactly, also beyond 14 integer digits', () => {
    const confirmation = basketConfirmation([nok('99999999999999.99'), nok('99999999999999.99'), nok('0.01')]);
    expect(confirmation.lines[1]).toEqual(line('Total NOK', 'Sum NOK', money('NOK 199,999,999,999,999.99', '199 999 999 999 999,99 kr')));
    // 0.10 + 0.20 is 0.30, as money must.
    expect(basketConfirmation([nok('0.10'), nok('0.20')]).lines[1]?.value).toEqual(money('NOK 0.30', '0,30 kr'));
  });

  it("three NDCT of NOK 100.33 and one NCBCT of SEK 100.33 (the browser test's basket)", () => {
    const confirmation = basketConfirmation([nok('100.33'), nok('100.33'), nok('100.33'), sek('100.33')]);
    expect(confirmation.lines).toEqual([
      line('Number of payments', 'Antall betalinger', '4'),
      line('Total NOK', 'Sum NOK', money('NOK 300.99', '300,99 kr')),
      line('Total SEK', 'Sum SEK', money('SEK 100.33', '100,33 SEK')),
    ]);
  });

  it('a PATC payment (approved by one of two approvers) is still included', () => {
    const confirmation = basketConfirmation([nok('10.00', 'PATC'), nok('5.00', 'RCVD')]);
    expect(confirmation.lines).toEqual([
      line('Number of payments', 'Antall betalinger', '2'),
      line('Total NOK', 'Sum NOK', money('NOK 15.00', '15,00 kr')),
    ]);
    expect(titles([nok('10.00', 'PATC')])).toEqual(['Payment 1 of 1']);
  });
});

describe('the payments listed', () => {
  it('are titled "Payment i of n" / "Betaling i av n", in the basket\'s order, each with its own confirmation lines', () => {
    const payments = [nok('1234.56', 'RCVD', { remittanceInformationUnstructured: 'Husleie' }), eur('250.00'), sek('100.33')];
    const items = basketConfirmation(payments).items!;
    expect(items.map((item) => item.title)).toEqual([
      localized('Payment 1 of 3', 'Betaling 1 av 3'),
      localized('Payment 2 of 3', 'Betaling 2 av 3'),
      localized('Payment 3 of 3', 'Betaling 3 av 3'),
    ]);
    payments.forEach((entry, index) => expect(items[index]!.lines).toEqual(paymentConfirmation(entry, false).lines));
    expect(items[0]!.lines).toEqual([
      line('Amount', 'Beløp', money('NOK 1,234.56', '1 234,56 kr')),
      line('To', 'Til', 'Kari Nordmann'),
      line('To account', 'Til konto', CREDITOR),
      line('Message', 'Melding', 'Husleie'),
      line('Payment type', 'Betalingstype', localized('Domestic transfer', 'Innenlands betaling')),
      line('From account', 'Fra konto', DEBTOR),
      line('Execution date', 'Utførelsesdato', localized('as soon as possible', 'så snart som mulig')),
    ]);
    expect(items[2]!.lines.find((entry) => entry.label.en === 'Currency register')?.value).toEqual(
      localized('14 Purchase/sale of goods', '14 Kjøp/salg av varer'),
    );
  });

  it('a payment no longer awaiting approval is listed as not included, and left out of the count and the totals', () => {
    const payments = [nok('100.00'), nok('50.00', 'CANC'), eur('20.00', 'CANC'), nok('7.50')];
    const confirmation = basketConfirmation(payments);
    expect(confirmation.heading).toEqual(localized('Approve 2 payments', 'Godkjenn 2 betalinger'));
    // The EUR payment is the only one in EUR: no EUR total at all.
    expect(confirmation.lines).toEqual([
      line('Number of payments', 'Antall betalinger', '2'),
      line('Total NOK', 'Sum NOK', money('NOK 107.50', '107,50 kr')),
    ]);
    expect(confirmation.items!.map((item) => item.title)).toEqual([
      localized('Payment 1 of 4', 'Betaling 1 av 4'),
      localized('Payment 2 of 4 (not included: status CANC)', 'Betaling 2 av 4 (ikke med: status CANC)'),
      localized('Payment 3 of 4 (not included: status CANC)', 'Betaling 3 av 4 (ikke med: status CANC)'),
      localized('Payment 4 of 4', 'Betaling 4 av 4'),
    ]);
    // Still shown with its own lines, so the PSU sees what is left out.
    expect(confirmation.items![1]!.lines).toEqual(paymentConfirmation(payments[1]!, false).lines);
  });

  const excluded = TRANSACTION_STATUSES.filter((status) => status !== 'RCVD' && status !== 'PATC');
  it.each(excluded.map((status) => [status]))('a %s payment is not included', (status) => {
    const confirmation = basketConfirmation([nok('10.00'), nok('99.00', status)]);
    expect(titles([nok('10.00'), nok('99.00', status)], 'en')).toEqual([
      'Payment 1 of 2',
      `Payment 2 of 2 (not included: status ${status})`,
    ]);
    expect(titles([nok('10.00'), nok('99.00', status)], 'nb')).toEqual(['Betaling 1 av 2', `Betaling 2 av 2 (ikke med: status ${status})`]);
    expect(confirmation.heading.en).toBe('Approve 1 payment');
    expect(confirmation.lines).toEqual([
      line('Number of payments', 'Antall betalinger', '1'),
      line('Total NOK', 'Sum NOK', money('NOK 10.00', '10,00 kr')),
    ]);
  });

  it('none awaiting approval: "Approve 0 payments", count 0 and no total (the payments still listed)', () => {
    const confirmation = basketConfirmation([nok('10.00', 'CANC'), eur('5.00', 'ACTC')]);
    expect(confirmation.heading).toEqual(localized('Approve 0 payments', 'Godkjenn 0 betalinger'));
    expect(confirmation.lines).toEqual([line('Number of payments', 'Antall betalinger', '0')]);
    expect(confirmation.items).toHaveLength(2);
  });
});
