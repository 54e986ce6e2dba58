/**
 * Calendar dates (YYYY-MM-DD) as the sandbox bank uses them: "today" is the bank day in Norway,
 * whatever the server's time zone, and arithmetic is done on UTC midnights so no daylight-saving
 * change can shift a date.
 */
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { todayIn } from '../../domain/iso-date.js';

export { addDays, daysBetween } from '../../domain/iso-date.js';

/** The date in the bank's time zone (Europe/Oslo) at `at`. */
export function osloDate(at: Date): string {
  return todayIn(BANK_TIME_ZONE, at);
}

/** The first day of each month that overlaps [from, to], as YYYY-MM-01. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let month = `${from.slice(0, 7)}-01`;
  while (month <= to) {
    months.push(month);
    const [year, mm] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
    month = mm === 12 ? `${year + 1}-01-01` : `${year}-${String(mm + 1).padStart(2, '0')}-01`;
  }
  return months;
}
