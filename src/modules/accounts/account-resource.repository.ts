import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';

export type AccountType = 'account' | 'card';

/** Every account read starts here, so prepared once. */
const BANK_ACCOUNT_OF = preparedQuery((db, v: { tppId: string; type: AccountType; resourceId: string }) =>
  db
    .selectFrom('account_resource')
    .select('bank_account_id')
    .where('resource_id', '=', v.resourceId)
    .where('tpp_id', '=', v.tppId)
    .where('account_type', '=', v.type),
);

/** The only place that queries the account_resource table. */
export const accountResourceRepository = {
  /** The TPP's resourceId of an account: the one given before, or a new one kept from now on. */
  async idFor(db: DbOrTx, tppId: string, type: AccountType, bankAccountId: string, at: string): Promise<string> {
    const find = () =>
      db
        .selectFrom('account_resource')
        .select('resource_id')
        .where('tpp_id', '=', tppId)
        .where('account_type', '=', type)
        .where('bank_account_id', '=', bankAccountId)
        .executeTakeFirst();
    const known = await find();
    if (known) return known.resource_id;
    // Two requests may meet here: the unique key keeps one id, and both read it back.
    await db
      .insertInto('account_resource')
      .values({ resource_id: randomUUID(), tpp_id: tppId, account_type: type, bank_account_id: bankAccountId, created_at: at })
      .onConflict((conflict) => conflict.columns(['tpp_id', 'account_type', 'bank_account_id']).doNothing())
      .execute();
    const stored = await find();
    if (!stored) throw new Error('an account resource id vanished right after it was written');
    return stored.resource_id;
  },

  /** The bank's account behind a TPP's resourceId; another TPP's id is unknown. */
  async bankAccountOf(db: DbOrTx, tppId: string, type: AccountType, resourceId: string): Promise<string | undefined> {
    const row = (await BANK_ACCOUNT_OF.run(db, { tppId, type, resourceId })).rows[0];
    return row?.bank_account_id;
  },
};
