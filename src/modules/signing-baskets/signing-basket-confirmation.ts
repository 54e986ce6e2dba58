import { displayMoney } from '../../domain/display-format.js';
import { localized } from '../../domain/localized.js';
import { addMoney, type Money } from '../../domain/money.js';
import type { Confirmation, ConfirmationLine } from '../authorisations/authorisation-subject.js';
import { paymentConfirmation } from '../payments/payment-confirmation.js';
import { allows } from '../payments/payment-status.js';
import type { Payment } from '../payments/payment.model.js';

/**
 * What the PSU's confirmation page shows for a signing basket: how many payments the
 * approval covers, the total per currency, and every payment with the lines its own confirmation
 * would show. A payment that no longer waits for approval (the TPP cancelled it) is listed as not
 * included, and left out of the totals.
 */
export function basketConfirmation(payments: readonly Payment[]): Confirmation {
  const included = payments.filter((payment) => allows(payment.status, 'approve'));
  const totals = new Map<string, Money>();
  for (const payment of included) {
    const amount = { currency: payment.currency, minor: payment.amountMinor };
    const sum = totals.get(payment.currency);
    totals.set(payment.currency, sum ? addMoney(sum, amount) : amount);
  }
  const count = included.length;
  const lines: ConfirmationLine[] = [
    { label: localized('Number of payments', 'Antall betalinger'), value: localized(String(count), String(count)) },
    ...[...totals.values()].map((total) => ({
      label: localized(`Total ${total.currency}`, `Sum ${total.currency}`),
      value: displayMoney(total),
    })),
  ];
  return {
    heading:
      count === 1
        ? localized('Approve 1 payment', 'Godkjenn 1 betaling')
        : localized(`Approve ${count} payments`, `Godkjenn ${count} betalinger`),
    lines,
    items: payments.map((payment, index) => {
      const title = localized(`Payment ${index + 1} of ${payments.length}`, `Betaling ${index + 1} av ${payments.length}`);
      const left = allows(payment.status, 'approve')
        ? undefined
        : localized(` (not included: status ${payment.status})`, ` (ikke med: status ${payment.status})`);
      return {
        title: left ? localized(title.en + left.en, title.nb + left.nb) : title,
        lines: paymentConfirmation(payment, false).lines,
      };
    }),
  };
}
