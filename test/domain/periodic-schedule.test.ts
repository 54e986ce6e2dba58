import { describe, expect, it } from 'vitest';
import { isBankDay } from '../../src/domain/bank-calendar.js';
import {
  checkDayOfExecution,
  checkMonthsOfExecution,
  executionDates,
  FREQUENCIES,
  type PeriodicSchedule,
} from '../../src/domain/periodic-schedule.js';

function datesOf(schedule: PeriodicSchedule, count: number, from: string = schedule.startDate): string[] {
  return executionDates(schedule, { from, count });
}

describe('executionDates by frequency', () => {
  it.each<[string, PeriodicSchedule, number, string[]]>([
    // 24–27 Dec 2026 and 1–3 Jan 2027 are closed; Daily needs no rolling.
    [
      'Daily over Christmas',
      { startDate: '2026-12-21', frequency: 'Daily' },
      8,
      ['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-04'],
    ],
    ['Daily from Maundy Thursday', { startDate: '2026-04-02', frequency: 'Daily' }, 3, ['2026-04-07', '2026-04-08', '2026-04-09']],
    [
      'Weekly on Thursdays over Easter',
      { startDate: '2026-03-26', frequency: 'Weekly' },
      4,
      ['2026-03-26', '2026-04-07', '2026-04-09', '2026-04-16'],
    ],
    [
      'Weekly over Easter, preceding',
      { startDate: '2026-03-26', frequency: 'Weekly', executionRule: 'preceding' },
      4,
      ['2026-03-26', '2026-04-01', '2026-04-09', '2026-04-16'],
    ],
    [
      'EveryTwoWeeks over Christmas',
      { startDate: '2026-12-10', frequency: 'EveryTwoWeeks' },
      3,
      ['2026-12-10', '2026-12-28', '2027-01-07'],
    ],
    [
      'EveryTwoWeeks over Christmas, preceding',
      { startDate: '2026-12-10', frequency: 'EveryTwoWeeks', executionRule: 'preceding' },
      3,
      ['2026-12-10', '2026-12-23', '2027-01-07'],
    ],
    [
      'Monthly on the 15th, twelve dates (Sundays and a Saturday roll to Monday)',
      { startDate: '2026-01-15', frequency: 'Monthly' },
      12,
      [
        '2026-01-15',
        '2026-02-16',
        '2026-03-16',
        '2026-04-15',
        '2026-05-15',
        '2026-06-15',
        '2026-07-15',
        '2026-08-17',
        '2026-09-15',
        '2026-10-15',
        '2026-11-16',
        '2026-12-15',
      ],
    ],
    [
      'EveryTwoMonths',
      { startDate: '2026-01-15', frequency: 'EveryTwoMonths' },
      4,
      ['2026-01-15', '2026-03-16', '2026-05-15', '2026-07-15'],
    ],
    [
      'Quarterly from a Sunday',
      { startDate: '2026-02-15', frequency: 'Quarterly' },
      4,
      ['2026-02-16', '2026-05-15', '2026-08-17', '2026-11-16'],
    ],
    ['SemiAnnual', { startDate: '2026-01-15', frequency: 'SemiAnnual' }, 4, ['2026-01-15', '2026-07-15', '2027-01-15', '2027-07-15']],
    // 17 May (Constitution Day) is never a bank day; in 2026 it is a Sunday, in 2027 also Whit Monday.
    ['Annual on 17 May', { startDate: '2026-05-17', frequency: 'Annual' }, 3, ['2026-05-18', '2027-05-18', '2028-05-18']],
    [
      'Annual with a dayOfExecution before startDate’s day starts next year',
      { startDate: '2026-06-10', frequency: 'Annual', dayOfExecution: 1 },
      2,
      ['2027-06-01', '2028-06-01'],
    ],
    [
      'MonthlyVariable January, April, October',
      { startDate: '2026-01-15', frequency: 'MonthlyVariable', monthsOfExecution: [1, 4, 10] },
      6,
      ['2026-01-15', '2026-04-15', '2026-10-15', '2027-01-15', '2027-04-15', '2027-10-15'],
    ],
    [
      'MonthlyVariable ultimo, months in any order, from May',
      { startDate: '2026-05-01', frequency: 'MonthlyVariable', monthsOfExecution: [10, 4, 1], dayOfExecution: 31 },
      3,
      ['2026-11-02', '2027-02-01', '2027-04-30'],
    ],
  ])('%s', (_name, schedule, count, expected) => {
    expect(datesOf(schedule, count)).toEqual(expected);
  });

  it('covers every frequency above', () => {
    expect(FREQUENCIES).toEqual([
      'Daily',
      'Weekly',
      'EveryTwoWeeks',
      'Monthly',
      'EveryTwoMonths',
      'Quarterly',
      'SemiAnnual',
      'Annual',
      'MonthlyVariable',
    ]);
  });
});

describe('executionDates day of the month', () => {
  it.each<[string, PeriodicSchedule, number, string[]]>([
    // norway-domain.md §4.2: ultimo February 2026 is Saturday the 28th.
    [
      '31 in February 2026, following',
      { startDate: '2026-02-01', frequency: 'Monthly', dayOfExecution: 31 },
      2,
      ['2026-03-02', '2026-03-31'],
    ],
    [
      '31 in February 2026, preceding',
      { startDate: '2026-02-01', frequency: 'Monthly', dayOfExecution: 31, executionRule: 'preceding' },
      2,
      ['2026-02-27', '2026-03-31'],
    ],
    [
      '31 rolls out of January (2026-01-31 is a Saturday)',
      { startDate: '2026-01-01', frequency: 'Monthly', dayOfExecution: 31 },
      3,
      ['2026-02-02', '2026-03-02', '2026-03-31'],
    ],
    [
      '30 from startDate clamps to 28 February',
      { startDate: '2026-01-30', frequency: 'Monthly' },
      3,
      ['2026-01-30', '2026-03-02', '2026-03-30'],
    ],
    [
      '30 clamped, preceding',
      { startDate: '2026-01-30', frequency: 'Monthly', executionRule: 'preceding' },
      3,
      ['2026-01-30', '2026-02-27', '2026-03-30'],
    ],
    ['29 in February 2026', { startDate: '2026-02-01', frequency: 'Monthly', dayOfExecution: 29 }, 1, ['2026-03-02']],
    ['31 in leap February 2028', { startDate: '2028-02-01', frequency: 'Monthly', dayOfExecution: 31 }, 2, ['2028-02-29', '2028-03-31']],
    ['30 in leap February 2028', { startDate: '2028-02-01', frequency: 'Monthly', dayOfExecution: 30 }, 1, ['2028-02-29']],
    ['29 in leap February 2028', { startDate: '2028-02-01', frequency: 'Monthly', dayOfExecution: 29 }, 1, ['2028-02-29']],
    [
      'startDate 31 January steps to ultimo each month',
      { startDate: '2028-01-31', frequency: 'Monthly' },
      4,
      ['2028-01-31', '2028-02-29', '2028-03-31', '2028-05-02'],
    ],
  ])('%s', (_name, schedule, count, expected) => {
    expect(datesOf(schedule, count)).toEqual(expected);
  });
});

describe('executionDates over holidays', () => {
  it.each<[string, PeriodicSchedule, string[]]>([
    ['24th over Christmas, following', { startDate: '2026-11-24', frequency: 'Monthly' }, ['2026-11-24', '2026-12-28', '2027-01-25']],
    [
      '24th over Christmas, preceding',
      { startDate: '2026-11-24', frequency: 'Monthly', executionRule: 'preceding' },
      ['2026-11-24', '2026-12-23', '2027-01-22'],
    ],
    ['25th, following', { startDate: '2026-12-01', frequency: 'Monthly', dayOfExecution: 25 }, ['2026-12-28', '2027-01-25', '2027-02-25']],
    [
      '26th, preceding',
      { startDate: '2026-12-01', frequency: 'Monthly', dayOfExecution: 26, executionRule: 'preceding' },
      ['2026-12-23', '2027-01-26', '2027-02-26'],
    ],
    ['2nd over Easter 2026, following', { startDate: '2026-03-02', frequency: 'Monthly' }, ['2026-03-02', '2026-04-07', '2026-05-04']],
    [
      '2nd over Easter 2026, preceding',
      { startDate: '2026-03-02', frequency: 'Monthly', executionRule: 'preceding' },
      ['2026-03-02', '2026-04-01', '2026-04-30'],
    ],
  ])('%s', (_name, schedule, expected) => {
    expect(datesOf(schedule, 3)).toEqual(expected);
  });

  it('skips a date rolled back before startDate', () => {
    // 2026-04-02 (Maundy Thursday) precedes to 2026-04-01, the day before the start.
    expect(datesOf({ startDate: '2026-04-02', frequency: 'Weekly', executionRule: 'preceding' }, 2)).toEqual(['2026-04-09', '2026-04-16']);
  });
});

describe('executionDates limits', () => {
  const monthly: PeriodicSchedule = { startDate: '2026-01-15', frequency: 'Monthly' };

  it.each([
    ['2026-06-15', 6],
    ['2026-06-14', 5],
    ['2026-01-15', 1],
    ['2026-01-14', 0],
  ])('stops at endDate %s (%i dates)', (endDate, length) => {
    expect(datesOf({ ...monthly, endDate }, 12)).toHaveLength(length);
  });

  // endDate is "the last applicable day of execution" (BG): a date rolled past it is dropped, as one rolled before startDate is.
  it.each<[string, PeriodicSchedule, string[]]>([
    [
      'Monthly ultimo ending on Saturday 31 July 2027, following',
      { startDate: '2027-05-01', endDate: '2027-07-31', frequency: 'Monthly', dayOfExecution: 31 },
      ['2027-05-31', '2027-06-30'],
    ],
    [
      'Monthly ultimo ending on Saturday 31 July 2027, preceding',
      { startDate: '2027-05-01', endDate: '2027-07-31', frequency: 'Monthly', dayOfExecution: 31, executionRule: 'preceding' },
      ['2027-05-31', '2027-06-30', '2027-07-30'],
    ],
    [
      'Monthly ending on Christmas Eve, following',
      { startDate: '2026-11-24', endDate: '2026-12-24', frequency: 'Monthly' },
      ['2026-11-24'],
    ],
    [
      'Monthly ending on Christmas Eve, preceding',
      { startDate: '2026-11-24', endDate: '2026-12-24', frequency: 'Monthly', executionRule: 'preceding' },
      ['2026-11-24', '2026-12-23'],
    ],
    // The first date rolls back before startDate and is dropped; the last stays within endDate.
    [
      'Weekly from Maundy Thursday, preceding, ending a week on',
      { startDate: '2026-04-02', endDate: '2026-04-09', frequency: 'Weekly', executionRule: 'preceding' },
      ['2026-04-09'],
    ],
  ])('drops a date moved past endDate (%s)', (_name, schedule, expected) => {
    expect(datesOf(schedule, 12)).toEqual(expected);
  });

  it.each<[string, PeriodicSchedule]>([
    // 2026-12-12 is a Saturday: following moves it to Monday the 14th, after endDate; preceding to Friday the 11th, before startDate.
    ['following', { startDate: '2026-12-12', endDate: '2026-12-12', frequency: 'Monthly' }],
    ['preceding', { startDate: '2026-12-12', endDate: '2026-12-12', frequency: 'Monthly', executionRule: 'preceding' }],
    ['following, Weekly ending on the Sunday', { startDate: '2026-12-12', endDate: '2026-12-13', frequency: 'Weekly' }],
  ])('has no date when the only one moves outside [startDate, endDate] (%s)', (_name, schedule) => {
    expect(datesOf(schedule, 12)).toEqual([]);
  });

  it.each<[string, PeriodicSchedule, string, string[]]>([
    ['Monthly', monthly, '2026-07-01', ['2026-07-15', '2026-08-17', '2026-09-15']],
    [
      'Quarterly years later',
      { startDate: '2026-01-15', frequency: 'Quarterly' },
      '2030-05-01',
      ['2030-07-15', '2030-10-15', '2031-01-15'],
    ],
    ['Weekly', { startDate: '2026-01-01', frequency: 'Weekly' }, '2026-12-20', ['2026-12-28', '2026-12-31', '2027-01-07']],
    // The Thursday 24 December rolls forward onto 28 December, after `from`.
    [
      'Weekly, a date rolled into from',
      { startDate: '2026-01-01', frequency: 'Weekly' },
      '2026-12-26',
      ['2026-12-28', '2026-12-31', '2027-01-07'],
    ],
    // 2026-01-31 rolls to 2026-02-02, before `from`; 2026-02-28 rolls to 2026-03-02, after it.
    [
      'Monthly ultimo, rolled',
      { startDate: '2026-01-01', frequency: 'Monthly', dayOfExecution: 31 },
      '2026-03-01',
      ['2026-03-02', '2026-03-31', '2026-04-30'],
    ],
    [
      'Monthly ultimo, rolled back before from',
      { startDate: '2026-01-01', frequency: 'Monthly', dayOfExecution: 31, executionRule: 'preceding' },
      '2026-02-28',
      ['2026-03-31', '2026-04-30', '2026-05-29'],
    ],
    ['Daily', { startDate: '2026-01-01', frequency: 'Daily' }, '2026-12-24', ['2026-12-28', '2026-12-29', '2026-12-30']],
    [
      'MonthlyVariable',
      { startDate: '2026-01-15', frequency: 'MonthlyVariable', monthsOfExecution: [1, 4, 10] },
      '2026-05-01',
      ['2026-10-15', '2027-01-15', '2027-04-15'],
    ],
    // `from` before startDate changes nothing.
    ['from before startDate', monthly, '2020-01-01', ['2026-01-15', '2026-02-16', '2026-03-16']],
  ])('starts at from (%s)', (_name, schedule, from, expected) => {
    expect(datesOf(schedule, 3, from)).toEqual(expected);
  });

  it('returns nothing for count 0, for endDate before startDate and for MonthlyVariable without months', () => {
    expect(datesOf(monthly, 0)).toEqual([]);
    expect(datesOf({ ...monthly, endDate: '2025-12-31' }, 3)).toEqual([]);
    expect(datesOf({ startDate: '2026-01-15', frequency: 'MonthlyVariable', monthsOfExecution: [] }, 3)).toEqual([]);
    expect(datesOf({ startDate: '2026-01-15', frequency: 'MonthlyVariable' }, 3)).toEqual([]);
  });

  it('ends at year 9999 and within 100 years of the start of the search', () => {
    expect(datesOf({ startDate: '9999-11-30', frequency: 'Monthly' }, 5)).toEqual(['9999-11-30', '9999-12-30']);
    expect(datesOf({ startDate: '9999-12-29', frequency: 'Daily' }, 5)).toEqual(['9999-12-29', '9999-12-30', '9999-12-31']);
    expect(datesOf({ startDate: '9999-12-20', frequency: 'Weekly' }, 5)).toEqual(['9999-12-20', '9999-12-27']);
    const daily = datesOf({ startDate: '2026-01-01', frequency: 'Daily' }, 1_000_000);
    expect(daily.at(-1)! <= '2126-12-31').toBe(true);
    expect(daily.length).toBeGreaterThan(25_000);
  });

  it.each<PeriodicSchedule>([
    { startDate: '2026-01-31', frequency: 'Monthly', executionRule: 'preceding' },
    { startDate: '2026-03-26', frequency: 'Weekly' },
    { startDate: '2026-12-24', frequency: 'EveryTwoWeeks', executionRule: 'preceding' },
    { startDate: '2026-02-28', frequency: 'MonthlyVariable', monthsOfExecution: [2, 3, 5, 12], dayOfExecution: 31 },
  ])('gives strictly increasing bank days on or after startDate (%j)', (schedule) => {
    const dates = datesOf(schedule, 60);
    expect(dates).toHaveLength(60);
    for (const [index, date] of dates.entries()) {
      expect(isBankDay(date)).toBe(true);
      expect(date >= schedule.startDate).toBe(true);
      if (index > 0) expect(date > dates[index - 1]!).toBe(true);
    }
  });

  it('throws RangeError for a dayOfExecution or month the check functions refuse', () => {
    expect(() => datesOf({ ...monthly, dayOfExecution: 32 }, 1)).toThrow(RangeError);
    expect(() => datesOf({ startDate: '2026-01-15', frequency: 'MonthlyVariable', monthsOfExecution: [13] }, 1)).toThrow(RangeError);
  });
});

describe('checkMonthsOfExecution', () => {
  it.each([
    [
      ['1', '4', '10'],
      [1, 4, 10],
    ],
    [['12'], [12]],
    [
      ['10', '1'],
      [10, 1],
    ],
    [
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    ],
  ])('accepts %j', (values, months) => {
    expect(checkMonthsOfExecution(values)).toEqual({ ok: true, value: months });
  });

  it.each([
    [['4', '1', '4'], 'month "4" is listed more than once', 'måneden "4" står mer enn én gang'],
    [['13'], '"13" is not a month; months are "1" to "12"', '"13" er ikke en måned'],
    [['0'], '"0" is not a month', '"0" er ikke en måned'],
    [['00'], '"00" is not a month', '"00" er ikke en måned'],
    [['1', ' 2'], '" 2" is not a month', '" 2" er ikke en måned'],
    [['1.0'], '"1.0" is not a month', '"1.0" er ikke en måned'],
    [['04'], 'month "04" must be written without a leading zero, like "4"', 'måneden "04" må skrives uten innledende null, som "4"'],
    [[], 'must list at least one month', 'må inneholde minst én måned'],
    [
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'],
      'must list at most 11 months (all 12 is frequency Monthly), got 12',
      'kan inneholde høyst 11 måneder',
    ],
  ])('refuses %j: %s', (values, en, nb) => {
    const result = checkMonthsOfExecution(values);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('checkDayOfExecution', () => {
  it.each([
    ['1', 1],
    ['9', 9],
    ['10', 10],
    ['29', 29],
    ['31', 31],
  ])('accepts "%s"', (value, day) => {
    expect(checkDayOfExecution(value)).toEqual({ ok: true, value: day });
  });

  it.each([
    ['05', 'must be written without a leading zero, like "5", got "05"', 'må skrives uten innledende null, som "5", men er "05"'],
    ['031', 'without a leading zero, like "31"', 'uten innledende null'],
    ['0', 'must be a day of the month, "1" to "31", got "0"', 'må være en dag i måneden, "1" til "31", men er "0"'],
    ['00', 'must be a day of the month', 'må være en dag i måneden'],
    ['32', 'must be a day of the month, "1" to "31", got "32"', 'men er "32"'],
    ['', 'must be a day of the month', 'må være en dag i måneden'],
    ['+5', 'must be a day of the month', 'må være en dag i måneden'],
    ['1.5', 'must be a day of the month', 'må være en dag i måneden'],
    ['ultimo', 'must be a day of the month', 'må være en dag i måneden'],
  ])('refuses "%s": %s', (value, en, nb) => {
    const result = checkDayOfExecution(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
