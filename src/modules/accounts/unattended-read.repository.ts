import type { DbOrTx } from '../../db/create-db.js';
import type { UnattendedReadTable } from './unattended-read.table.js';

export interface UnattendedReadKey {
  readonly consentId: string;
  readonly accountId: string;
  readonly kind: UnattendedReadTable['kind'];
}

/** The only place that queries unattended_read. Writes are compare-and-set: two instances never both count one slot. */
export const unattendedReadRepository = {
  async readTimes(db: DbOrTx, key: UnattendedReadKey): Promise<string | undefined> {
    const row = await db
      .selectFrom('unattended_read')
      .select('read_times')
      .where('consent_id', '=', key.consentId)
      .where('account_id', '=', key.accountId)
      .where('kind', '=', key.kind)
      .executeTakeFirst();
    return row?.read_times;
  },

  /**
   * Writes `next` if the row still holds `expected` (undefined: if there is no row yet); false when
   * another read changed it first.
   */
  async replaceReadTimes(db: DbOrTx, key: UnattendedReadKey, expected: string | undefined, next: string): Promise<boolean> {
    if (expected === undefined) {
      const inserted = await db
        .insertInto('unattended_read')
        .values({ consent_id: key.consentId, account_id: key.accountId, kind: key.kind, read_times: next })
        .onConflict((oc) => oc.columns(['consent_id', 'account_id', 'kind']).doNothing())
        .returning('consent_id')
        .executeTakeFirst();
      return inserted !== undefined;
    }
    const updated = await db
      .updateTable('unattended_read')
      .set({ read_times: next })
      .where('consent_id', '=', key.consentId)
      .where('account_id', '=', key.accountId)
      .where('kind', '=', key.kind)
      .where('read_times', '=', expected)
      .returning('consent_id')
      .executeTakeFirst();
    return updated !== undefined;
  },
};
