import type { DbOrTx } from '../../db/create-db.js';
import type { TppIdentity } from '../../security/tpp-identity.js';

export interface TppContact {
  readonly email: string;
  readonly updatedAt: string;
}

/** The only place that queries the tpp and tpp_contact tables. */
export const tppRepository = {
  /**
   * Records a TPP on first contact, or refreshes its name, roles and certificate when it comes
   * with another certificate. Idempotent, so concurrent first requests are harmless.
   */
  async recordContact(db: DbOrTx, tpp: TppIdentity, at: string): Promise<void> {
    const certificate = {
      name: tpp.name,
      nca_id: tpp.ncaId,
      roles: tpp.roles.join(','),
      certificate_fingerprint: tpp.certificateFingerprint,
      certificate_serial: tpp.certificateSerial,
      certificate_issuer: tpp.certificateIssuer,
      last_certificate_at: at,
    };
    await db
      .insertInto('tpp')
      .values({ id: tpp.id, first_seen_at: at, ...certificate })
      .onConflict((oc) => oc.column('id').doUpdateSet(certificate))
      .execute();
  },

  async findById(db: DbOrTx, id: string) {
    return db
      .selectFrom('tpp')
      .select(['id', 'name', 'nca_id', 'roles', 'certificate_fingerprint', 'first_seen_at', 'last_certificate_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async namesOf(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('tpp')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  },

  async saveContact(db: DbOrTx, tppId: string, email: string, at: string, requestId: string): Promise<void> {
    const values = { email, updated_at: at, updated_by_request_id: requestId };
    await db
      .insertInto('tpp_contact')
      .values({ tpp_id: tppId, ...values })
      .onConflict((oc) => oc.column('tpp_id').doUpdateSet(values))
      .execute();
  },

  async findContact(db: DbOrTx, tppId: string): Promise<TppContact | undefined> {
    const row = await db.selectFrom('tpp_contact').select(['email', 'updated_at']).where('tpp_id', '=', tppId).executeTakeFirst();
    return row ? { email: row.email, updatedAt: row.updated_at } : undefined;
  },
};
