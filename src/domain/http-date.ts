import { daysBetween, daysInMonth, dateOf, weekdayOf } from './iso-date.js';
import { fail, localized, pass, type Check, type Localized } from './localized.js';

/** The weekdays from Sunday, 0 to 6 (an ISO weekday modulo 7, Sunday's 7 being 0); a day's short name is its first three letters. */
const WEEKDAYS: readonly Localized[] = [
  localized('Sunday', 'søndag'),
  localized('Monday', 'mandag'),
  localized('Tuesday', 'tirsdag'),
  localized('Wednesday', 'onsdag'),
  localized('Thursday', 'torsdag'),
  localized('Friday', 'fredag'),
  localized('Saturday', 'lørdag'),
];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;

const EPOCH = '1970-01-01';
const DAY_MS = 86_400_000;

// The three forms of RFC 9110 §5.6.7, names in any letter case (strict in meaning, liberal in form):
// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, also as RFC 5322 and Java's RFC_1123_DATE_TIME write
// it (one-digit day, no weekday, no seconds); obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`;
// asctime `Sun Nov  6 08:49:37 1994` (GMT, day space-padded).
const IMF_FIXDATE = /^(?:([a-z]{3}), *)?(\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? GMT$/i;
const RFC_850 = /^([a-z]{6,9}), (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
const ASCTIME = /^([a-z]{3}) ([a-z]{3}) ( \d|\d{2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

const EXAMPLE = 'Mon, 02 Jun 2025 10:00:00 GMT';

interface Fields {
  /** 0 = Sunday … 6 = Saturday. */
  readonly weekday: number | undefined;
  readonly day: number;
  /** 1 = January … 12 = December. */
  readonly month: number;
  readonly year: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/**
 * Reads an HTTP-date (RFC 9110 §5.6.7) in any of its three formats, as a recipient must, with the
 * same calendar checks for each: a day the month has, hours 00–23, minutes and seconds 00–59, and
 * a weekday, when given, that is the date's. A leap second (`23:59:60`, which RFC 9110 allows) is
 * taken only at 23:59 and read as the next second (00:00:00 of the next day), the instant a clock without leap seconds shows.
 * `now` places RFC 850's two-digit year: more than 50 years ahead means the century before.
 */
export function parseHttpDate(text: string, now: Date): Check<Date> {
  const value = text.trim();
  const fields = fieldsOf(value, now);
  if (fields === undefined) {
    return fail(localized(`Date must be an HTTP date such as "${EXAMPLE}"`, `Date må være en HTTP-dato, for eksempel "${EXAMPLE}"`));
  }
  const { weekday, day, month, year, hour, minute, second } = fields;
  // Only a refusal names the date.
  const written = () => `${day} ${capitalised(MONTHS[month - 1] ?? '')} ${year}`;
  if (day < 1 || day > daysInMonth(year, month)) {
    return fail(localized(`Date names ${written()}, which is not a real date`, `Date angir ${written()}, som ikke er en virkelig dato`));
  }
  const leapSecond = second === 60 && hour === 23 && minute === 59;
  if (hour > 23 || minute > 59 || (second > 59 && !leapSecond)) {
    const clock = `${pad(hour)}:${pad(minute)}:${pad(second)}`;
    return fail(
      localized(`Date names the time ${clock}, which is not a time of day`, `Date angir klokkeslettet ${clock}, som ikke finnes`),
    );
  }
  const date = dateOf(year, month, day);
  // weekdayOf counts ISO weekdays, 7 for Sunday.
  const actual = weekdayOf(date) % 7;
  if (weekday !== undefined && weekday !== actual) {
    return fail(
      localized(
        `the weekday in Date does not match the date: ${written()} is a ${WEEKDAYS[actual]?.en ?? ''}`,
        `ukedagen i Date stemmer ikke med datoen: ${written()} er en ${WEEKDAYS[actual]?.nb ?? ''}`,
      ),
    );
  }
  const midnight = daysBetween(EPOCH, date) * DAY_MS;
  return pass(new Date(midnight + ((hour * 60 + minute) * 60 + second) * 1000));
}

function fieldsOf(value: string, now: Date): Fields | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const weekday = match[1] === undefined ? undefined : shortDayIndex(match[1]);
    if (weekday === -1) return undefined;
    return fields(weekday, match[2], match[3], Number(match[4]), match[5], match[6], match[7] ?? '0');
  }
  match = RFC_850.exec(value);
  if (match) {
    const weekday = fullDayIndex(match[1] ?? '');
    if (weekday === -1) return undefined;
    return fields(weekday, match[2], match[3], twoDigitYear(Number(match[4]), now), match[5], match[6], match[7]);
  }
  match = ASCTIME.exec(value);
  if (match) {
    const weekday = shortDayIndex(match[1] ?? '');
    if (weekday === -1) return undefined;
    return fields(weekday, match[3], match[2], Number(match[7]), match[4], match[5], match[6]);
  }
  return undefined;
}

function fields(
  weekday: number | undefined,
  day: string | undefined,
  monthName: string | undefined,
  year: number,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): Fields | undefined {
  const month = MONTHS.indexOf((monthName ?? '').toLowerCase() as (typeof MONTHS)[number]);
  if (month === -1) return undefined;
  return { weekday, day: Number(day), month: month + 1, year, hour: Number(hour), minute: Number(minute), second: Number(second) };
}

function shortDayIndex(name: string): number {
  return WEEKDAYS.findIndex((weekday) => weekday.en.slice(0, 3).toLowerCase() === name.toLowerCase());
}

function fullDayIndex(name: string): number {
  return WEEKDAYS.findIndex((weekday) => weekday.en.toLowerCase() === name.toLowerCase());
}

/** RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits. */
function twoDigitYear(yy: number, now: Date): number {
  const thisYear = now.getUTCFullYear();
  const year = thisYear - (thisYear % 100) + yy;
  return year > thisYear + 50 ? year - 100 : year < thisYear - 50 ? year + 100 : year;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
