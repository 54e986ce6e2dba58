import type { DbOrTx } from '../../db/create-db.js';
import {
  DEFAULT_INSTANT_PAYMENT_FEES,
  readInstantPaymentFees,
  tierTexts,
  type InstantPaymentFeeTier,
  type InstantPaymentFeeTierText,
} from './instant-payment-fee.js';

/** The only place that queries sandbox_instant_payment_fee; scoped to one TPP. */
export const instantPaymentFeeRepository = {
  /** The TPP's price list, or the default one when it set none. */
  async tiersOf(db: DbOrTx, tppId: string): Promise<readonly InstantPaymentFeeTier[]> {
    const row = await db.selectFrom('sandbox_instant_payment_fee').select('tiers').where('tpp_id', '=', tppId).executeTakeFirst();
    if (!row) return DEFAULT_INSTANT_PAYMENT_FEES;
    const read = readInstantPaymentFees(JSON.parse(row.tiers) as InstantPaymentFeeTierText[]);
    // Written only after the same check: a row that fails it was written by hand.
    if (!read.ok) throw new Error(`sandbox_instant_payment_fee of ${tppId} cannot be read: ${read.path} ${read.reason.en}`);
    return read.tiers;
  },

  async set(db: DbOrTx, tppId: string, tiers: readonly InstantPaymentFeeTier[], at: string): Promise<void> {
    const text = JSON.stringify(tierTexts(tiers));
    await db
      .insertInto('sandbox_instant_payment_fee')
      .values({ tpp_id: tppId, tiers: text, changed_at: at })
      .onConflict((oc) => oc.column('tpp_id').doUpdateSet({ tiers: text, changed_at: at }))
      .execute();
  },
};
