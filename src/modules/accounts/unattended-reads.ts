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
 * Answers a read of one kind of an account: at once when the PSU is present, else counted against
 * the consent's frequencyPerDay at `now` (the bank clock). `answer` makes the read's answer and
 * throws its refusals (an unknown transaction, history the read may not see, the bank's port
 * failing); the answer, and the rate-limit headers to send (none with the PSU).
 *
 * Only a read answered counts: a refused one changes nothing. It is counted after its answer is
 * made, not counted first and undone on a refusal: the answer reads the bank's core system over
 * its port, and an undo in the same database transaction would hold that transaction (SQLite's
 * one writer, PostgreSQL's lock on the counter row) across the bank's round trip, stalling every
 * other read of the account on every instance; an undo in a later transaction could be lost with
 * the process, and meanwhile would have refused others a slot. Counting last loses nothing: the
 * count is the same compare-and-set in the shared database, so of reads racing for the last slot
 * one is counted and the others get 429 and their answers are dropped, and the quota still holds.
 * A read already over the quota is refused before its answer is made, so it costs the bank nothing.
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
  const { decision } = await decisionNow(db, key, consent.frequencyPerDay, now);
  if (!decision.allowed) throw exceeded(key, consent.frequencyPerDay, decision);
  const value = await answer();
  return { value, headers: await takeUnattendedRead(db, key, consent.frequencyPerDay, now) };
}

const KIND_NB: Readonly<Record<UnattendedReadKey['kind'], string>> = {
  details: 'detaljene',
  balances: 'saldoen',
  transactions: 'transaksjonene',
};
