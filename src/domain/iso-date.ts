import { fail, localized, pass, type Check, type Localized } from './localized.js';

/**
 * A calendar date written `YYYY-MM-DD` (ISO 8601, the Berlin Group ISODate), with no time and no
 * zone. Always four year digits and two month and day digits, so two dates compare correctly as
 * plain strings: `a < b` exactly when a is the earlier day. The arithmetic below works on day
 * numbers (days since 1970-01-01) with integer formulas, never on Date, so no local time zone or
 * daylight-saving shift can move a date.
 */
export type IsoDate = string;

/** The years {@link checkIsoDate} accepts from outside; arithmetic works on 0000–9999. */
const MIN_ACCEPTED_YEAR = 1900;
const MAX_YEAR = 9999;

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

const MONTH_NAMES: readonly Localized[] = [
  localized('January', 'januar'),
  localized('February', 'februar'),
  localized('March', 'mars'),
  localized('April', 'april'),
  localized('May', 'mai'),
  localized('June', 'juni'),
  localized('July', 'juli'),
  localized('August', 'august'),
  localized('September', 'september'),
  localized('October', 'oktober'),
  localized('November', 'november'),
  localized('December', 'desember'),
];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The number of days in a month (1–12) of a Gregorian year: 28–31. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isValidParts(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 0 &&
    year <= MAX_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** The date of a year, month (1–12) and day; throws RangeError for a day that does not exist. */
export function dateOf(year: number, month: number, day: number): IsoDate {
  if (!isValidParts(year, month, day)) throw new RangeError(`Not a calendar date: ${year}-${month}-${day}`);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The year, month (1–12) and day of a date; throws RangeError for text that is not a date. */
export function partsOf(date: IsoDate): { year: number; month: number; day: number } {
  const match = ISO_DATE.exec(date);
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  const day = Number(match?.[3]);
  if (match === null || !isValidParts(year, month, day)) throw new RangeError(`Not an ISO date: ${date}`);
  return { year, month, day };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function dayNumberOf(date: IsoDate): number {
  const { year, month, day } = partsOf(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The date of a day number (H. Hinnant's civil_from_days), the inverse of dayNumberOf. */
function dateOfDayNumber(dayNumber: number): IsoDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return dateOf(year, month, day);
}

/** The date a whole number of days later (negative: earlier); throws RangeError past year 9999. */
export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`);
  return dateOfDayNumber(dayNumberOf(date) + days);
}

/** The number of days from `from` to `to`: positive when `to` is later, 0 for the same day. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumberOf(to) - dayNumberOf(from);
}

/** The ISO weekday of a date: 1 = Monday … 6 = Saturday, 7 = Sunday. */
export function weekdayOf(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  return ((((dayNumberOf(date) + 3) % 7) + 7) % 7) + 1;
}

/**
 * Checks a date from a request: exactly `YYYY-MM-DD`, a day that exists in the Gregorian calendar
 * (2026-02-30 does not, 2028-02-29 does), in the years 1900–9999.
 */
export function checkIsoDate(text: string): Check<IsoDate> {
  const match = ISO_DATE.exec(text);
  if (match === null) {
    if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ]/.test(text)) {
      return fail(
        localized(
          `must be a date without a time, written YYYY-MM-DD, got "${text}"`,
          `må være en dato uten klokkeslett, på formen ÅÅÅÅ-MM-DD, men er "${text}"`,
        ),
      );
    }
    return fail(
      localized(
        `must be a date written YYYY-MM-DD, like 2026-05-17, got "${text}"`,
        `må være en dato på formen ÅÅÅÅ-MM-DD, som 2026-05-17, men er "${text}"`,
      ),
    );
  }
  const [, yearText = '', monthText = '', dayText = ''] = match;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (year < MIN_ACCEPTED_YEAR) {
    return fail(
      localized(
        `the year must be ${MIN_ACCEPTED_YEAR} to ${MAX_YEAR}, got ${yearText}`,
        `året må være ${MIN_ACCEPTED_YEAR} til ${MAX_YEAR}, men er ${yearText}`,
      ),
    );
  }
  if (month < 1 || month > 12) {
    return fail(localized(`the month must be 01 to 12, got ${monthText}`, `måneden må være 01 til 12, men er ${monthText}`));
  }
  const lastDay = daysInMonth(year, month);
  if (day < 1 || day > lastDay) {
    const name = MONTH_NAMES[month - 1] ?? localized(monthText);
    return fail(
      localized(
        `${text} is not a calendar date: the day must be 01 to ${lastDay} in ${name.en} ${year}, got ${dayText}`,
        `${text} er ikke en dato: dagen må være 01 til ${lastDay} i ${name.nb} ${year}, men er ${dayText}`,
      ),
    );
  }
  return pass(text);
}

/** One formatter per zone: building an Intl.DateTimeFormat is far slower than using one. */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

/** Per zone, the second (since the epoch) last asked for in {@link todayIn} and its date there. */
const LAST_DATES = new Map<string, { readonly second: number; readonly date: IsoDate }>();

/**
 * The calendar date at the instant `now` in an IANA time zone, such as the bank's Europe/Oslo:
 * 2026-11-20T23:30:00Z is already 2026-11-21 there. The caller passes the clock's `now`, so this
 * stays pure. Throws RangeError for an unknown zone or an invalid Date.
 */
export function todayIn(timeZone: string, now: Date): IsoDate {
  // Zone offsets are whole seconds, so the date is the same all through a second: the last answer
  // per zone is kept for its second (a request asks several times; formatToParts is costly).
  const second = Math.floor(now.getTime() / 1000);
  const last = LAST_DATES.get(timeZone);
  if (last !== undefined && last.second === second) return last.date;
  const parts = formatterFor(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  const date = dateOf(part('year'), part('month'), part('day'));
  LAST_DATES.set(timeZone, { second, date });
  return date;
}
