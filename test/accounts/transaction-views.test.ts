import { describe, expect, it } from 'vitest';
import type { BankCardTransaction } from '../../src/bank/core-banking.port.js';
import {
  cardTransactionView,
  standingOrderView,
  transactionView,
  type StatementEntry,
} from '../../src/modules/accounts/transaction-views.js';

const nok = (minor: bigint) => ({ minor, currency: 'NOK' });

describe('statement lines in Berlin Group shapes', () => {
  const line: StatementEntry = {
    id: 't-1',
    status: 'booked',
    bookingDate: '2026-05-04',
    valueDate: '2026-05-05',
    amount: nok(-149_950n),
    counterpartyName: 'Hafslund Strøm AS',
    counterpartyAccount: { bban: '12345678903' },
    remittanceReferences: [{ reference: '1234567897', referenceType: 'SCOR' }],
    bankTransactionCode: 'PMNT-ICDT-DMCT',
  };

  it('names the counterparty of a debit as creditor and of a credit as debtor; amounts are strings', () => {
    expect(transactionView(line, 'https://bank.example/d')).toEqual({
      transactionId: 't-1',
      transactionAmount: { currency: 'NOK', amount: '-1499.50' },
      creditorName: 'Hafslund Strøm AS',
      creditorAccount: { bban: '12345678903' },
      remittanceInformationStructuredArray: [{ reference: '1234567897', referenceType: 'SCOR' }],
      bankTransactionCode: 'PMNT-ICDT-DMCT',
      bookingDate: '2026-05-04',
      valueDate: '2026-05-05',
      _links: { transactionDetails: { href: 'https://bank.example/d' } },
    });
    const credit = transactionView({ ...line, amount: nok(50_000n), counterpartyAccount: { iban: 'NO9386011117947' } }, 'x');
    expect(credit).toMatchObject({ debtorName: 'Hafslund Strøm AS', debtorAccount: { iban: 'NO9386011117947' } });
    expect(credit.creditorName).toBeUndefined();
  });

  it('shows a standing order with its schedule and PMNT-ICDT-STDO', () => {
    const { status: _status, bookingDate: _booking, valueDate: _value, bankTransactionCode: _code, ...transfer } = line;
    expect(standingOrderView({ ...transfer, startDate: '2026-06-01', frequency: 'Monthly', dayOfExecution: '1' })).toMatchObject({
      bankTransactionCode: 'PMNT-ICDT-STDO',
      additionalInformationStructured: { standingOrderDetails: { startDate: '2026-06-01', frequency: 'Monthly', dayOfExecution: '1' } },
    });
  });

  it('gives a standing order no transactionId: it is no transaction, and has no details to read by one', () => {
    const { status: _status, bookingDate: _booking, valueDate: _value, ...transfer } = line;
    expect(standingOrderView({ ...transfer, startDate: '2026-06-01', frequency: 'Monthly' })).not.toHaveProperty('transactionId');
  });
});

describe('card transactions', () => {
  const purchase: BankCardTransaction = {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    maskedPan: '525412******3241',
    status: 'booked',
    transactionDate: '2026-05-02',
    bookingDate: '2026-05-03',
    amount: nok(-11_500n),
    originalAmount: { minor: -1_000n, currency: 'EUR' },
    merchant: 'CAFE CENTRAL WIEN',
    merchantId: 'ACQ-778812',
  };

  it('with the switch fix: transactionAmount in the card currency, originalAmount what the merchant charged', () => {
    const view = cardTransactionView(purchase, new Set(['cardaccount-switch-originalamount-and-transactionamount']));
    expect(view).toMatchObject({
      cardTransactionId: '0f8fad5bd9cb469fa16570867728950e',
      transactionAmount: { currency: 'NOK', amount: '-115.00' },
      originalAmount: { currency: 'EUR', amount: '-10.00' },
      cardAcceptorId: 'ACQ-778812',
      transactionDetails: 'CAFE CENTRAL WIEN',
    });
  });

  it('without it: the bank’s historical swap of the two amounts; no original amount, nothing to swap', () => {
    expect(cardTransactionView(purchase, new Set())).toMatchObject({
      transactionAmount: { currency: 'EUR', amount: '-10.00' },
      originalAmount: { currency: 'NOK', amount: '-115.00' },
    });
    const domestic = cardTransactionView({ ...purchase, originalAmount: undefined }, new Set());
    expect(domestic.transactionAmount).toEqual({ currency: 'NOK', amount: '-115.00' });
    expect(domestic.originalAmount).toBeUndefined();
  });
});
