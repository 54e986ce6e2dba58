import { addDays, checkIsoDate, type IsoDate } from '../../domain/iso-date.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';

/** How long a consent may be valid, and how long its SCA lasts (the bank renews SCA after 180 days). */
export const MAX_VALIDITY_DAYS = 180;
/** Reads per day without the PSU that a recurring consent may ask for, at most (docs/design.md §2b). */
export const MAX_FREQUENCY_PER_DAY = 4;

export interface Validity {
  readonly validUntil: IsoDate;
  readonly frequencyPerDay: number;
}

/**
 * The validity a consent gets (docs/design.md §2b): `validUntil` before today (the TPP's bank date)
 * is 400 PERIOD_INVALID; later than today + 180 days (9999-12-31 among them) is capped to that day.
 * `frequencyPerDay` is capped at 4; a one-off consent has 1.
 */
export function validityOf(body: { validUntil: string; frequencyPerDay: number; recurringIndicator: boolean }, today: IsoDate): Validity {
  const date = checkIsoDate(body.validUntil);
  if (!date.ok) throw new AppError('FORMAT_ERROR', { path: 'validUntil', detail: date.reason });
  if (date.value < today) {
    throw new AppError('PERIOD_INVALID', {
      path: 'validUntil',
      detail: localized(`${date.value} is before today (${today})`, `${date.value} er før i dag (${today})`),
    });
  }
  const latest = addDays(today, MAX_VALIDITY_DAYS);
  return {
    validUntil: date.value > latest ? latest : date.value,
    frequencyPerDay: body.recurringIndicator ? Math.min(body.frequencyPerDay, MAX_FREQUENCY_PER_DAY) : 1,
  };
}

/**
 * Whether a valid consent has expired by now: its last valid day is behind the TPP's bank date, or
 * its SCA is more than 180 days old.
 */
export function hasExpired(consent: { validUntil: string; approvedAt?: string | undefined }, today: IsoDate, now: Date): boolean {
  if (consent.validUntil < today) return true;
  if (consent.approvedAt === undefined) return false;
  return now.getTime() - Date.parse(consent.approvedAt) > MAX_VALIDITY_DAYS * 86_400_000;
}
