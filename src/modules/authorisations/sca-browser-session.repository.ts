import type { DbOrTx } from '../../db/create-db.js';

/** The browser session an authorisation's pages are bound to. */
export interface ScaBrowserSession {
  readonly authorisationId: string;
  /** SHA-256 (hex) of the session cookie's value. */
  readonly sessionHash: string;
  readonly csrfToken: string;
  readonly createdAt: string;
}

/** The only place that queries sca_browser_session. */
export const scaBrowserSessionRepository = {
  async find(db: DbOrTx, authorisationId: string): Promise<ScaBrowserSession | undefined> {
    const row = await db.selectFrom('sca_browser_session').selectAll().where('authorisation_id', '=', authorisationId).executeTakeFirst();
    return (
      row && {
        authorisationId: row.authorisation_id,
        sessionHash: row.session_hash,
        csrfToken: row.csrf_token,
        createdAt: row.created_at,
      }
    );
  },

  /** Binds the authorisation to a browser session; false when another browser was bound first. */
  async bind(db: DbOrTx, session: ScaBrowserSession): Promise<boolean> {
    const inserted = await db
      .insertInto('sca_browser_session')
      .values({
        authorisation_id: session.authorisationId,
        session_hash: session.sessionHash,
        csrf_token: session.csrfToken,
        created_at: session.createdAt,
      })
      .onConflict((oc) => oc.column('authorisation_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  },
};
