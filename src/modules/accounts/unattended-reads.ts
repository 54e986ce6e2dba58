import type { Db } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { decideRead, rateLimitHeaders, type ReadDecision } from './read-frequency.js';
import { unattendedReadRepository, type UnattendedReadKey } from './unattended-read.repository.js';
import type { Consent } from '../consents/consent.model.js';
import type { AccountRead } from './account-read.js';

/** Attempts at the compare-and-set before a read racing others for the same key gives up. */
const ATTEMPTS = 5;

/** 429 ACCESS_EXCEEDED: the reads of `key` in the last 24 hours used up `limit`; when the next is allowed. */
function exceeded(key: UnattendedReadKey, limit: number, decision: Extract<ReadDecision, { allowed: false }>): AppError {
  const at = decision.nextReadAt.toISOString();
  return new AppError('ACCESS_EXCEEDED', {
    detail: localized(
      `${limit} reads of the ${key.kind} of this account in 24 hours without the PSU present; the next is allowed at ${at}`,
      `${limit} oppslag av ${KIND_NB[key.kind]} for denne kontoen på 24 timer uten at brukeren er til stede; neste er tillatt ${at}`,
    ),
    headers: { ...rateLimitHeaders(decision.allowance), 'retry-after': String(decision.allowance.resetSeconds) },
  });
}

async function decisionNow(db: Db, key: UnattendedReadKey, limit: number, now: Date) {
  const stored = await unattendedReadRepository.readTimes(db, key);
  return { stored, decision: decideRead(stored === undefined || stored === '' ? [] : stored.split(','), now, limit) };
}

/**
 * Counts reads made without the PSU present, in the database so every instance counts alike: a
 * read is allowed when fewer than `limit` were made in the 24 hours before `now` (the bank
 * clock), and answers the rate-limit headers; otherwise 429 ACCESS_EXCEEDED with `Retry-After`
 * and when the next read is allowed.
 */
export async function takeUnattendedRead(db: Db, key: UnattendedReadKey, limit: number, now: Date): Promise<Record<string, string>> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { stored, decision } = await decisionNow(db, key, limit, now);
    if (!decision.allowed) throw exceeded(key, limit, decision);
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
 * Gives back the slot {@link takeUnattendedRead} took at `now` for a read that was then refused:
 * one occurrence of `now` leaves the stored times (reads at the same instant are alike, any one
 * of them may go). False when others kept changing the row, or the database failed: the slot then
 * stays counted, which refuses too much, never too little.
 */
async function giveBackUnattendedRead(db: Db, key: UnattendedReadKey, now: Date): Promise<boolean> {
  const taken = now.toISOString();
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const stored = await unattendedReadRepository.readTimes(db, key);
      const times = stored === undefined || stored === '' ? [] : stored.split(',');
      const index = times.indexOf(taken);
      if (index < 0) return true;
      times.splice(index, 1);
      if (await unattendedReadRepository.replaceReadTimes(db, key, stored, times.join(','))) return true;
    }
  } catch {
    // The read's own refusal is what the TPP must hear; the slot stays counted.
  }
  return false;
}

/**
 * Answers a read of one kind of an account: at once when the PSU is present, else counted against
 * the consent's frequencyPerDay at `now` (the bank clock). `answer` makes the read's answer and
 * throws its refusals (an unknown transaction, history the read may not see, the bank's port
 * failing); the answer, and the rate-limit headers to send (none with the PSU).
 *
 * Only a read answered counts. Its slot is taken before the answer is made and given back when
 * the answer is refused: reads racing for the last slot are refused before they cost the bank a
 * round trip (a TPP firing many at once reaches the bank once), and the count stays a short
 * compare-and-set in the shared database, never a transaction held across the bank's answer.
 * A give-back lost with the process leaves the slot counted: the quota errs on the safe side.
 */
export async function admitRead<T>(
  db: Db,
  read: AccountRead,
  consent: Consent,
  bankAccountId: string,
  kind: UnattendedReadKey['kind'],
  now: Date,
  answer: () => Promise<T>,
): Promise<{ readonly value: T; readonly headers: Record<string, string> }> {
  if (read.psuPresent) return { value: await answer(), headers: {} };
  const key = { consentId: consent.id, accountId: bankAccountId, kind };
  const headers = await takeUnattendedRead(db, key, consent.frequencyPerDay, now);
  try {
    return { value: await answer(), headers };
  } catch (error) {
    await giveBackUnattendedRead(db, key, now);
    throw error;
  }
}

const KIND_NB: Readonly<Record<UnattendedReadKey['kind'], string>> = {
  details: 'detaljene',
  balances: 'saldoen',
  transactions: 'transaksjonene',
};
