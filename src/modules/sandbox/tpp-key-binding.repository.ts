import type { DbOrTx } from '../../db/create-db.js';

export interface KeyBinding {
  readonly organizationIdentifier: string;
  readonly publicKeySha256: string;
}

/** The only place that queries sandbox_key_binding. */
export const keyBindingRepository = {
  async find(db: DbOrTx, organizationIdentifier: string): Promise<KeyBinding | undefined> {
    const row = await db
      .selectFrom('sandbox_key_binding')
      .select(['organization_identifier', 'public_key_sha256'])
      .where('organization_identifier', '=', organizationIdentifier)
      .executeTakeFirst();
    return row && { organizationIdentifier: row.organization_identifier, publicKeySha256: row.public_key_sha256 };
  },

  /** Binds an id to its first key; false when another request bound it first. */
  async bind(db: DbOrTx, binding: KeyBinding, at: string): Promise<boolean> {
    const inserted = await db
      .insertInto('sandbox_key_binding')
      .values({ organization_identifier: binding.organizationIdentifier, public_key_sha256: binding.publicKeySha256, bound_at: at })
      .onConflict((oc) => oc.column('organization_identifier').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  },

  /** Moves the binding from the key that proved itself to the new one; false when it moved meanwhile. */
  async rotate(db: DbOrTx, from: KeyBinding, toPublicKeySha256: string, at: string): Promise<boolean> {
    const updated = await db
      .updateTable('sandbox_key_binding')
      .set({ public_key_sha256: toPublicKeySha256, rotated_at: at })
      .where('organization_identifier', '=', from.organizationIdentifier)
      .where('public_key_sha256', '=', from.publicKeySha256)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  },
};
