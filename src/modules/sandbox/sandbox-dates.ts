/**
 * Calendar dates (YYYY-MM-DD) as the sandbox bank uses them: arithmetic is done on UTC midnights so
 * no daylight-saving change can shift a date. "Today" is the TPP's bank date by its sandbox clock
 * (SandboxDeps.today).
 */
export { addDays, daysBetween } from '../../domain/iso-date.js';

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
