import type { DbOrTx } from '../../db/create-db.js';
import type { SigningBasketTable } from './signing-basket.table.js';
import type { StoredRequestContext } from '../../http/headers/request-headers.js';

/** A stored signing basket. */
export interface SigningBasket {
  readonly id: string;
  readonly tppId: string;
  readonly psuId: string;
  readonly psuCorporateId: string | undefined;
  /** In the order the TPP listed them. */
  readonly paymentIds: readonly string[];
  readonly requestId: string;
  readonly requestContext: StoredRequestContext;
  readonly createdAt: string;
  readonly deletedAt: string | undefined;
}

export type NewSigningBasket = Omit<SigningBasket, 'deletedAt'>;

function toBasket(row: SigningBasketTable): SigningBasket {
  return {
    id: row.id,
    tppId: row.tpp_id,
    psuId: row.psu_id,
    psuCorporateId: row.psu_corporate_id ?? undefined,
    paymentIds: JSON.parse(row.payment_ids) as string[],
    requestId: row.request_id,
    requestContext: JSON.parse(row.request_context) as StoredRequestContext,
    createdAt: row.created_at,
    deletedAt: row.deleted_at ?? undefined,
  };
}

/** The only place that queries the signing_basket table. */
export const signingBasketRepository = {
  async insert(db: DbOrTx, basket: NewSigningBasket): Promise<void> {
    await db
      .insertInto('signing_basket')
      .values({
        id: basket.id,
        tpp_id: basket.tppId,
        psu_id: basket.psuId,
        psu_corporate_id: basket.psuCorporateId ?? null,
        payment_ids: JSON.stringify(basket.paymentIds),
        request_id: basket.requestId,
        request_context: JSON.stringify(basket.requestContext),
        created_at: basket.createdAt,
        deleted_at: null,
      })
      .execute();
  },

  /** A basket of this TPP; another TPP's is not found (docs/design.md §5). */
  async find(db: DbOrTx, tppId: string, id: string): Promise<SigningBasket | undefined> {
    const row = await db.selectFrom('signing_basket').selectAll().where('id', '=', id).where('tpp_id', '=', tppId).executeTakeFirst();
    return row && toBasket(row);
  },

  /** The baskets of this TPP a PSU created and nobody deleted, oldest first (a sandbox deletion asks). */
  async listUndeletedOfPsu(db: DbOrTx, tppId: string, psuId: string): Promise<SigningBasket[]> {
    const rows = await db
      .selectFrom('signing_basket')
      .selectAll()
      .where('tpp_id', '=', tppId)
      .where('psu_id', '=', psuId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toBasket);
  },

  /**
   * Takes the basket's row lock for the caller's transaction if the basket is not deleted (an
   * approval, after it locked its authorisation). False when deleted.
   */
  async lockUndeleted(trx: DbOrTx, id: string): Promise<boolean> {
    const result = await trx
      .updateTable('signing_basket')
      .set({ id })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Marks the basket deleted; false when it already was. */
  async markDeleted(trx: DbOrTx, id: string, at: string): Promise<boolean> {
    const result = await trx
      .updateTable('signing_basket')
      .set({ deleted_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
