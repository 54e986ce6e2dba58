import type { DbOrTx } from '../db/create-db.js';

/** The only place that queries server_secret. */
export const serverSecretRepository = {
  /** The stored secret for `purpose` (base64url), if one was made. */
  async read(db: DbOrTx, purpose: string): Promise<string | undefined> {
    const row = await db.selectFrom('server_secret').select('secret').where('purpose', '=', purpose).executeTakeFirst();
    return row?.secret;
  },

  /** Stores `secret` for `purpose` unless another instance stored one first; that one then stands. */
  async insertIfAbsent(db: DbOrTx, purpose: string, secret: string): Promise<void> {
    await db
      .insertInto('server_secret')
      .values({ purpose, secret })
      .onConflict((oc) => oc.column('purpose').doNothing())
      .execute();
  },
};
