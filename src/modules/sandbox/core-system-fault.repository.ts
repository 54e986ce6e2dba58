import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import { isCoreSystemFault, type CoreSystemFault } from './core-system-fault.js';

/** Asked by every account read, so prepared once. */
const FAULT_OF = preparedQuery((db, v: { tppId: string; accountId: string }) =>
  db.selectFrom('sandbox_core_system_fault').select('fault').where('tpp_id', '=', v.tppId).where('account_id', '=', v.accountId),
);

/** The only place that queries sandbox_core_system_fault; scoped to one TPP. */
export const coreSystemFaultRepository = {
  async faultOf(db: DbOrTx, tppId: string, accountId: string): Promise<CoreSystemFault | undefined> {
    const row = (await FAULT_OF.run(db, { tppId, accountId })).rows[0];
    return row && isCoreSystemFault(row.fault) ? row.fault : undefined;
  },

  /** Sets the account's fault, or clears it (undefined). */
  async set(db: DbOrTx, tppId: string, accountId: string, fault: CoreSystemFault | undefined): Promise<void> {
    if (fault === undefined) {
      await db.deleteFrom('sandbox_core_system_fault').where('tpp_id', '=', tppId).where('account_id', '=', accountId).execute();
      return;
    }
    await db
      .insertInto('sandbox_core_system_fault')
      .values({ tpp_id: tppId, account_id: accountId, fault })
      .onConflict((oc) => oc.columns(['tpp_id', 'account_id']).doUpdateSet({ fault }))
      .execute();
  },
};
