import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { decideRead, mostConstrained, rateLimitHeaders, type ReadAllowance, type ReadDecision } from './read-frequency.js';
import { unattendedReadRepository, type UnattendedReadKey } from './unattended-read.repository.js';
import type { Consent } from '../consents/consent.model.js';
import type { AccountRead } from './account-read.js';

/** Attempts at the compare-and-set before a read racing others for the same key gives up. */
const ATTEMPTS = 5;

/** One kind of one account that a read answers: the quota it counts against. */
export interface CountedRead {
  readonly bankAccountId: string;
  readonly kind: UnattendedReadKey['kind'];
}

type Decided = { readonly key: UnattendedReadKey; readonly stored: string | undefined; readonly decision: ReadDecision };
type Refused = Decided & { readonly decision: Extract<ReadDecision, { allowed: false }> };

/**
 * 429 ACCESS_EXCEEDED: the reads of the refused keys in the last 24 hours used up `limit`; when
 * the read is allowed again (once every refused key has a slot), with the rate-limit fields of that.
 */
function exceeded(refused: readonly [Refused, ...Refused[]], limit: number, oneAccount: boolean): AppError {
  const allowance = mostConstrained(refused.map(({ decision }) => decision.allowance) as [ReadAllowance, ...ReadAllowance[]]);
  const at = new Date(Math.max(...refused.map(({ decision }) => decision.nextReadAt.getTime()))).toISOString();
  const kinds = [...new Set(refused.map(({ key }) => key.kind))];
  return new AppError('ACCESS_EXCEEDED', {
    detail: localized(
      `${limit} reads of the ${kinds.join(' and ')} of ${oneAccount ? 'this account' : 'an account of the list'} in 24 hours without the PSU present; the next is allowed at ${at}`,
      `${limit} oppslag av ${kinds.map((kind) => KIND_NB[kind]).join(' og ')} for ${oneAccount ? 'denne kontoen' : 'en konto i listen'} på 24 timer uten at brukeren er til stede; neste er tillatt ${at}`,
    ),
    headers: { ...rateLimitHeaders(allowance), 'retry-after': String(allowance.resetSeconds) },
  });
}

async function decisionNow(db: DbOrTx, key: UnattendedReadKey, limit: number, now: Date): Promise<Decided> {
  const stored = await unattendedReadRepository.readTimes(db, key);
  return { key, stored, decision: decideRead(stored === undefined || stored === '' ? [] : stored.split(','), now, limit) };
}

/** Thrown inside the counting's transaction when another read changed a row first: it rolls back and counts again. */
class LostRace extends Error {}

/**
 * One compare-and-set is atomic on its own; the slots of several keys must be taken together or
 * not at all, so they are taken in one transaction (rolled back when one of them is lost).
 */
function inOneCommit<T>(db: Db, keys: number, work: (db: DbOrTx) => Promise<T>): Promise<T> {
  return keys === 1 ? work(db) : withTransaction(db, work);
}

/** The keys in one fixed order: reads counting overlapping keys lock their rows alike (PostgreSQL: no deadlock). */
const inKeyOrder = (a: UnattendedReadKey, b: UnattendedReadKey) =>
  a.accountId === b.accountId ? a.kind.localeCompare(b.kind) : a.accountId < b.accountId ? -1 : 1;

/** Each key once: a key is counted once per read, and given back once when its read is refused. */
function distinctKeys(keys: readonly UnattendedReadKey[]): UnattendedReadKey[] {
  return [...new Map(keys.map((key) => [`${key.accountId} ${key.kind}`, key])).values()];
}

/**
 * Counts a read made without the PSU present against every distinct key it answers, in the database so
 * every instance counts alike: it is allowed when each key had fewer than `limit` reads in the 24
 * hours before `now` (the bank clock), and answers each key with its allowance after the read;
 * otherwise 429 ACCESS_EXCEEDED with `Retry-After` and when the next read is allowed, and no key
 * is counted.
 */
async function takeUnattendedReads(
  db: Db,
  keys: readonly UnattendedReadKey[],
  limit: number,
  now: Date,
): Promise<readonly { readonly key: UnattendedReadKey; readonly allowance: ReadAllowance }[]> {
  const ordered = [...keys].sort(inKeyOrder);
  const oneAccount = new Set(keys.map((key) => key.accountId)).size === 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const allowances = await inOneCommit(db, ordered.length, async (trx) => {
      const decided: Decided[] = [];
      for (const key of ordered) decided.push(await decisionNow(trx, key, limit, now));
      const refused = decided.filter((entry): entry is Refused => !entry.decision.allowed);
      if (refused.length > 0) throw exceeded(refused as [Refused, ...Refused[]], limit, oneAccount);
      for (const { key, stored, decision } of decided) {
        if (!decision.allowed) continue;
        const taken = await unattendedReadRepository.replaceReadTimes(trx, key, stored, decision.readTimes.join(','));
        if (!taken) throw new LostRace('another read changed the row first');
      }
      return decided.map(({ key, decision }) => ({ key, allowance: decision.allowance }));
    }).catch((error: unknown) => {
      if (error instanceof LostRace) return undefined;
      throw error;
    });
    if (allowances) return allowances;
  }
  // Others kept winning the same slot: they used it up; the TPP may try again in a moment.
  throw new AppError('ACCESS_EXCEEDED', {
    detail: localized('other reads of this account were counted at the same moment', 'andre oppslag av kontoen ble telt i samme øyeblikk'),
    headers: { 'retry-after': '1' },
  });
}

/**
 * Gives back the slot {@link takeUnattendedReads} took at `now` for a read that was then refused:
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
 * Answers a read of account information: at once when the PSU is present, else counted against
 * the consent's frequencyPerDay at `now` (the bank clock) for every account and kind it answers
 * (`counted`: an account's details with its balances count as a read of each, a list as a read
 * of each account listed), refused when any of them is used up. `answer` makes the read's answer
 * and throws its refusals (an unknown transaction, history the read may not see, the bank's port
 * failing), and tells `leftOut` of an account it leaves out of a list (closed meanwhile); the
 * answer, and the rate-limit headers to send (none with the PSU, nor when nothing is counted).
 *
 * Only a read answered counts. Its slots are taken before the answer is made and given back when
 * the answer is refused: reads racing for the last slot are refused before they cost the bank a
 * round trip (a TPP firing many at once reaches the bank once), and the count stays short in the
 * shared database (a compare-and-set per key, in one transaction when there are several), never a
 * transaction held across the bank's answer. A give-back lost with the process leaves the slot
 * counted: the quota errs on the safe side.
 */
export async function admitRead<T>(
  db: Db,
  read: AccountRead,
  consent: Consent,
  counted: readonly CountedRead[],
  now: Date,
  answer: (leftOut: (bankAccountId: string) => void) => Promise<T>,
): Promise<{ readonly value: T; readonly headers: Record<string, string> }> {
  const left = new Set<string>();
  const leaveOut = (bankAccountId: string) => void left.add(bankAccountId);
  if (read.psuPresent || counted.length === 0) return { value: await answer(leaveOut), headers: {} };
  const keys = distinctKeys(counted.map(({ bankAccountId, kind }) => ({ consentId: consent.id, accountId: bankAccountId, kind })));
  const taken = await takeUnattendedReads(db, keys, consent.frequencyPerDay, now);
  let value: T;
  try {
    value = await answer(leaveOut);
  } catch (error) {
    for (const key of keys) await giveBackUnattendedRead(db, key, now);
    throw error;
  }
  // An account the answer left out (the bank closed it meanwhile) was not read: its slots go back,
  // and the rate-limit fields are those of the accounts answered.
  const answered: ReadAllowance[] = [];
  for (const { key, allowance } of taken) {
    if (left.has(key.accountId)) await giveBackUnattendedRead(db, key, now);
    else answered.push(allowance);
  }
  const [first, ...rest] = answered;
  return { value, headers: first ? rateLimitHeaders(mostConstrained([first, ...rest])) : {} };
}

const KIND_NB: Readonly<Record<UnattendedReadKey['kind'], string>> = {
  details: 'detaljene',
  balances: 'saldoen',
  transactions: 'transaksjonene',
};
