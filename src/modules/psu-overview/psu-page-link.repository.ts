import type { DbOrTx } from '../../db/create-db.js';

/** The only place that queries psu_page_link. */
export const psuPageLinkRepository = {
  async insert(db: DbOrTx, link: { tokenHash: string; tppId: string; createdAt: string; expiresAt: string }): Promise<void> {
    await db
      .insertInto('psu_page_link')
      .values({ token_hash: link.tokenHash, tpp_id: link.tppId, created_at: link.createdAt, expires_at: link.expiresAt })
      .execute();
  },

  /** The TPP of a link (by its token's hash) that still works at `now`. */
  async findLiveTpp(db: DbOrTx, tokenHash: string, now: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('psu_page_link')
      .select('tpp_id')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.tpp_id;
  },

  /** Deletes links that stopped working before `now`. */
  async purge(db: DbOrTx, now: string): Promise<void> {
    await db.deleteFrom('psu_page_link').where('expires_at', '<=', now).execute();
  },
};
