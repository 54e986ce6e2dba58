import { withTransaction, type Db } from '../../db/create-db.js';
import { psuCodeAttemptRepository, type BankPsu } from './psu-code-attempt.repository.js';

/** When wrong one-time codes lock a PSU's code step (XS2A_SCA_CODE_LOCK_*). */
export interface CodeLockSettings {
  /** This many wrong codes … */
  readonly attempts: number;
  /** … within this many minutes, across the PSU's authorisations … */
  readonly windowMinutes: number;
  /** … lock the PSU's code step for this many minutes. */
  readonly lockMinutes: number;
}

export const DEFAULT_CODE_LOCK: CodeLockSettings = { attempts: 5, windowMinutes: 60, lockMinutes: 15 };

/** A code may be checked (`attemptId` names the counted attempt), or the PSU is locked until then. */
export type CodeClaim = { readonly attemptId: number } | { readonly lockedUntil: Date };

/**
 * Wrong one-time codes counted per PSU across all its authorisations, in the database (every
 * instance sees the same count): `attempts` wrong codes within `windowMinutes` lock the PSU's
 * code step for `lockMinutes`; while locked, no code is checked, the right one neither. After a
 * lock, counting starts again. A code is counted before it is checked, under a per-PSU lock, so
 * codes posted in parallel on several authorisations cannot get past the limit between them.
 */
export function createPsuCodeLock(db: Db, now: () => Date, settings: CodeLockSettings) {
  const minutes = (count: number) => count * 60_000;
  const windowStart = (at: Date) => new Date(at.getTime() - minutes(settings.windowMinutes)).toISOString();

  return {
    /** Until when the PSU's code step is locked, or undefined. */
    async lockedUntil(psu: BankPsu): Promise<Date | undefined> {
      const until = await psuCodeAttemptRepository.lockedUntil(db, psu, now().toISOString());
      return until === undefined ? undefined : new Date(until);
    },

    /** Counts a code about to be checked, unless the PSU is locked. */
    async claim(psu: BankPsu, authorisationId: string): Promise<CodeClaim> {
      const at = now();
      return withTransaction(db, async (trx) => {
        await psuCodeAttemptRepository.serialise(trx, psu);
        const locked = await psuCodeAttemptRepository.lockedUntil(trx, psu, at.toISOString());
        if (locked !== undefined) return { lockedUntil: new Date(locked) };
        const attemptId = await psuCodeAttemptRepository.insert(trx, psu, authorisationId, at.toISOString());
        // Codes still being checked count as wrong: only in-flight (or interrupted) checks get here.
        if ((await psuCodeAttemptRepository.countTowardsLock(trx, psu, windowStart(at))) > settings.attempts) {
          const until = new Date(at.getTime() + minutes(settings.lockMinutes));
          await psuCodeAttemptRepository.settle(trx, attemptId, 'unchecked');
          await psuCodeAttemptRepository.lock(trx, attemptId, until.toISOString());
          return { lockedUntil: until };
        }
        return { attemptId };
      });
    },

    /** Records the checked code's outcome; a wrong one may lock the PSU: answers until when, if so. */
    async settle(psu: BankPsu, attemptId: number, right: boolean): Promise<Date | undefined> {
      const at = now();
      return withTransaction(db, async (trx) => {
        await psuCodeAttemptRepository.serialise(trx, psu);
        if (right) {
          await psuCodeAttemptRepository.settle(trx, attemptId, 'right');
          return undefined;
        }
        await psuCodeAttemptRepository.settle(trx, attemptId, 'wrong');
        const locked = await psuCodeAttemptRepository.lockedUntil(trx, psu, at.toISOString());
        if (locked !== undefined) return new Date(locked);
        if ((await psuCodeAttemptRepository.countTowardsLock(trx, psu, windowStart(at))) < settings.attempts) return undefined;
        const until = new Date(at.getTime() + minutes(settings.lockMinutes));
        await psuCodeAttemptRepository.lock(trx, attemptId, until.toISOString());
        return until;
      });
    },

    /**
     * Checks a claimed code with the bank and settles the claim: a code the bank could not check
     * is forgotten (the PSU is not blamed for the bank's failure) and the error goes on.
     */
    async check(
      psu: BankPsu,
      attemptId: number,
      verify: () => Promise<boolean>,
    ): Promise<{ right: boolean; lockedUntil?: Date | undefined }> {
      let right: boolean;
      try {
        right = await verify();
      } catch (error) {
        await psuCodeAttemptRepository.remove(db, attemptId);
        throw error;
      }
      return { right, lockedUntil: await this.settle(psu, attemptId, right) };
    },

    /** Forgets a counted code that was not checked after all. */
    async release(attemptId: number): Promise<void> {
      await psuCodeAttemptRepository.remove(db, attemptId);
    },

    /** Deletes attempts that can no longer count; answers how many. */
    async purge(): Promise<number> {
      const at = now();
      return psuCodeAttemptRepository.purge(db, windowStart(at), at.toISOString());
    },
  };
}

export type PsuCodeLock = ReturnType<typeof createPsuCodeLock>;
