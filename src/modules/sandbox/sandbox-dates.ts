/**
 * Calendar dates (YYYY-MM-DD) as the sandbox bank uses them: "today" is the bank day in Norway,
 * whatever the server's time zone, and arithmetic is done on UTC midnights so no daylight-saving
 * change can shift a date.
 */

const OSLO_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The date in Europe/Oslo at `at`. */
export function osloDate(at: Date): string {
  const parts = Object.fromEntries(OSLO_DATE.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts['year']}-${parts['month']}-${parts['day']}`;
}

function toUtc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(toUtc(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
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
