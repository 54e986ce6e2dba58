import { isBankDay, rollToBankDay, type ExecutionRule } from './bank-calendar.js';
import { addDays, dateOf, daysBetween, daysInMonth, partsOf, type IsoDate } from './iso-date.js';
import { fail, localized, pass, type Check } from './localized.js';

/**
 * When a Berlin Group periodic payment (standing order) executes (norway-domain.md §4.2). Every
 * date is first computed on the calendar ("unshifted"), then moved by the executionRule onto a
 * bank day of the Norwegian settlement calendar (bank-calendar.ts); the default rule is
 * `following`.
 *
 * - Daily: every bank day from startDate; no rolling is needed.
 * - Weekly / EveryTwoWeeks: startDate, startDate + 7 (14) days, …, so on startDate's weekday.
 *   dayOfExecution is ignored.
 * - Monthly / EveryTwoMonths / Quarterly / SemiAnnual / Annual: every 1 / 2 / 3 / 6 / 12 months
 *   counted from startDate's month. The day is dayOfExecution, or startDate's day when it is
 *   absent, clamped to the month's last day: 31 is ultimo (BG), and 29 or 30 in February become
 *   the 28th (29th in a leap year). The first execution is the first such date on or after
 *   startDate. The rolled date may leave its month (2026-01-31, a Saturday, following: 2026-02-02);
 *   BG's withinAMonthFlag is not supported.
 * - MonthlyVariable: in every year from startDate's year, each month in monthsOfExecution, on the
 *   day as for Monthly.
 *
 * One rule for both ends: an execution belongs to the schedule when its unshifted date and its
 * rolled date both lie in [startDate, endDate]. endDate is "the last applicable day of execution"
 * (BG), so a date the rule moves past it is dropped just as one moved before startDate is
 * (following on a Saturday endDate does not execute on the Monday after). A rolled date before
 * the `from` of the query is skipped too, and one equal to the previous execution is not
 * repeated, so the dates are strictly increasing. The search stops 100 years after
 * max(startDate, from) and at the end of year 9999, so a schedule that never executes
 * (MonthlyVariable without months) ends.
 */

/** The Berlin Group frequencies (ISO 20022 EventFrequency7Code subset); all are supported. */
export const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The schedule fields of a periodic payment initiation, already checked and parsed. */
export interface PeriodicSchedule {
  readonly startDate: IsoDate;
  readonly endDate?: IsoDate | undefined;
  readonly frequency: Frequency;
  /** 1–31; 31 is the last day of the month. Absent: startDate's day. */
  readonly dayOfExecution?: number | undefined;
  /** Absent: 'following'. */
  readonly executionRule?: ExecutionRule | undefined;
  /** 1–12, for MonthlyVariable only. */
  readonly monthsOfExecution?: readonly number[] | undefined;
}

/** How far past max(startDate, from) the search looks before giving up. */
const SEARCH_YEARS = 100;
const LAST_YEAR = 9999;
const LAST_DATE = '9999-12-31';

/** Rolling moves a date by at most five days; day-step scanning starts this many days early to catch it. */
const ROLL_MARGIN_DAYS = 10;

const MONTH_STEPS: Readonly<Record<'Monthly' | 'EveryTwoMonths' | 'Quarterly' | 'SemiAnnual' | 'Annual', number>> = {
  Monthly: 1,
  EveryTwoMonths: 2,
  Quarterly: 3,
  SemiAnnual: 6,
  Annual: 12,
};

/** A month "1"–"12" and a day of the month "1"–"31", as BG writes them: no leading zeros. */
const MONTH = /^(?:[1-9]|1[0-2])$/;
const DAY = /^(?:[1-9]|[12][0-9]|3[01])$/;

function later(a: IsoDate, b: IsoDate): IsoDate {
  return a < b ? b : a;
}

/** Every bank day from `first` on. */
function* dailyDates(first: IsoDate): Generator<IsoDate> {
  for (let date = first; ; date = addDays(date, 1)) {
    if (isBankDay(date)) yield date;
    if (date === LAST_DATE) return;
  }
}

/** startDate + k·step days, from the first k whose date could still roll onto or after `scanFrom`. */
function* dayStepDates(startDate: IsoDate, step: number, scanFrom: IsoDate): Generator<IsoDate> {
  const lastIndex = Math.floor(daysBetween(startDate, LAST_DATE) / step);
  const firstIndex = Math.max(0, Math.floor((daysBetween(startDate, scanFrom) - ROLL_MARGIN_DAYS) / step));
  for (let k = firstIndex; k <= lastIndex; k++) yield addDays(startDate, k * step);
}

/** The day `dayOfExecution` of a month, clamped to its last day. */
function clampedDate(year: number, month: number, dayOfExecution: number): IsoDate {
  return dateOf(year, month, Math.min(dayOfExecution, daysInMonth(year, month)));
}

/** Months counted as year·12 + (month − 1), so stepping months is integer addition. */
function monthIndexOf(date: IsoDate): number {
  const { year, month } = partsOf(date);
  return year * 12 + month - 1;
}

/** The clamped day in every `step`-th month from startDate's month, from the period before `scanFrom`. */
function* monthStepDates(startDate: IsoDate, step: number, day: number, scanFrom: IsoDate): Generator<IsoDate> {
  const startIndex = monthIndexOf(startDate);
  // One period before the one holding scanFrom: its date may roll forward into scanFrom's month.
  const firstK = Math.max(0, Math.floor((monthIndexOf(scanFrom) - startIndex) / step) - 1);
  for (let index = startIndex + firstK * step; ; index += step) {
    const year = Math.floor(index / 12);
    if (year > LAST_YEAR) return;
    yield clampedDate(year, (index % 12) + 1, day);
  }
}

/** The clamped day in each listed month of every year, from the year before `scanFrom`. */
function* monthsOfYearDates(startDate: IsoDate, months: readonly number[], day: number, scanFrom: IsoDate): Generator<IsoDate> {
  const sorted = [...new Set(months)].sort((a, b) => a - b);
  if (sorted.length === 0) return;
  for (let year = Math.max(partsOf(startDate).year, partsOf(scanFrom).year - 1); year <= LAST_YEAR; year++) {
    for (const month of sorted) yield clampedDate(year, month, day);
  }
}

/** The unshifted dates of a schedule in increasing order, possibly some before startDate or scanFrom. */
function unshiftedDates(schedule: PeriodicSchedule, scanFrom: IsoDate): Iterable<IsoDate> {
  const day = schedule.dayOfExecution ?? partsOf(schedule.startDate).day;
  switch (schedule.frequency) {
    case 'Daily':
      return dailyDates(scanFrom);
    case 'Weekly':
      return dayStepDates(schedule.startDate, 7, scanFrom);
    case 'EveryTwoWeeks':
      return dayStepDates(schedule.startDate, 14, scanFrom);
    case 'Monthly':
    case 'EveryTwoMonths':
    case 'Quarterly':
    case 'SemiAnnual':
    case 'Annual':
      return monthStepDates(schedule.startDate, MONTH_STEPS[schedule.frequency], day, scanFrom);
    case 'MonthlyVariable':
      return monthsOfYearDates(schedule.startDate, schedule.monthsOfExecution ?? [], day, scanFrom);
  }
}

function checkScheduleShape(schedule: PeriodicSchedule): void {
  const day = schedule.dayOfExecution;
  if (day !== undefined && !(Number.isInteger(day) && day >= 1 && day <= 31)) {
    throw new RangeError(`dayOfExecution must be 1 to 31, got ${day}`);
  }
  for (const month of schedule.monthsOfExecution ?? []) {
    if (!(Number.isInteger(month) && month >= 1 && month <= 12)) throw new RangeError(`monthsOfExecution must be 1 to 12, got ${month}`);
  }
}

/**
 * The next up to `count` execution dates of a periodic payment on or after `from` (and startDate),
 * moved onto bank days by the execution rule; see the module comment for the rules. Fewer when
 * endDate comes first; none when every date falls outside [startDate, endDate] once moved.
 * Throws RangeError for a dayOfExecution or month out of range, which the check functions below
 * refuse before a schedule is built.
 */
export function executionDates(schedule: PeriodicSchedule, options: { from: IsoDate; count: number }): IsoDate[] {
  checkScheduleShape(schedule);
  const dates: IsoDate[] = [];
  if (options.count < 1) return dates;
  const rule = schedule.executionRule ?? 'following';
  const { startDate, endDate } = schedule;
  const earliest = later(startDate, options.from);
  const searchEnd = dateOf(Math.min(LAST_YEAR, partsOf(earliest).year + SEARCH_YEARS), 12, 31);
  for (const unshifted of unshiftedDates(schedule, earliest)) {
    if (unshifted > searchEnd || (endDate !== undefined && unshifted > endDate)) break;
    if (unshifted < startDate) continue;
    const date = schedule.frequency === 'Daily' ? unshifted : rollToBankDay(unshifted, rule);
    // Outside [startDate, endDate] once moved: not an execution (the loop ends at the next unshifted date past endDate).
    if (date < earliest || (endDate !== undefined && date > endDate)) continue;
    const previous = dates[dates.length - 1];
    if (previous !== undefined && date <= previous) continue;
    dates.push(date);
    if (dates.length >= options.count) break;
  }
  return dates;
}

/**
 * Checks the monthsOfExecution of a MonthlyVariable schedule: 1 to 11 distinct months, each
 * written "1"–"12" without a leading zero (BG; adorsys xs2a's ^([1-9]|1[012])$). All twelve would
 * be frequency Monthly. The months are returned in the order given.
 */
export function checkMonthsOfExecution(values: readonly string[]): Check<number[]> {
  if (values.length === 0) return fail(localized('must list at least one month', 'må inneholde minst én måned'));
  if (values.length > 11) {
    return fail(
      localized(
        `must list at most 11 months (all 12 is frequency Monthly), got ${values.length}`,
        `kan inneholde høyst 11 måneder (alle 12 er frekvensen Monthly), men har ${values.length}`,
      ),
    );
  }
  const months: number[] = [];
  for (const value of values) {
    if (/^0[0-9]+$/.test(value) && MONTH.test(String(Number(value)))) {
      return fail(
        localized(
          `month "${value}" must be written without a leading zero, like "${Number(value)}"`,
          `måneden "${value}" må skrives uten innledende null, som "${Number(value)}"`,
        ),
      );
    }
    if (!MONTH.test(value)) {
      return fail(localized(`"${value}" is not a month; months are "1" to "12"`, `"${value}" er ikke en måned; månedene er "1" til "12"`));
    }
    const month = Number(value);
    if (months.includes(month)) {
      return fail(localized(`month "${value}" is listed more than once`, `måneden "${value}" står mer enn én gang`));
    }
    months.push(month);
  }
  return pass(months);
}

/** Checks a dayOfExecution: "1"–"31" without a leading zero (BG 1.3.x); "31" means the last day of the month. */
export function checkDayOfExecution(value: string): Check<number> {
  if (/^0[0-9]+$/.test(value) && DAY.test(String(Number(value)))) {
    return fail(
      localized(
        `must be written without a leading zero, like "${Number(value)}", got "${value}"`,
        `må skrives uten innledende null, som "${Number(value)}", men er "${value}"`,
      ),
    );
  }
  if (!DAY.test(value)) {
    return fail(
      localized(`must be a day of the month, "1" to "31", got "${value}"`, `må være en dag i måneden, "1" til "31", men er "${value}"`),
    );
  }
  return pass(Number(value));
}
