import { addDays, dateOf, partsOf, weekdayOf, type IsoDate } from './iso-date.js';
import { localized, type Localized } from './localized.js';

/**
 * The Norwegian settlement calendar: the days Norges Bank's settlement system (NBO) is open,
 * which are the days a Norwegian bank executes payments (norway-domain.md §4.1). NBO is closed on
 * Saturdays, Sundays, the public holidays and Christmas Eve (24 Dec, a bank-only closing day).
 * New Year's Eve (31 Dec) is an ordinary bank day, with early cut-offs that are not modelled here.
 */

/** A day NBO is closed besides weekends, named as in the bank's calendar. */
/** The time zone of the Norwegian bank day: "today" for execution dates, schedules and the sandbox. */
export const BANK_TIME_ZONE = 'Europe/Oslo';

export interface BankHoliday {
  readonly date: IsoDate;
  readonly name: Localized;
}

/** Western (Gregorian) Easter Sunday of a year, by the Meeus/Jones/Butcher algorithm. */
export function easterSunday(year: number): IsoDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dateOf(year, month, day);
}

/** The closing days of a year before merging: fixed dates and days relative to Easter Sunday. */
function closingDays(year: number): BankHoliday[] {
  const easter = easterSunday(year);
  const fixed = (month: number, day: number, en: string, nb: string): BankHoliday => ({
    date: dateOf(year, month, day),
    name: localized(en, nb),
  });
  const fromEaster = (days: number, en: string, nb: string): BankHoliday => ({ date: addDays(easter, days), name: localized(en, nb) });
  return [
    fixed(1, 1, "New Year's Day", 'Nyttårsdag'),
    fromEaster(-3, 'Maundy Thursday', 'Skjærtorsdag'),
    fromEaster(-2, 'Good Friday', 'Langfredag'),
    fromEaster(1, 'Easter Monday', '2. påskedag'),
    fixed(5, 1, 'Labour Day', 'Offentlig høytidsdag'),
    fixed(5, 17, 'Constitution Day', 'Grunnlovsdag'),
    fromEaster(39, 'Ascension Day', 'Kristi himmelfartsdag'),
    fromEaster(50, 'Whit Monday', '2. pinsedag'),
    fixed(12, 24, 'Christmas Eve (banks closed)', 'Julaften (bankene stengt)'),
    fixed(12, 25, 'Christmas Day', '1. juledag'),
    fixed(12, 26, 'Boxing Day', '2. juledag'),
  ];
}

const HOLIDAYS_BY_YEAR = new Map<number, readonly BankHoliday[]>();
const HOLIDAY_DATES_BY_YEAR = new Map<number, ReadonlySet<IsoDate>>();

/**
 * The NBO closing days of a year other than weekends, sorted by date. Two holidays on one date
 * (Whit Monday on 17 May in 2027, Ascension on 1 or 17 May in some years) are one entry whose
 * name joins both ("Constitution Day and Whit Monday"). Computed once per year and frozen.
 */
export function bankHolidays(year: number): readonly BankHoliday[] {
  const cached = HOLIDAYS_BY_YEAR.get(year);
  if (cached !== undefined) return cached;
  const byDate = new Map<IsoDate, Localized>();
  for (const { date, name } of closingDays(year)) {
    const earlier = byDate.get(date);
    byDate.set(date, earlier === undefined ? name : localized(`${earlier.en} and ${name.en}`, `${earlier.nb} og ${name.nb}`));
  }
  const holidays = Object.freeze(
    [...byDate]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, name]): BankHoliday => Object.freeze({ date, name: Object.freeze(name) })),
  );
  HOLIDAYS_BY_YEAR.set(year, holidays);
  HOLIDAY_DATES_BY_YEAR.set(year, new Set(holidays.map((holiday) => holiday.date)));
  return holidays;
}

function isBankHoliday(date: IsoDate): boolean {
  const { year } = partsOf(date);
  if (!HOLIDAY_DATES_BY_YEAR.has(year)) bankHolidays(year);
  return HOLIDAY_DATES_BY_YEAR.get(year)?.has(date) ?? false;
}

/** Whether NBO settles on a date, so a payment dated then is executed that day: a weekday that is no bank holiday. */
export function isBankDay(date: IsoDate): boolean {
  return weekdayOf(date) <= 5 && !isBankHoliday(date);
}

/**
 * The Berlin Group executionRule: what to do with a payment date that is no bank day. `following`
 * executes on the next bank day, `preceding` on the previous one.
 */
export type ExecutionRule = 'following' | 'preceding';

/** The date itself when it is a bank day, else the next (`following`) or previous (`preceding`) bank day. */
export function rollToBankDay(date: IsoDate, rule: ExecutionRule): IsoDate {
  const step = rule === 'following' ? 1 : -1;
  let day = date;
  // At most five closed days in a row (Maundy Thursday to Easter Monday), so this loop is short.
  while (!isBankDay(day)) day = addDays(day, step);
  return day;
}

/** The first bank day strictly after a date: when a payment received after cut-off is executed. */
export function nextBankDayAfter(date: IsoDate): IsoDate {
  return rollToBankDay(addDays(date, 1), 'following');
}
