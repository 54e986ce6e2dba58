import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';

/** A PSU as the bank knows it: its id within one bank (the sandbox has one bank per TPP). */
export interface BankPsu {
  readonly bankScope: string;
  readonly psuId: string;
}

/**
 * checking: counted before the code is checked, as a wrong one until it is known; unchecked: not
 * checked because the PSU's code step was locked by codes still being checked.
 */
export type CodeAttemptOutcome = 'checking' | 'wrong' | 'right' | 'unchecked';

/** The outcomes that count towards a lock. */
const COUNTED: readonly CodeAttemptOutcome[] = ['checking', 'wrong'];

/** The only place that queries psu_code_attempt. */
export const psuCodeAttemptRepository = {
  /**
   * Serialises the caller's transaction with every other one about the same PSU: a PostgreSQL
   * advisory lock until the transaction ends (SQLite runs one write transaction at a time).
   */
  async serialise(trx: DbOrTx, psu: BankPsu): Promise<void> {
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`psu-code:${psu.bankScope}:${psu.psuId}`}, 0))`.execute(trx);
  },

  /** The end of the PSU's lock that is still on at `now`, or undefined. */
  async lockedUntil(db: DbOrTx, psu: BankPsu, now: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('psu_code_attempt')
      .select((eb) => eb.fn.max('locks_until').as('until'))
      .where('bank_scope', '=', psu.bankScope)
      .where('psu_id', '=', psu.psuId)
      .where('locks_until', '>', now)
      .executeTakeFirst();
    return row?.until ?? undefined;
  },

  /**
   * How many codes count towards the next lock: wrong (or still being checked) since `since`, and
   * after the attempt that set the PSU's last lock.
   */
  async countTowardsLock(db: DbOrTx, psu: BankPsu, since: string): Promise<number> {
    const lastLock = await db
      .selectFrom('psu_code_attempt')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('bank_scope', '=', psu.bankScope)
      .where('psu_id', '=', psu.psuId)
      .where('locks_until', 'is not', null)
      .executeTakeFirst();
    const row = await db
      .selectFrom('psu_code_attempt')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('bank_scope', '=', psu.bankScope)
      .where('psu_id', '=', psu.psuId)
      .where('outcome', 'in', COUNTED)
      .where('attempted_at', '>', since)
      .where('id', '>', Number(lastLock?.id ?? 0))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  },

  /** Records a code about to be checked; answers its id. */
  async insert(db: DbOrTx, psu: BankPsu, authorisationId: string, at: string): Promise<number> {
    const row = await db
      .insertInto('psu_code_attempt')
      .values({
        bank_scope: psu.bankScope,
        psu_id: psu.psuId,
        authorisation_id: authorisationId,
        outcome: 'checking',
        attempted_at: at,
        locks_until: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  },

  async settle(db: DbOrTx, id: number, outcome: Exclude<CodeAttemptOutcome, 'checking'>): Promise<void> {
    await db.updateTable('psu_code_attempt').set({ outcome }).where('id', '=', id).execute();
  },

  /** Marks an attempt as the one that locked the PSU's code step, until `until`. */
  async lock(db: DbOrTx, id: number, until: string): Promise<void> {
    await db.updateTable('psu_code_attempt').set({ locks_until: until }).where('id', '=', id).execute();
  },

  /** Forgets an attempt whose code was never checked. */
  async remove(db: DbOrTx, id: number): Promise<void> {
    await db.deleteFrom('psu_code_attempt').where('id', '=', id).execute();
  },

  /** Deletes attempts older than `before` that hold no lock still on at `now`; answers how many. */
  async purge(db: DbOrTx, before: string, now: string): Promise<number> {
    const result = await db
      .deleteFrom('psu_code_attempt')
      .where('attempted_at', '<', before)
      .where((eb) => eb.or([eb('locks_until', 'is', null), eb('locks_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
