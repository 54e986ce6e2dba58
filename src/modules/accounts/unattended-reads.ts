import type { Db } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { decideRead, rateLimitHeaders } from './read-frequency.js';
import { unattendedReadRepository, type UnattendedReadKey } from './unattended-read.repository.js';
import type { Consent } from '../consents/consent.model.js';
import type { AccountRead } from './account-read.js';

/** Attempts at the compare-and-set before a read racing others for the same key gives up. */
const ATTEMPTS = 5;

/**
 * Counts reads made without the PSU present, in the database so every instance counts alike: a
 * read is allowed when fewer than `limit` were made in the 24 hours before `now` (the bank
 * clock), and answers the rate-limit headers; otherwise 429 ACCESS_EXCEEDED with `Retry-After`
 * and when the next read is allowed.
 */
export async function takeUnattendedRead(db: Db, key: UnattendedReadKey, limit: number, now: Date): Promise<Record<string, string>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const stored = await unattendedReadRepository.readTimes(db, key);
    const decision = decideRead(stored === undefined || stored === '' ? [] : stored.split(','), now, limit);
    if (!decision.allowed) {
      const at = decision.nextReadAt.toISOString();
      throw new AppError('ACCESS_EXCEEDED', {
        detail: localized(
          `${limit} reads of the ${key.kind} of this account in 24 hours without the PSU present; the next is allowed at ${at}`,
          `${limit} oppslag av ${KIND_NB[key.kind]} for denne kontoen på 24 timer uten at brukeren er til stede; neste er tillatt ${at}`,
        ),
        headers: { ...rateLimitHeaders(decision.allowance), 'retry-after': String(decision.allowance.resetSeconds) },
      });
    }
    if (await unattendedReadRepository.replaceReadTimes(db, key, stored, decision.readTimes.join(','))) {
      return rateLimitHeaders(decision.allowance);
    }
  }
  // Others kept winning the same slot: they used it up; the TPP may try again in a moment.
  throw new AppError('ACCESS_EXCEEDED', {
    detail: localized('other reads of this account were counted at the same moment', 'andre oppslag av kontoen ble telt i samme øyeblikk'),
    headers: { 'retry-after': '1' },
  });
}

/**
 * Lets a read of one kind of an account through: at once when the PSU is present, else counted
 * against the consent's frequencyPerDay at `now` (the bank clock). The rate-limit headers to
 * answer (none with the PSU).
 */
export async function admitRead(
  db: Db,
  read: AccountRead,
  consent: Consent,
  bankAccountId: string,
  kind: UnattendedReadKey['kind'],
  now: Date,
): Promise<Record<string, string>> {
  if (read.psuPresent) return {};
  const key = { consentId: consent.id, accountId: bankAccountId, kind };
  return takeUnattendedRead(db, key, consent.frequencyPerDay, now);
}

const KIND_NB: Readonly<Record<UnattendedReadKey['kind'], string>> = {
  details: 'detaljene',
  balances: 'saldoen',
  transactions: 'transaksjonene',
};
