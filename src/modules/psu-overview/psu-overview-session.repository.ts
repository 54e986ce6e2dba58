import type { DbOrTx } from '../../db/create-db.js';
import type { PsuOverviewSessionTable } from './psu-overview-session.table.js';

/** A browser's visit to the PSU's page, as stored. */
export interface PsuOverviewSession {
  readonly id: string;
  readonly sessionHash: string;
  readonly csrfToken: string;
  readonly bankScope: string;
  readonly psuId: string | undefined;
  readonly authenticatedAt: string | undefined;
  readonly codeAttempts: number;
  readonly createdAt: string;
  readonly expiresAt: string;
}

function toSession(row: PsuOverviewSessionTable): PsuOverviewSession {
  return {
    id: row.id,
    sessionHash: row.session_hash,
    csrfToken: row.csrf_token,
    bankScope: row.bank_scope,
    psuId: row.psu_id ?? undefined,
    authenticatedAt: row.authenticated_at ?? undefined,
    codeAttempts: Number(row.code_attempts),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** The only place that queries psu_overview_session. */
export const psuOverviewSessionRepository = {
  async insert(db: DbOrTx, session: Omit<PsuOverviewSession, 'psuId' | 'authenticatedAt' | 'codeAttempts'>): Promise<void> {
    await db
      .insertInto('psu_overview_session')
      .values({
        id: session.id,
        session_hash: session.sessionHash,
        csrf_token: session.csrfToken,
        bank_scope: session.bankScope,
        psu_id: null,
        authenticated_at: null,
        code_attempts: 0,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
  },

  /** The visit of a cookie (by its hash) that has not ended at `now`. */
  async findLive(db: DbOrTx, sessionHash: string, now: string): Promise<PsuOverviewSession | undefined> {
    const row = await db
      .selectFrom('psu_overview_session')
      .selectAll()
      .where('session_hash', '=', sessionHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && toSession(row);
  },

  /**
   * The identify step: the PSU, once per visit. A visit already identified keeps its PSU and its
   * count of wrong codes (a second identify would otherwise start the count again).
   */
  async identify(db: DbOrTx, id: string, psuId: string): Promise<boolean> {
    const result = await db
      .updateTable('psu_overview_session')
      .set({ psu_id: psuId })
      .where('id', '=', id)
      .where('psu_id', 'is', null)
      .where('authenticated_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Counts a code (or IdP login) about to be checked, in one conditional update: checks posted in
   * parallel cannot get more than `max` between them. The new count, or undefined when none is left.
   */
  async countCodeAttempt(db: DbOrTx, id: string, psuId: string, max: number): Promise<number | undefined> {
    const result = await db
      .updateTable('psu_overview_session')
      .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
      .where('id', '=', id)
      .where('psu_id', '=', psuId)
      .where('authenticated_at', 'is', null)
      .where('code_attempts', '<', max)
      .returning('code_attempts')
      .executeTakeFirst();
    return result === undefined ? undefined : Number(result.code_attempts);
  },

  /** The PSU passed its second factor: the visit gets a new cookie (its hash) and lasts from now. */
  async authenticate(db: DbOrTx, id: string, psuId: string, newSessionHash: string, at: string, expiresAt: string): Promise<boolean> {
    const result = await db
      .updateTable('psu_overview_session')
      .set({ authenticated_at: at, session_hash: newSessionHash, expires_at: expiresAt })
      .where('id', '=', id)
      .where('psu_id', '=', psuId)
      .where('authenticated_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async remove(db: DbOrTx, id: string): Promise<void> {
    await db.deleteFrom('psu_overview_session').where('id', '=', id).execute();
  },

  /** Deletes visits that ended before `now`. */
  async purge(db: DbOrTx, now: string): Promise<void> {
    await db.deleteFrom('psu_overview_session').where('expires_at', '<=', now).execute();
  },
};
