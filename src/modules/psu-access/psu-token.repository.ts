import type { DbOrTx } from '../../db/create-db.js';

export interface PsuToken {
  readonly tppId: string;
  readonly psuId: string;
  readonly loginId: string;
  readonly expiresAt: string;
}

/** The only place that queries the psu_token table; tokens are looked up by their SHA-256 only. */
export const psuTokenRepository = {
  async insert(db: DbOrTx, tokenHash: string, token: PsuToken, at: string): Promise<void> {
    await db
      .insertInto('psu_token')
      .values({
        token_hash: tokenHash,
        tpp_id: token.tppId,
        psu_id: token.psuId,
        login_id: token.loginId,
        expires_at: token.expiresAt,
        created_at: at,
      })
      .execute();
  },

  async find(db: DbOrTx, tokenHash: string): Promise<PsuToken | undefined> {
    const row = await db.selectFrom('psu_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && { tppId: row.tpp_id, psuId: row.psu_id, loginId: row.login_id, expiresAt: row.expires_at };
  },
};
