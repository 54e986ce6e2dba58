import { describe, expect, it } from 'vitest';
import { bankHolidays, easterSunday, isBankDay, nextBankDayAfter, rollToBankDay } from '../../src/domain/bank-calendar.js';
import { addDays, checkIsoDate, dateOf, daysBetween, daysInMonth, partsOf, todayIn, weekdayOf } from '../../src/domain/iso-date.js';

// The calendar rests on iso-date.ts, so its date arithmetic is tested here first.
describe('checkIsoDate', () => {
  it.each(['2026-01-01', '2028-02-29', '2000-02-29', '1900-01-01', '9999-12-31', '2026-04-30'])('accepts %s', (text) => {
    expect(checkIsoDate(text)).toEqual({ ok: true, value: text });
  });

  it.each([
    ['2026-02-30', 'the day must be 01 to 28 in February 2026, got 30', 'dagen må være 01 til 28 i februar 2026, men er 30'],
    ['2026-02-29', 'the day must be 01 to 28 in February 2026, got 29', 'februar 2026'],
    ['1900-02-29', 'the day must be 01 to 28 in February 1900, got 29', 'februar 1900'],
    ['2026-04-31', 'the day must be 01 to 30 in April 2026, got 31', 'april 2026'],
    ['2026-01-00', 'the day must be 01 to 31 in January 2026, got 00', 'men er 00'],
    ['2026-13-01', 'the month must be 01 to 12, got 13', 'måneden må være 01 til 12, men er 13'],
    ['2026-00-10', 'the month must be 01 to 12, got 00', 'men er 00'],
    ['1899-12-31', 'the year must be 1900 to 9999, got 1899', 'året må være 1900 til 9999, men er 1899'],
    ['2026-1-5', 'must be a date written YYYY-MM-DD', 'må være en dato på formen ÅÅÅÅ-MM-DD'],
    ['20260105', 'must be a date written YYYY-MM-DD', 'ÅÅÅÅ-MM-DD'],
    ['', 'must be a date written YYYY-MM-DD', 'ÅÅÅÅ-MM-DD'],
    [' 2026-01-05', 'must be a date written YYYY-MM-DD', 'ÅÅÅÅ-MM-DD'],
    ['12026-01-05', 'must be a date written YYYY-MM-DD', 'ÅÅÅÅ-MM-DD'],
    ['2026-01-05T10:00:00Z', 'must be a date without a time', 'må være en dato uten klokkeslett'],
  ])('refuses "%s": %s', (text, en, nb) => {
    const result = checkIsoDate(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});

describe('date arithmetic', () => {
  it('agrees with Date.UTC on weekday, day steps and differences for 1900 to 2100', () => {
    const origin = Date.UTC(2026, 0, 1);
    for (let day = -46_000; day <= 27_000; day += 7) {
      const utc = new Date(origin + day * 86_400_000);
      const date = utc.toISOString().slice(0, 10);
      expect(addDays('2026-01-01', day)).toBe(date);
      expect(daysBetween('2026-01-01', date)).toBe(day);
      expect(weekdayOf(date)).toBe(utc.getUTCDay() === 0 ? 7 : utc.getUTCDay());
    }
  });

  it.each([
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-05-17', 0, '2026-05-17'],
  ])('addDays(%s, %i) is %s', (date, days, result) => {
    expect(addDays(date, days)).toBe(result);
  });

  it.each([
    ['2026-11-23', 1],
    ['2026-11-27', 5],
    ['2026-11-28', 6],
    ['2026-11-29', 7],
    ['9999-12-31', 5],
  ])('weekdayOf(%s) is %i', (date, weekday) => {
    expect(weekdayOf(date)).toBe(weekday);
  });

  it.each([
    [2026, 2, 28],
    [2028, 2, 29],
    [1900, 2, 28],
    [2000, 2, 29],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('daysInMonth(%i, %i) is %i', (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });

  it('builds and takes apart dates', () => {
    expect(dateOf(2026, 5, 7)).toBe('2026-05-07');
    expect(partsOf('2026-05-07')).toEqual({ year: 2026, month: 5, day: 7 });
    expect(() => dateOf(2026, 2, 29)).toThrow(RangeError);
    expect(() => partsOf('2026-5-7')).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError);
  });

  it('compares as strings in date order', () => {
    expect('2026-09-30' < '2026-10-01').toBe(true);
    expect('2026-12-31' < '2027-01-01').toBe(true);
  });
});

describe('todayIn', () => {
  it.each([
    ['Europe/Oslo', '2026-11-20T23:30:00Z', '2026-11-21'],
    ['Europe/Oslo', '2026-11-20T22:59:59Z', '2026-11-20'],
    // Summer time: UTC+2.
    ['Europe/Oslo', '2026-06-30T22:00:00Z', '2026-07-01'],
    ['Europe/Oslo', '2026-06-30T21:59:59Z', '2026-06-30'],
    ['UTC', '2026-11-20T23:30:00Z', '2026-11-20'],
    ['America/New_York', '2027-01-01T03:00:00Z', '2026-12-31'],
  ])('in %s at %s it is %s', (zone, instant, date) => {
    expect(todayIn(zone, new Date(instant))).toBe(date);
  });

  it('throws RangeError for an unknown zone', () => {
    expect(() => todayIn('Europe/Atlantis', new Date('2026-11-20T12:00:00Z'))).toThrow(RangeError);
  });
});

describe('easterSunday', () => {
  it.each([
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    // The latest and earliest possible dates, and a far year.
    [2038, '2038-04-25'],
    [2285, '2285-03-22'],
    [2000, '2000-04-23'],
    [1900, '1900-04-15'],
  ])('%i: %s', (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });
});

describe('bankHolidays', () => {
  it('lists the NBO closing days of 2026 (norway-domain.md §4.1), without 31 December', () => {
    expect(bankHolidays(2026).map(({ date, name }) => [date, name.nb])).toEqual([
      ['2026-01-01', 'Nyttårsdag'],
      ['2026-04-02', 'Skjærtorsdag'],
      ['2026-04-03', 'Langfredag'],
      ['2026-04-06', '2. påskedag'],
      ['2026-05-01', 'Offentlig høytidsdag'],
      ['2026-05-14', 'Kristi himmelfartsdag'],
      ['2026-05-17', 'Grunnlovsdag'],
      ['2026-05-25', '2. pinsedag'],
      ['2026-12-24', 'Julaften (bankene stengt)'],
      ['2026-12-25', '1. juledag'],
      ['2026-12-26', '2. juledag'],
    ]);
  });

  it('lists 2027 with Whit Monday and Constitution Day on 17 May as one entry', () => {
    const holidays = bankHolidays(2027);
    expect(holidays.map(({ date }) => date)).toEqual([
      '2027-01-01',
      '2027-03-25',
      '2027-03-26',
      '2027-03-29',
      '2027-05-01',
      '2027-05-06',
      '2027-05-17',
      '2027-12-24',
      '2027-12-25',
      '2027-12-26',
    ]);
    expect(holidays.find(({ date }) => date === '2027-05-17')?.name).toEqual({
      en: 'Constitution Day and Whit Monday',
      nb: 'Grunnlovsdag og 2. pinsedag',
    });
  });

  it('gives English names too', () => {
    expect(bankHolidays(2026)[0]?.name.en).toBe("New Year's Day");
    expect(bankHolidays(2026).find(({ date }) => date === '2026-12-24')?.name.en).toContain('Christmas Eve');
  });

  it('returns the same frozen list for a year every time', () => {
    expect(bankHolidays(2030)).toBe(bankHolidays(2030));
    expect(Object.isFrozen(bankHolidays(2030))).toBe(true);
  });

  it.each([
    ['2008-05-01', 'Labour Day and Ascension Day'],
    ['2007-05-17', 'Constitution Day and Ascension Day'],
  ])('merges two holidays on %s into one entry', (date, en) => {
    const onDate = bankHolidays(Number(date.slice(0, 4))).filter((holiday) => holiday.date === date);
    expect(onDate.map(({ name }) => name.en)).toEqual([en]);
  });
});

describe('isBankDay', () => {
  it.each([
    ['2026-12-31', 'New Year’s Eve is an ordinary bank day'],
    ['2026-12-23', 'the day before Christmas Eve'],
    ['2026-04-01', 'the Wednesday before Easter'],
    ['2026-04-07', 'the Tuesday after Easter'],
    ['2027-01-04', 'the first Monday of 2027'],
  ])('%s is a bank day (%s)', (date) => {
    expect(isBankDay(date)).toBe(true);
  });

  it.each([
    ['2026-12-24', 'Christmas Eve, a bank-only closing day'],
    ['2027-05-17', 'Constitution Day and Whit Monday'],
    ['2026-04-03', 'Good Friday'],
    ['2026-04-02', 'Maundy Thursday'],
    ['2026-05-14', 'Ascension Day'],
    ['2026-11-21', 'a Saturday'],
    ['2026-11-22', 'a Sunday'],
    ['2027-01-01', "New Year's Day"],
  ])('%s is not a bank day (%s)', (date) => {
    expect(isBankDay(date)).toBe(false);
  });
});

describe('rollToBankDay', () => {
  it.each([
    // norway-domain.md §4.1, roll examples.
    ['2026-04-02', 'following', '2026-04-07'],
    ['2026-04-02', 'preceding', '2026-04-01'],
    ['2026-12-24', 'following', '2026-12-28'],
    ['2026-12-24', 'preceding', '2026-12-23'],
    ['2026-12-31', 'following', '2026-12-31'],
    ['2026-12-31', 'preceding', '2026-12-31'],
    ['2027-01-01', 'following', '2027-01-04'],
    ['2027-05-17', 'preceding', '2027-05-14'],
    // Across a year end and from a Saturday.
    ['2027-01-01', 'preceding', '2026-12-31'],
    ['2026-11-21', 'following', '2026-11-23'],
    ['2026-11-21', 'preceding', '2026-11-20'],
  ] as const)('%s %s → %s', (date, rule, rolled) => {
    expect(rollToBankDay(date, rule)).toBe(rolled);
  });
});

describe('nextBankDayAfter', () => {
  it.each([
    ['2026-11-20', '2026-11-23'],
    ['2026-11-23', '2026-11-24'],
    ['2026-12-23', '2026-12-28'],
    ['2026-12-31', '2027-01-04'],
    ['2026-04-01', '2026-04-07'],
  ])('%s → %s', (date, next) => {
    expect(nextBankDayAfter(date)).toBe(next);
  });
});
