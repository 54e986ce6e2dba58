/**
 * The sandbox bank's pure parts: the documented seed set is valid Norwegian data (every number
 * passes its check digits, every engagement names an account of the agreement's corporation), and
 * the data-fill generators are deterministic, realistic and stay within their dates.
 */
import { describe, expect, it } from 'vitest';
import { checkNorwegianBban } from '../../src/domain/bban.js';
import { checkKid } from '../../src/domain/kid.js';
import { checkNorwegianIdentityNumber } from '../../src/domain/norwegian-identity-number.js';
import { checkOrganisationNumber } from '../../src/domain/organisation-number.js';
import { parseAmount } from '../../src/domain/money.js';
import { generateCardTransactions } from '../../src/modules/sandbox/card-transaction-generator.js';
import { addDays, daysBetween, monthsBetween } from '../../src/modules/sandbox/sandbox-dates.js';
import { BANK_TIME_ZONE } from '../../src/domain/bank-calendar.js';
import { todayIn } from '../../src/domain/iso-date.js';
import { seededRandom } from '../../src/modules/sandbox/sandbox-random.js';
import { SANDBOX_SEED } from '../../src/modules/sandbox/sandbox-seed.js';
import { amountMinor, generateTransactions, TRANSACTION_PROFILES } from '../../src/modules/sandbox/transaction-generator.js';

describe('the documented seed set', () => {
  const accounts = SANDBOX_SEED.customers.flatMap((customer) => customer.accounts.map((account) => ({ customer, account })));

  it('has the four customers of the real sandbox, two private and two corporate', () => {
    expect(SANDBOX_SEED.customers.map((customer) => [customer.customerNumber, customer.customerType])).toEqual([
      ['13039319955', 'PRIVATE'],
      ['12085592767', 'PRIVATE'],
      ['18129215603', 'CORPORATE'],
      ['20079518612', 'CORPORATE'],
    ]);
    for (const customer of SANDBOX_SEED.customers) {
      expect(checkNorwegianIdentityNumber(customer.customerNumber).ok, customer.customerNumber).toBe(true);
      expect(customer.accounts).toHaveLength(2);
      expect(customer.cardAccounts).toHaveLength(customer.customerType === 'PRIVATE' ? 1 : 0);
    }
  });

  it('gives private customers two NOK accounts each', () => {
    for (const customer of SANDBOX_SEED.customers.filter((item) => item.customerType === 'PRIVATE')) {
      expect(customer.accounts.map((account) => account.currency)).toEqual(['NOK', 'NOK']);
    }
  });

  it('uses distinct BBANs with valid check digits and valid balances', () => {
    expect(new Set(accounts.map(({ account }) => account.bban)).size).toBe(accounts.length);
    for (const { account } of accounts) {
      expect(checkNorwegianBban(account.bban), account.bban).toEqual({ ok: true, value: account.bban });
      expect(parseAmount(account.closingBooked, account.currency).ok, account.closingBooked).toBe(true);
      for (const pending of account.pending ?? []) expect(parseAmount(pending.amount, account.currency).ok).toBe(true);
    }
  });

  it('gives each corporation one agreement with a valid organisation number and engagements on its own accounts', () => {
    const corporations = SANDBOX_SEED.customers.filter((customer) => customer.customerType === 'CORPORATE');
    expect(SANDBOX_SEED.agreements.map((agreement) => agreement.owner)).toEqual(corporations.map((customer) => customer.customerNumber));
    for (const agreement of SANDBOX_SEED.agreements) {
      expect(checkOrganisationNumber(agreement.organisationNumber).ok, agreement.organisationNumber).toBe(true);
      const own = corporations.find((customer) => customer.customerNumber === agreement.owner)!.accounts.map((account) => account.bban);
      for (const engagement of agreement.engagements) {
        expect(own).toContain(engagement.bban);
        expect(SANDBOX_SEED.customers.map((customer) => customer.customerNumber)).toContain(engagement.customer);
        expect(engagement.roles.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('generateTransactions (data fill)', () => {
  const options = {
    seed: 'seed-1',
    count: 120,
    dateFrom: '2026-06-01',
    dateTo: '2026-08-31',
    currency: 'NOK',
    profile: 'private',
  } as const;

  it('gives the same transactions for the same options, and others for another seed', () => {
    expect(generateTransactions(options)).toEqual(generateTransactions(options));
    expect(generateTransactions({ ...options, seed: 'seed-2' })).not.toEqual(generateTransactions(options));
  });

  it.each(TRANSACTION_PROFILES)('makes exactly count transactions in the date range, oldest first (%s)', (profile) => {
    const generated = generateTransactions({ ...options, profile });
    expect(generated).toHaveLength(options.count);
    const dates = generated.map((item) => item.bookingDate);
    expect([...dates].sort()).toEqual(dates);
    for (const item of generated) {
      expect(item.bookingDate >= options.dateFrom && item.bookingDate <= options.dateTo).toBe(true);
      expect(item.valueDate >= item.bookingDate).toBe(true);
      expect(item.amountMinor).not.toBe(0n);
      expect(checkNorwegianBban(item.counterpartyBban).ok).toBe(true);
      // A KID or a text, never both (docs/design.md §2).
      expect((item.kid === undefined) !== (item.remittanceUnstructured === undefined)).toBe(true);
      if (item.kid !== undefined) expect(checkKid(item.kid).ok, item.kid).toBe(true);
    }
  });

  it('pays salary on the 20th, rent on the 1st and an eFaktura with a KID on the 12th of each month of a private account', () => {
    const generated = generateTransactions(options);
    const salaries = generated.filter((item) => item.remittanceUnstructured === 'Lønn');
    expect(salaries.map((item) => item.bookingDate)).toEqual(['2026-06-20', '2026-07-20', '2026-08-20']);
    expect(salaries.every((item) => item.amountMinor >= 3_300_000n && item.amountMinor <= 3_600_000n)).toBe(true);
    const rent = generated.filter((item) => item.counterpartyName === 'Bergen Boligutleie AS');
    expect(rent.map((item) => [item.bookingDate, item.amountMinor, item.remittanceUnstructured])).toEqual([
      ['2026-06-01', -1_150_000n, 'Husleie'],
      ['2026-07-01', -1_150_000n, 'Husleie'],
      ['2026-08-01', -1_150_000n, 'Husleie'],
    ]);
    const insurance = generated.filter((item) => item.counterpartyName === 'Gjensidige Forsikring ASA');
    expect(insurance.map((item) => item.bookingDate)).toEqual(['2026-06-12', '2026-07-12', '2026-08-12']);
    expect(insurance.every((item) => item.kid !== undefined && item.remittanceUnstructured === undefined)).toBe(true);
    expect(generated.some((item) => item.counterpartyName.startsWith('REMA 1000'))).toBe(true);
  });

  it('handles a one-day range and a single transaction', () => {
    expect(generateTransactions({ ...options, count: 1, dateFrom: '2026-06-05', dateTo: '2026-06-05' })).toHaveLength(1);
  });

  it('scales amounts to the currency: EUR a tenth in cents, JPY without decimals, BHD with three', () => {
    expect(amountMinor(123_456, 'NOK')).toBe(123_456n);
    expect(amountMinor(123_456, 'EUR')).toBe(12_346n);
    expect(amountMinor(123_456, 'JPY')).toBe(123n);
    expect(amountMinor(123_456, 'BHD')).toBe(123_460n);
  });
});

describe('generateCardTransactions', () => {
  const options = { seed: '525412******3241', count: 30, dateFrom: '2026-06-01', dateTo: '2026-08-31', currency: 'NOK' };

  it('makes deterministic purchases booked within two days and never after dateTo', () => {
    const generated = generateCardTransactions(options);
    expect(generated).toEqual(generateCardTransactions(options));
    expect(generated).toHaveLength(30);
    for (const item of generated) {
      expect(item.amountMinor < 0n).toBe(true);
      expect(item.merchantCategoryCode).toMatch(/^[0-9]{4}$/);
      expect(daysBetween(item.transactionDate, item.bookingDate)).toBeGreaterThanOrEqual(0);
      expect(daysBetween(item.transactionDate, item.bookingDate)).toBeLessThanOrEqual(2);
      expect(item.bookingDate <= options.dateTo).toBe(true);
      if (item.originalAmount) expect(item.originalAmount.currency).not.toBe('NOK');
    }
  });
});

describe('sandbox dates and randomness', () => {
  it("takes today's date in Norway, not in UTC", () => {
    expect(todayIn(BANK_TIME_ZONE, new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-21');
    expect(todayIn(BANK_TIME_ZONE, new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(todayIn(BANK_TIME_ZONE, new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });

  it('adds days across month, year and daylight-saving boundaries', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-02-01', '2026-03-01')).toBe(28);
    expect(monthsBetween('2026-01-15', '2026-03-01')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
  });

  it('repeats a sequence from its seed', () => {
    const a = seededRandom('x');
    const b = seededRandom('x');
    expect(Array.from({ length: 5 }, () => a.int(0, 1000))).toEqual(Array.from({ length: 5 }, () => b.int(0, 1000)));
    expect(seededRandom('y').digits(12)).toMatch(/^[0-9]{12}$/);
  });
});
