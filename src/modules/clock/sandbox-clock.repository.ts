import { sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';

/** A TPP's offset: read by most requests (the bank's today and now), so prepared once. */
const OFFSET_OF = preparedQuery((db, v: { tppId: string }) =>
  db
    .selectFrom('sandbox_clock')
    .select(sql<string>`cast(offset_ms as text)`.as('offset'))
    .where('tpp_id', '=', v.tppId),
);

/** The only place that queries sandbox_clock. */
export const sandboxClockRepository = {
  /** The TPP's offset in milliseconds; 0 when it never moved its clock. */
  async offsetOf(db: DbOrTx, tppId: string): Promise<number> {
    const row = (await OFFSET_OF.run(db, { tppId })).rows[0];
    return row ? Number(row.offset) : 0;
  },

  /** Every TPP's offset that is not 0 (a batch run over all TPPs reads them once). */
  async offsets(db: DbOrTx): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('sandbox_clock')
      .select(['tpp_id', sql<string>`cast(offset_ms as text)`.as('offset')])
      .execute();
    return new Map(rows.map((row) => [row.tpp_id, Number(row.offset)]));
  },

  async set(db: DbOrTx, tppId: string, offsetMs: number, at: string): Promise<void> {
    await db
      .insertInto('sandbox_clock')
      .values({ tpp_id: tppId, offset_ms: BigInt(offsetMs), changed_at: at })
      .onConflict((oc) => oc.column('tpp_id').doUpdateSet({ offset_ms: BigInt(offsetMs), changed_at: at }))
      .execute();
  },
};
