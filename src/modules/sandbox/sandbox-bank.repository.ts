import { PostgresAdapter } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';

/** What a removal took away; `ledgerAccountIds` still have postings the caller must forget. */
export interface Removal {
  readonly ledgerAccountIds: readonly string[];
  readonly customers: number;
  readonly accounts: number;
  readonly cardAccounts: number;
}

/**
 * Removals that span the sandbox bank's tables, children first so the foreign keys hold. Both
 * run inside the caller's transaction, with the ledger clean-up and the audit entry.
 */
export const sandboxBankRepository = {
  /**
   * Takes the TPP's sandbox lock until the transaction ends: the upsert holds the row lock on
   * PostgreSQL. SQLite needs nothing: every transaction begins IMMEDIATE (create-db.ts), so one
   * writer at a time, across processes too; skipping the write matters in a batch run.
   */
  async lockTenant(trx: DbOrTx, tppId: string, at: string): Promise<void> {
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await trx
      .insertInto('sandbox_tenant')
      .values({ tpp_id: tppId, changed_at: at })
      .onConflict((oc) => oc.column('tpp_id').doUpdateSet({ changed_at: at }))
      .execute();
  },

  /** Everything of one TPP's sandbox (initialize); nothing of any other TPP. */
  async removeAll(trx: DbOrTx, tppId: string): Promise<Removal> {
    const accountIds = await trx.selectFrom('sandbox_account').select('id').where('tpp_id', '=', tppId).execute();
    const cardIds = await trx.selectFrom('sandbox_card_account').select('id').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_core_system_fault').where('tpp_id', '=', tppId).execute();
    // Back to the default price list of instant payments.
    await trx.deleteFrom('sandbox_instant_payment_fee').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_card_transaction').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_card_account').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_transaction').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_engagement').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_agreement').where('tpp_id', '=', tppId).execute();
    await trx.deleteFrom('sandbox_account').where('tpp_id', '=', tppId).execute();
    const customers = await trx.deleteFrom('sandbox_customer').where('tpp_id', '=', tppId).executeTakeFirst();
    return {
      ledgerAccountIds: [...accountIds, ...cardIds].map((row) => row.id),
      customers: Number(customers.numDeletedRows),
      accounts: accountIds.length,
      cardAccounts: cardIds.length,
    };
  },

  /**
   * A customer and all that hangs on it: its accounts and card accounts with their transactions,
   * its agreement with every engagement under it, and its own engagements as a PSU elsewhere.
   */
  async removeCustomer(trx: DbOrTx, tppId: string, customerId: string): Promise<Removal> {
    const accountIds = (
      await trx.selectFrom('sandbox_account').select('id').where('tpp_id', '=', tppId).where('customer_id', '=', customerId).execute()
    ).map((row) => row.id);
    const cardIds = (
      await trx.selectFrom('sandbox_card_account').select('id').where('tpp_id', '=', tppId).where('customer_id', '=', customerId).execute()
    ).map((row) => row.id);
    const agreementIds = (
      await trx.selectFrom('sandbox_agreement').select('id').where('tpp_id', '=', tppId).where('customer_id', '=', customerId).execute()
    ).map((row) => row.id);

    let engagements = trx.deleteFrom('sandbox_engagement').where('tpp_id', '=', tppId);
    engagements = engagements.where((eb) =>
      eb.or([
        eb('customer_id', '=', customerId),
        ...(accountIds.length > 0 ? [eb('account_id', 'in', accountIds)] : []),
        ...(agreementIds.length > 0 ? [eb('agreement_id', 'in', agreementIds)] : []),
      ]),
    );
    await engagements.execute();
    // A simulated fault goes with its account (it would never match a new account's id, but it would stay).
    const faulty = [...cardIds, ...accountIds];
    if (faulty.length > 0) {
      await trx.deleteFrom('sandbox_core_system_fault').where('tpp_id', '=', tppId).where('account_id', 'in', faulty).execute();
    }
    if (cardIds.length > 0) {
      await trx.deleteFrom('sandbox_card_transaction').where('tpp_id', '=', tppId).where('card_account_id', 'in', cardIds).execute();
      await trx.deleteFrom('sandbox_card_account').where('tpp_id', '=', tppId).where('id', 'in', cardIds).execute();
    }
    if (accountIds.length > 0) {
      await trx.deleteFrom('sandbox_transaction').where('tpp_id', '=', tppId).where('account_id', 'in', accountIds).execute();
      await trx.deleteFrom('sandbox_account').where('tpp_id', '=', tppId).where('id', 'in', accountIds).execute();
    }
    await trx.deleteFrom('sandbox_agreement').where('tpp_id', '=', tppId).where('customer_id', '=', customerId).execute();
    const customers = await trx.deleteFrom('sandbox_customer').where('tpp_id', '=', tppId).where('id', '=', customerId).executeTakeFirst();
    return {
      ledgerAccountIds: [...accountIds, ...cardIds],
      customers: Number(customers.numDeletedRows),
      accounts: accountIds.length,
      cardAccounts: cardIds.length,
    };
  },
};
