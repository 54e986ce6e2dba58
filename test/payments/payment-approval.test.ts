import { BANK_TIME_ZONE } from '../../src/domain/bank-calendar.js';
import { todayIn } from '../../src/domain/iso-date.js';
/**
 * The pure rules behind a PSU's approval of a payment (docs/design.md §3):
 * - approvesAlone: no approval limit, or an amount within it (compared in NOK across currencies;
 *   a limit of 0 always needs a second approver; a missing rate never passes a limit);
 * - isFutureDated: a requested execution date after today in Oslo (not UTC); standing orders never.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOK_RATES, type NokRates } from '../../src/domain/regulatory-reporting.js';
import { approvesAlone, isFutureDated } from '../../src/modules/payments/payment-approval.js';

describe('approvesAlone', () => {
  const nok = (minor: bigint) => ({ currency: 'NOK', minor });
  const payment = (currency: string, amountMinor: bigint) => ({ currency, amountMinor });

  it('approves alone without an approval limit, whatever the amount or currency', () => {
    expect(approvesAlone(payment('NOK', 9_999_999_999_999_999n), undefined, DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('HUF', 100n), undefined, DEFAULT_NOK_RATES)).toBe(true);
  });

  it('approves alone within the limit and exactly at it, not one øre above', () => {
    expect(approvesAlone(payment('NOK', 4_999_99n), nok(5_000_00n), DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('NOK', 5_000_00n), nok(5_000_00n), DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('NOK', 5_000_01n), nok(5_000_00n), DEFAULT_NOK_RATES)).toBe(false);
  });

  it('never approves alone with a limit of 0 (the sandbox way to require a second approver)', () => {
    expect(approvesAlone(payment('NOK', 1n), nok(0n), DEFAULT_NOK_RATES)).toBe(false);
    expect(approvesAlone(payment('EUR', 1n), nok(0n), DEFAULT_NOK_RATES)).toBe(false);
  });

  it('compares another currency in NOK at the configured rate (EUR 11.7250)', () => {
    // EUR 100.00 is NOK 1 172.50.
    expect(approvesAlone(payment('EUR', 100_00n), nok(1_172_50n), DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('EUR', 100_00n), nok(1_172_49n), DEFAULT_NOK_RATES)).toBe(false);
    expect(approvesAlone(payment('EUR', 100_00n), nok(1_000_00n), DEFAULT_NOK_RATES)).toBe(false);
    // JPY has no decimals: JPY 10 000 at 0.0680 is NOK 680.00.
    expect(approvesAlone(payment('JPY', 10_000n), nok(680_00n), DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('JPY', 10_001n), nok(680_00n), DEFAULT_NOK_RATES)).toBe(false);
  });

  it('compares a NOK payment against a limit in another currency, in NOK', () => {
    // A limit of EUR 1 000.00 is NOK 11 725.00.
    expect(approvesAlone(payment('NOK', 11_725_00n), { currency: 'EUR', minor: 1_000_00n }, DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('NOK', 11_725_01n), { currency: 'EUR', minor: 1_000_00n }, DEFAULT_NOK_RATES)).toBe(false);
  });

  it('follows the rate table it is given, not the default', () => {
    const rates: NokRates = {
      asOf: '2026-11-20',
      rates: new Map([
        ['NOK', '1'],
        ['EUR', '10'],
      ]),
    };
    expect(approvesAlone(payment('EUR', 100_00n), nok(1_000_00n), rates)).toBe(true);
    expect(approvesAlone(payment('EUR', 100_00n), nok(1_000_00n), DEFAULT_NOK_RATES)).toBe(false);
  });

  it('does not approve alone when a currency has no rate: a missing rate never passes a limit', () => {
    expect(approvesAlone(payment('HUF', 1n), nok(1_000_000_00n), DEFAULT_NOK_RATES)).toBe(false);
    expect(approvesAlone(payment('NOK', 1n), { currency: 'HUF', minor: 1_000_000_00n }, DEFAULT_NOK_RATES)).toBe(false);
  });

  it('compares the same foreign currency directly, without a rate', () => {
    expect(approvesAlone(payment('HUF', 500_00n), { currency: 'HUF', minor: 500_00n }, DEFAULT_NOK_RATES)).toBe(true);
    expect(approvesAlone(payment('HUF', 500_01n), { currency: 'HUF', minor: 500_00n }, DEFAULT_NOK_RATES)).toBe(false);
  });
});

describe('isFutureDated', () => {
  const single = (requestedExecutionDate: string | undefined) => ({ service: 'payments' as const, requestedExecutionDate });
  const NOON = new Date('2026-11-20T12:00:00Z');
  // The bank clock gives the TPP's date in Oslo; these cases check both together.
  const futureAt = (payment: Parameters<typeof isFutureDated>[0], at: Date) => isFutureDated(payment, todayIn(BANK_TIME_ZONE, at));

  it('is false without a requested execution date (as soon as possible)', () => {
    expect(futureAt(single(undefined), NOON)).toBe(false);
  });

  it('is true for a date after today, false for today and earlier', () => {
    expect(futureAt(single('2026-11-21'), NOON)).toBe(true);
    expect(futureAt(single('2027-01-04'), NOON)).toBe(true);
    expect(futureAt(single('2026-11-20'), NOON)).toBe(false);
    expect(futureAt(single('2026-11-19'), NOON)).toBe(false);
  });

  it('counts days in Oslo, not UTC: after 23:00 UTC in winter it is already tomorrow', () => {
    const lateWinter = new Date('2026-11-20T23:30:00Z'); // 00:30 on 21 November in Oslo (UTC+1)
    expect(futureAt(single('2026-11-21'), lateWinter)).toBe(false);
    expect(futureAt(single('2026-11-22'), lateWinter)).toBe(true);
    const beforeMidnight = new Date('2026-11-20T22:59:59Z'); // 23:59:59 on 20 November in Oslo
    expect(futureAt(single('2026-11-21'), beforeMidnight)).toBe(true);
  });

  it('counts days in Oslo summer time (UTC+2): 22:30 UTC on 30 June is 1 July', () => {
    const lateSummer = new Date('2026-06-30T22:30:00Z');
    expect(futureAt(single('2026-07-01'), lateSummer)).toBe(false);
    expect(futureAt(single('2026-07-02'), lateSummer)).toBe(true);
  });

  it('is true for a dated bulk payment as for a single one', () => {
    expect(futureAt({ service: 'bulk-payments', requestedExecutionDate: '2026-11-23' }, NOON)).toBe(true);
  });

  it('is never true for a standing order, which is approved as a whole', () => {
    expect(futureAt({ service: 'periodic-payments', requestedExecutionDate: '2027-06-01' }, NOON)).toBe(false);
    expect(futureAt({ service: 'periodic-payments', requestedExecutionDate: undefined }, NOON)).toBe(false);
  });
});
