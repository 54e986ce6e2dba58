import { PostgresAdapter } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { RequestedAccess } from './consent-access.js';
import type { Grant } from './consent-grant.js';
import { isConsentStatus, type ConsentStatus } from './consent-status.js';
import type { Consent, NewConsent } from './consent.model.js';
import type { ConsentTable } from './consent.table.js';
import type { StoredRequestContext } from '../../http/headers/request-headers.js';

function toConsent(row: ConsentTable): Consent {
  // The column is typed, but a row written by hand or by another version of the server is read too.
  const status: string = row.status;
  if (!isConsentStatus(status)) throw new Error(`consent ${row.id} has an unknown status ${status}`);
  return {
    id: row.id,
    tppId: row.tpp_id,
    status,
    access: JSON.parse(row.access) as RequestedAccess,
    recurring: Boolean(row.recurring),
    validUntil: row.valid_until,
    frequencyPerDay: Number(row.frequency_per_day),
    psuId: row.psu_id ?? undefined,
    psuCorporateId: row.psu_corporate_id ?? undefined,
    grant: row.granted === null ? undefined : (JSON.parse(row.granted) as Grant),
    approvedAt: row.approved_at ?? undefined,
    lastActionDate: row.last_action_date,
    requestId: row.request_id,
    requestContext: JSON.parse(row.request_context) as StoredRequestContext,
    createdAt: row.created_at,
    statusChangedAt: row.status_changed_at,
  };
}

/**
 * Every column, named: a prepared query's columns are fixed when PostgreSQL prepares it, and a
 * `select *` would fail there once a migration adds a column (prepared-query.ts).
 */
const CONSENT_COLUMNS = [
  'id',
  'tpp_id',
  'status',
  'kind',
  'access',
  'recurring',
  'valid_until',
  'frequency_per_day',
  'psu_id',
  'psu_corporate_id',
  'granted',
  'approved_at',
  'last_action_date',
  'request_id',
  'request_context',
  'created_at',
  'status_changed_at',
] as const satisfies readonly (keyof ConsentTable)[];

/** A TPP's consent by id: every account read looks it up, so prepared once. */
const FIND = preparedQuery((db, v: { tppId: string; id: string }) =>
  db.selectFrom('consent').select(CONSENT_COLUMNS).where('id', '=', v.id).where('tpp_id', '=', v.tppId),
);

/** The only place that queries the consent table. */
export const consentRepository = {
  async insert(db: DbOrTx, consent: NewConsent): Promise<Consent> {
    await db
      .insertInto('consent')
      .values({
        id: consent.id,
        tpp_id: consent.tppId,
        status: 'received',
        kind: consent.access.kind,
        access: JSON.stringify(consent.access),
        // 1/0: better-sqlite3 binds no booleans.
        recurring: consent.recurring ? 1 : 0,
        valid_until: consent.validUntil,
        frequency_per_day: consent.frequencyPerDay,
        psu_id: consent.psuId ?? null,
        psu_corporate_id: consent.psuCorporateId ?? null,
        granted: null,
        approved_at: null,
        last_action_date: consent.lastActionDate,
        request_id: consent.requestId,
        request_context: JSON.stringify(consent.requestContext),
        created_at: consent.createdAt,
        status_changed_at: consent.createdAt,
      })
      .execute();
    return { ...consent, status: 'received', grant: undefined, approvedAt: undefined, statusChangedAt: consent.createdAt };
  },

  /** A TPP's consent; another TPP's is not found. */
  async find(db: DbOrTx, tppId: string, id: string): Promise<Consent | undefined> {
    const row = (await FIND.run(db, { tppId, id })).rows[0];
    return row && toConsent(row);
  },

  /** A consent by id alone: for its authorisation, which names it. */
  async findById(db: DbOrTx, id: string): Promise<Consent | undefined> {
    const row = await db.selectFrom('consent').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toConsent(row);
  },

  /** Locks a consent's row for the caller's transaction (PostgreSQL; SQLite runs one writer at a time). */
  async lock(trx: DbOrTx, id: string): Promise<void> {
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await trx.selectFrom('consent').select('id').where('id', '=', id).forUpdate().execute();
  },

  /** A PSU's valid recurring consents given to a TPP. */
  async listValidOf(db: DbOrTx, tppId: string, psuId: string): Promise<Consent[]> {
    const rows = await db
      .selectFrom('consent')
      .selectAll()
      .where('tpp_id', '=', tppId)
      .where('psu_id', '=', psuId)
      .where('status', '=', 'valid')
      .execute();
    return rows.map(toConsent);
  },

  /**
   * The consents a PSU gave (approved on the SCA pages), newest first: of one TPP (the sandbox's
   * mock bank of that TPP), or of every TPP when `tppId` is undefined (the bank's PSU in production).
   */
  async listApprovedBy(db: DbOrTx, psuId: string, tppId: string | undefined, limit: number): Promise<Consent[]> {
    let query = db.selectFrom('consent').selectAll().where('psu_id', '=', psuId).where('approved_at', 'is not', null);
    if (tppId !== undefined) query = query.where('tpp_id', '=', tppId);
    const rows = await query.orderBy('approved_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(toConsent);
  },

  /**
   * Applies a status change only if the status is still `from`: false when a concurrent change
   * won, so a caller never overwrites what it did not see.
   */
  async update(
    db: DbOrTx,
    id: string,
    from: ConsentStatus,
    change: {
      readonly status?: ConsentStatus;
      readonly psuId?: string;
      readonly psuCorporateId?: string;
      readonly grant?: Grant;
      readonly approvedAt?: string;
      readonly lastActionDate?: string;
      readonly at: string;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('consent')
      .set({
        ...(change.status === undefined ? {} : { status: change.status, status_changed_at: change.at }),
        ...(change.psuId === undefined ? {} : { psu_id: change.psuId }),
        ...(change.psuCorporateId === undefined ? {} : { psu_corporate_id: change.psuCorporateId }),
        ...(change.grant === undefined ? {} : { granted: JSON.stringify(change.grant) }),
        ...(change.approvedAt === undefined ? {} : { approved_at: change.approvedAt }),
        ...(change.lastActionDate === undefined ? {} : { last_action_date: change.lastActionDate }),
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
