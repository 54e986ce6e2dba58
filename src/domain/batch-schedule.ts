import { Cron } from 'croner';
import { BANK_TIME_ZONE, isBankDay, nextBankDayAfter } from './bank-calendar.js';
import { addDays, todayIn, type IsoDate } from './iso-date.js';
import { fail, localized, pass, type Check } from './localized.js';

/*
 * When the sandbox bank's batch runs happen (docs/design.md §6): at fixed local times of each
 * Norwegian bank day, none on weekends and bank holidays. Pure: the caller passes the instants;
 * croner does the Europe/Oslo arithmetic, summer time included.
 */

/** A local time of day in Europe/Oslo. */
export interface BatchTime {
  readonly hour: number;
  readonly minute: number;
}

/** The five runs of a bank day the requirement describes, at the real system's times. */
export const DEFAULT_BATCH_TIMES = '05:35,09:30,11:30,13:35,15:35';

/** The most runs a day may have (one an hour). */
export const MAX_BATCH_RUNS_PER_DAY = 24;

/** "05:35,09:30,…": local times, HH:MM on the 24-hour clock, each later than the one before. */
export function checkBatchTimes(text: string): Check<readonly BatchTime[]> {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_BATCH_RUNS_PER_DAY) {
    return fail(
      localized(
        `at most ${MAX_BATCH_RUNS_PER_DAY} runs a day, not ${entries.length}`,
        `høyst ${MAX_BATCH_RUNS_PER_DAY} kjøringer per dag, ikke ${entries.length}`,
      ),
    );
  }
  const times: BatchTime[] = [];
  for (const entry of entries) {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(entry);
    if (!match) {
      return fail(
        localized(`"${entry}" is not a time HH:MM (00:00 to 23:59)`, `"${entry}" er ikke et klokkeslett TT:MM (00:00 til 23:59)`),
      );
    }
    const time = { hour: Number(match[1]), minute: Number(match[2]) };
    const previous = times.at(-1);
    if (previous && minutesOf(time) <= minutesOf(previous)) {
      return fail(localized(`"${entry}" is not later than the time before it`, `"${entry}" er ikke senere enn klokkeslettet før`));
    }
    times.push(time);
  }
  return pass(times);
}

const minutesOf = (time: BatchTime) => time.hour * 60 + time.minute;

/** The instant of a local time on a date in Europe/Oslo; undefined when summer time skips it. */
function instantOn(date: IsoDate, time: BatchTime): Date | undefined {
  const cron = new Cron(`${time.minute} ${time.hour} * * *`, { timezone: BANK_TIME_ZONE, paused: true });
  try {
    // From well before the date's local midnight (Oslo is UTC+1 or +2): the first match on or after it.
    let run = cron.nextRun(new Date(Date.parse(`${date}T00:00:00Z`) - 3 * 3600_000));
    while (run && todayIn(BANK_TIME_ZONE, run) < date) run = cron.nextRun(run);
    return run && todayIn(BANK_TIME_ZONE, run) === date ? run : undefined;
  } finally {
    cron.stop();
  }
}

/** The batch runs of a date, earliest first: none when it is not a bank day. */
export function batchRunsOn(date: IsoDate, times: readonly BatchTime[]): Date[] {
  if (!isBankDay(date)) return [];
  return times.flatMap((time) => instantOn(date, time) ?? []);
}

/** The first batch run strictly after `after` (bank holidays can span a week or more; Easter included). */
export function nextBatchRun(after: Date, times: readonly BatchTime[]): Date {
  const first = todayIn(BANK_TIME_ZONE, after);
  for (let day = 0; day < 31; day++) {
    const run = batchRunsOn(addDays(first, day), times).find((instant) => instant > after);
    if (run) return run;
  }
  throw new Error('no batch run within 31 days: the schedule or the calendar is broken');
}

/** Whether `run` is the last batch run of its bank day: a payment still lacking funds after it is rejected. */
export function isLastRunOfDay(run: Date, times: readonly BatchTime[]): boolean {
  const runs = batchRunsOn(todayIn(BANK_TIME_ZONE, run), times);
  const last = runs.at(-1);
  return last !== undefined && run.getTime() >= last.getTime();
}

/** The bank day a run on `date` counts for: the date itself, or on a weekend or holiday the next bank day. */
export function bankDayOf(date: IsoDate): IsoDate {
  return isBankDay(date) ? date : nextBankDayAfter(date);
}
