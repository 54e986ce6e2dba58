/**
 * What the PSU's confirmation page lists for a payment: exactly what the approval does.
 * Payment objects are built directly (no database): the amount in each language, creditor name
 * and account, debtor account, KID, message, the execution date or "as soon as possible", a
 * standing order's schedule, a bulk payment's items and total, the currency-register line of a
 * cross-border payment, and the heading of an approval or a cancellation.
 */
import { describe, expect, it } from 'vitest';
import { localized } from '../../src/domain/localized.js';
import type { ConfirmationLine } from '../../src/modules/authorisations/authorisation-subject.js';
import { paymentConfirmation } from '../../src/modules/payments/payment-confirmation.js';
import type { Payment } from '../../src/modules/payments/payment.model.js';
import { CREDITOR, DEBTOR, line, money, storedPayment, type StoredPaymentOverrides } from '../support/stored-payment.js';

function payment(overrides: StoredPaymentOverrides): Payment {
  return storedPayment(overrides);
}

function ndct(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    debtorAccount: { bban: DEBTOR },
    instructedAmount: { currency: 'NOK', amount: '1234.56' },
    creditorAccount: { bban: CREDITOR },
    creditorName: 'Kari Nordmann',
    ...extra,
  };
}

const labelsOf = (lines: readonly ConfirmationLine[]) => lines.map((entry) => entry.label.en);
const valueOf = (lines: readonly ConfirmationLine[], label: string) => lines.find((entry) => entry.label.en === label)?.value;

describe('a single payment', () => {
  it('lists amount, creditor, accounts, message, type and execution date, in that order', () => {
    const confirmation = paymentConfirmation(
      payment({ requestedExecutionDate: '2026-12-24', body: ndct({ remittanceInformationUnstructured: 'Husleie desember' }) }),
      false,
    );
    expect(confirmation.heading).toEqual(localized('Approve this payment', 'Godkjenn denne betalingen'));
    expect(confirmation.items).toBeUndefined();
    expect(confirmation.lines).toEqual([
      line('Amount', 'Beløp', money('NOK 1,234.56', '1 234,56 kr')),
      line('To', 'Til', 'Kari Nordmann'),
      line('To account', 'Til konto', CREDITOR),
      line('Message', 'Melding', 'Husleie desember'),
      line('Payment type', 'Betalingstype', localized('Domestic transfer', 'Innenlands betaling')),
      line('From account', 'Fra konto', DEBTOR),
      line('Execution date', 'Utførelsesdato', localized('24 December 2026', '24. desember 2026')),
    ]);
  });

  it('says "as soon as possible" without a requested execution date', () => {
    const lines = paymentConfirmation(payment({ body: ndct() }), false).lines;
    expect(valueOf(lines, 'Execution date')).toEqual(localized('as soon as possible', 'så snart som mulig'));
  });

  it('shows the KID of structured remittance, and every KID of a structured array', () => {
    // A KID sent in the deprecated single field is stored in the array (payment-document.ts).
    const single = paymentConfirmation(
      payment({ body: ndct({ remittanceInformationStructuredArray: [{ reference: '1234567890128', referenceType: 'SCOR' }] }) }),
      false,
    ).lines;
    expect(valueOf(single, 'KID')).toEqual(localized('1234567890128', '1234567890128'));
    expect(labelsOf(single)).not.toContain('Message');

    const several = paymentConfirmation(
      payment({
        body: ndct({ remittanceInformationStructuredArray: [{ reference: '1234567890128' }, { reference: '0000000000018' }] }),
      }),
      false,
    ).lines;
    expect(valueOf(several, 'KID')).toEqual(localized('1234567890128, 0000000000018'));
  });

  it('leaves out lines the payment does not have (no KID, message, BIC or currency register)', () => {
    const labels = labelsOf(paymentConfirmation(payment({ body: ndct() }), false).lines);
    expect(labels).toEqual(['Amount', 'To', 'To account', 'Payment type', 'From account', 'Execution date']);
  });

  it('shows an IBAN in preference to a BBAN', () => {
    const lines = paymentConfirmation(
      payment({
        body: ndct({ debtorAccount: { iban: 'NO9312345678903', bban: DEBTOR }, creditorAccount: { iban: 'NO8386011117947' } }),
      }),
      false,
    ).lines;
    expect(valueOf(lines, 'From account')?.en).toBe('NO9312345678903');
    expect(valueOf(lines, 'To account')?.en).toBe('NO8386011117947');
  });

  it('names the product in words a PSU knows, in each language: INDCTS, SCT', () => {
    const straks = payment({ product: 'instant-norwegian-domestic-credit-transfers-straks', body: ndct() });
    expect(valueOf(paymentConfirmation(straks, false).lines, 'Payment type')).toEqual(
      localized('Instant domestic transfer', 'Straksbetaling'),
    );
    const sepa = payment({
      product: 'sepa-credit-transfers',
      currency: 'EUR',
      body: {
        debtorAccount: { iban: 'NO9312345678903' },
        instructedAmount: { currency: 'EUR', amount: '250.00' },
        creditorAccount: { iban: 'DE89370400440532013000' },
        creditorName: 'Max Mustermann',
        creditorAgent: 'COBADEFFXXX',
      },
    });
    const lines = paymentConfirmation(sepa, false).lines;
    expect(valueOf(lines, 'Payment type')).toEqual(localized('SEPA transfer (euro)', 'SEPA-overføring (euro)'));
    expect(valueOf(lines, 'Amount')).toEqual(money('EUR 250.00', '250,00 EUR'));
    expect(valueOf(lines, 'Creditor bank (BIC)')).toEqual(localized('COBADEFFXXX'));
  });

  it("names the creditor's bank when the TPP sent its name, beside its BIC, and leaves out the debtorName the bank does not pay by", () => {
    const body = ndct({ creditorAgent: 'DNBANOKKXXX', creditorAgentName: 'DNB Bank ASA', debtorName: 'Ola Nordmann' });
    const lines = paymentConfirmation(payment({ product: 'cross-border-credit-transfers', body }), false).lines;
    expect(labelsOf(lines).slice(0, 5)).toEqual(['Amount', 'To', 'To account', 'Creditor bank', 'Creditor bank (BIC)']);
    expect(lines.find((entry) => entry.label.en === 'Creditor bank')).toEqual(line('Creditor bank', 'Mottakers bank', 'DNB Bank ASA'));
    expect(valueOf(lines, 'Creditor bank (BIC)')).toEqual(localized('DNBANOKKXXX'));
    expect(JSON.stringify(lines)).not.toContain('Ola Nordmann');
  });

  it('shows the currency minor units of the instructed amount: JPY none, BHD three', () => {
    const jpy = payment({
      product: 'cross-border-credit-transfers',
      body: ndct({ instructedAmount: { currency: 'JPY', amount: '150000' } }),
    });
    expect(valueOf(paymentConfirmation(jpy, false).lines, 'Amount')).toEqual(money('JPY 150,000', '150 000 JPY'));
    const bhd = payment({
      product: 'cross-border-credit-transfers',
      body: ndct({ instructedAmount: { currency: 'BHD', amount: '12.5' } }),
    });
    expect(valueOf(paymentConfirmation(bhd, false).lines, 'Amount')).toEqual(money('BHD 12.500', '12,500 BHD'));
  });

  it('keeps a 14-digit amount exact', () => {
    const big = payment({ body: ndct({ instructedAmount: { currency: 'NOK', amount: '99999999999999.99' } }) });
    expect(valueOf(paymentConfirmation(big, false).lines, 'Amount')).toEqual(
      money('NOK 99,999,999,999,999.99', '99 999 999 999 999,99 kr'),
    );
  });
});

describe('the currency-register line of a cross-border payment', () => {
  const ncbct = (extra: Record<string, unknown>) =>
    payment({
      product: 'norwegian-cross-border-credit-transfers',
      body: ndct({ instructedAmount: { currency: 'NOK', amount: '150000.00' }, ...extra }),
    });

  it('reads "<code> <name>: <information>" in each language', () => {
    const lines = paymentConfirmation(
      ncbct({ regulatoryReportingCode: '14', regulatoryReportingInformation: 'Machine parts' }),
      false,
    ).lines;
    expect(valueOf(lines, 'Currency register')).toEqual(
      localized('14 Purchase/sale of goods: Machine parts', '14 Kjøp/salg av varer: Machine parts'),
    );
    expect(lines.find((entry) => entry.label.en === 'Currency register')?.label).toEqual(
      localized('Currency register', 'Valutaregisteret'),
    );
    expect(valueOf(lines, 'Payment type')).toEqual(localized('Payment abroad', 'Utenlandsbetaling'));
  });

  it('reads "<code> <name>" without information', () => {
    const lines = paymentConfirmation(ncbct({ regulatoryReportingCode: '81' }), false).lines;
    expect(valueOf(lines, 'Currency register')).toEqual(localized('81 Salary', '81 Lønn'));
  });

  it('keeps an unknown code without a dangling space before the colon', () => {
    const lines = paymentConfirmation(ncbct({ regulatoryReportingCode: '99', regulatoryReportingInformation: 'Other' }), false).lines;
    expect(valueOf(lines, 'Currency register')).toEqual(localized('99: Other', '99: Other'));
  });

  it('comes after the message and before the payment type', () => {
    const labels = labelsOf(
      paymentConfirmation(
        ncbct({ remittanceInformationUnstructured: 'Invoice 17', regulatoryReportingCode: '14', regulatoryReportingInformation: 'Parts' }),
        false,
      ).lines,
    );
    expect(labels).toEqual([
      'Amount',
      'To',
      'To account',
      'Message',
      'Currency register',
      'Payment type',
      'From account',
      'Execution date',
    ]);
  });

  it('is absent without a code', () => {
    expect(labelsOf(paymentConfirmation(ncbct({ regulatoryReportingInformation: 'Parts' }), false).lines)).not.toContain(
      'Currency register',
    );
  });
});

describe('a standing order', () => {
  const periodic = (extra: Record<string, unknown>) =>
    payment({
      service: 'periodic-payments',
      // A periodic payment's requested execution date is not its schedule: never shown.
      requestedExecutionDate: '2026-12-01',
      body: ndct({ startDate: '2027-01-15', frequency: 'Monthly', ...extra }),
    });

  it('is approved and stopped in standing-order words', () => {
    expect(paymentConfirmation(periodic({}), false).heading).toEqual(
      localized('Approve this standing order', 'Godkjenn denne faste betalingen'),
    );
    expect(paymentConfirmation(periodic({}), true).heading).toEqual(localized('Stop this standing order', 'Stopp denne faste betalingen'));
  });

  it('shows frequency, day, start and end instead of an execution date', () => {
    const lines = paymentConfirmation(periodic({ dayOfExecution: '15', endDate: '2027-12-15' }), false).lines;
    expect(labelsOf(lines)).toEqual(['Amount', 'To', 'To account', 'Payment type', 'From account', 'Schedule']);
    expect(lines.at(-1)).toEqual(
      line(
        'Schedule',
        'Betalingsplan',
        localized(
          'every month, on day 15, from 15 January 2027 until 15 December 2027',
          'hver måned, den 15., fra 15. januar 2027 til 15. desember 2027',
        ),
      ),
    );
  });

  it('runs "until cancelled" without an end date', () => {
    const lines = paymentConfirmation(periodic({ frequency: 'Weekly' }), false).lines;
    expect(valueOf(lines, 'Schedule')).toEqual(
      localized('every week, from 15 January 2027, until cancelled', 'hver uke, fra 15. januar 2027, til den sies opp'),
    );
  });

  it.each([
    ['Daily', 'every bank day', 'hver bankdag'],
    ['Weekly', 'every week', 'hver uke'],
    ['EveryTwoWeeks', 'every second week', 'hver andre uke'],
    ['Monthly', 'every month', 'hver måned'],
    ['EveryTwoMonths', 'every second month', 'hver andre måned'],
    ['Quarterly', 'every quarter', 'hvert kvartal'],
    ['SemiAnnual', 'every half year', 'hvert halvår'],
    ['Annual', 'every year', 'hvert år'],
  ])('names the frequency %s "%s" / "%s"', (frequency, en, nb) => {
    const schedule = valueOf(paymentConfirmation(periodic({ frequency }), false).lines, 'Schedule')!;
    expect(schedule.en.startsWith(`${en}, from `)).toBe(true);
    expect(schedule.nb.startsWith(`${nb}, fra `)).toBe(true);
  });

  it('lists the months of a MonthlyVariable order', () => {
    const lines = paymentConfirmation(
      periodic({ frequency: 'MonthlyVariable', dayOfExecution: '1', monthsOfExecution: ['1', '7'] }),
      false,
    ).lines;
    expect(valueOf(lines, 'Schedule')).toEqual(
      localized(
        'in the chosen months, on day 1 (months 1, 7), from 15 January 2027, until cancelled',
        'i valgte måneder, den 1. (måned 1, 7), fra 15. januar 2027, til den sies opp',
      ),
    );
  });
});

describe('a bulk payment', () => {
  const bulk = payment({
    service: 'bulk-payments',
    amountMinor: 30_050n,
    requestedExecutionDate: '2027-01-04',
    body: {
      debtorAccount: { bban: DEBTOR },
      payments: [
        {
          instructedAmount: { currency: 'NOK', amount: '100.50' },
          creditorAccount: { bban: CREDITOR },
          creditorName: 'Kari Nordmann',
          remittanceInformationStructuredArray: [{ reference: '1234567890128', referenceType: 'SCOR' }],
        },
        {
          instructedAmount: { currency: 'NOK', amount: '200.00' },
          creditorAccount: { bban: '12345678903' },
          creditorName: 'Ola Nordmann',
          remittanceInformationUnstructured: 'Lønn',
        },
      ],
    },
  });

  it('lists type, debtor account, date, the number of payments and the total from the stored amount', () => {
    const confirmation = paymentConfirmation(bulk, false);
    expect(confirmation.heading).toEqual(localized('Approve these payments', 'Godkjenn disse betalingene'));
    expect(confirmation.lines).toEqual([
      line('Payment type', 'Betalingstype', localized('Domestic transfer', 'Innenlands betaling')),
      line('From account', 'Fra konto', DEBTOR),
      line('Execution date', 'Utførelsesdato', localized('4 January 2027', '4. januar 2027')),
      line('Number of payments', 'Antall betalinger', '2'),
      line('Total', 'Sum', money('NOK 300.50', '300,50 kr')),
    ]);
  });

  it('lists each payment as a numbered item with its own transfer lines', () => {
    const items = paymentConfirmation(bulk, false).items!;
    expect(items.map((item) => item.title)).toEqual([localized('Payment 1', 'Betaling 1'), localized('Payment 2', 'Betaling 2')]);
    expect(items[0]!.lines).toEqual([
      line('Amount', 'Beløp', money('NOK 100.50', '100,50 kr')),
      line('To', 'Til', 'Kari Nordmann'),
      line('To account', 'Til konto', CREDITOR),
      line('KID', 'KID', '1234567890128'),
    ]);
    expect(items[1]!.lines).toEqual([
      line('Amount', 'Beløp', money('NOK 200.00', '200,00 kr')),
      line('To', 'Til', 'Ola Nordmann'),
      line('To account', 'Til konto', '12345678903'),
      line('Message', 'Melding', 'Lønn'),
    ]);
  });

  it('says "as soon as possible" without a requested execution date', () => {
    const lines = paymentConfirmation({ ...bulk, requestedExecutionDate: undefined }, false).lines;
    expect(valueOf(lines, 'Execution date')).toEqual(localized('as soon as possible', 'så snart som mulig'));
  });
});

describe('a cancellation', () => {
  it('is headed as a cancellation and lists what is cancelled, exactly as the approval did', () => {
    const single = payment({ requestedExecutionDate: '2026-12-24', body: ndct({ remittanceInformationUnstructured: 'Husleie' }) });
    const cancel = paymentConfirmation(single, true);
    expect(cancel.heading).toEqual(localized('Cancel this payment', 'Kanseller denne betalingen'));
    expect(cancel.lines).toEqual(paymentConfirmation(single, false).lines);
    expect(cancel.heading).not.toEqual(paymentConfirmation(single, false).heading);
  });
});
