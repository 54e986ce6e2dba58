import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Authorisation, AuthorisationPurpose, NewAuthorisation } from './authorisation.model.js';
import type { AuthorisationTable } from './authorisation.table.js';
import { FINAL_SCA_STATUSES, isScaStatus, type ScaMove, type ScaStatus } from './sca-status.js';

/** A row as read: the table's own column types. */
type Row = AuthorisationTable;

function toAuthorisation(row: Row): Authorisation {
  // The column is typed, but a row written by hand or by another version of the server is read too.
  const scaStatus: string = row.sca_status;
  if (!isScaStatus(scaStatus)) throw new Error(`authorisation ${row.id} has an unknown scaStatus ${scaStatus}`);
  return {
    id: row.id,
    tppId: row.tpp_id,
    tppName: row.tpp_name,
    purpose: row.purpose,
    resourceId: row.resource_id ?? undefined,
    scaStatus,
    statusReason: row.status_reason ?? undefined,
    expectedPsuId: row.expected_psu_id ?? undefined,
    psuCorporateId: row.psu_corporate_id ?? undefined,
    psuId: row.psu_id ?? undefined,
    codeAttempts: Number(row.code_attempts),
    redirectUri: row.redirect_uri ?? undefined,
    nokRedirectUri: row.nok_redirect_uri ?? undefined,
    biometric: Boolean(row.biometric),
    loginCodeHash: row.login_code_hash ?? undefined,
    loginCodeExpiresAt: row.login_code_expires_at ?? undefined,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    statusChangedAt: row.status_changed_at,
  };
}

/** A new authorisation: every SCA-requiring initiation inserts one, so prepared once. */
const INSERT = preparedQuery((db, row: AuthorisationTable) => db.insertInto('authorisation').values(row), { deferrable: true });

/** The only place that queries the authorisation table. */
export const authorisationRepository = {
  async insert(db: DbOrTx, authorisation: NewAuthorisation): Promise<Authorisation> {
    await INSERT.run(db, {
      id: authorisation.id,
      tpp_id: authorisation.tppId,
      tpp_name: authorisation.tppName,
      purpose: authorisation.purpose,
      resource_id: authorisation.resourceId ?? null,
      sca_status: 'received',
      status_reason: null,
      expected_psu_id: authorisation.expectedPsuId ?? null,
      psu_corporate_id: authorisation.psuCorporateId ?? null,
      psu_id: null,
      code_attempts: 0,
      redirect_uri: authorisation.redirectUri ?? null,
      nok_redirect_uri: authorisation.nokRedirectUri ?? null,
      // 1/0: better-sqlite3 binds no booleans.
      biometric: authorisation.biometric ? 1 : 0,
      login_code_hash: null,
      login_code_expires_at: null,
      expires_at: authorisation.expiresAt,
      created_at: authorisation.createdAt,
      status_changed_at: authorisation.createdAt,
    });
    // Written out, not spread: V8 builds a spread followed by other properties on a slow path,
    // and every initiation creates one.
    return {
      id: authorisation.id,
      tppId: authorisation.tppId,
      tppName: authorisation.tppName,
      purpose: authorisation.purpose,
      resourceId: authorisation.resourceId,
      scaStatus: 'received',
      statusReason: undefined,
      expectedPsuId: authorisation.expectedPsuId,
      psuCorporateId: authorisation.psuCorporateId,
      psuId: undefined,
      codeAttempts: 0,
      redirectUri: authorisation.redirectUri,
      nokRedirectUri: authorisation.nokRedirectUri,
      biometric: authorisation.biometric,
      loginCodeHash: undefined,
      loginCodeExpiresAt: undefined,
      expiresAt: authorisation.expiresAt,
      createdAt: authorisation.createdAt,
      statusChangedAt: authorisation.createdAt,
    };
  },

  async find(db: DbOrTx, id: string): Promise<Authorisation | undefined> {
    const row = await db.selectFrom('authorisation').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAuthorisation(row);
  },

  /** The authorisations of a payment (or a payment's cancellations), oldest first. */
  async listFor(db: DbOrTx, tppId: string, purpose: AuthorisationPurpose, resourceId: string): Promise<Authorisation[]> {
    const rows = await db
      .selectFrom('authorisation')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .where('tpp_id', '=', tppId)
      .where('purpose', '=', purpose)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toAuthorisation);
  },

  /** Who approved each of some resources: the PSUs of their finalised authorisations (one query for a basket's payments). */
  async approversOf(
    db: DbOrTx,
    tppId: string,
    purpose: AuthorisationPurpose,
    resourceIds: readonly string[],
  ): Promise<Map<string, string[]>> {
    const approvers = new Map<string, string[]>();
    if (resourceIds.length === 0) return approvers;
    const rows = await db
      .selectFrom('authorisation')
      .select(['resource_id', 'psu_id'])
      .where('resource_id', 'in', resourceIds)
      .where('tpp_id', '=', tppId)
      .where('purpose', '=', purpose)
      .where('sca_status', '=', 'finalised')
      .execute();
    for (const row of rows) {
      if (row.resource_id === null || row.psu_id === null) continue;
      approvers.set(row.resource_id, [...(approvers.get(row.resource_id) ?? []), row.psu_id]);
    }
    return approvers;
  },

  /**
   * Locks the authorisations of some resources for the caller's transaction, in id order
   * (PostgreSQL; SQLite runs one write transaction at a time). Whoever changes an authorisation
   * and its resource together locks the authorisation first, then the resource.
   */
  async lockOf(trx: DbOrTx, purpose: AuthorisationPurpose, resourceIds: readonly string[]): Promise<void> {
    if (resourceIds.length === 0 || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await trx
      .selectFrom('authorisation')
      .select('id')
      .where('resource_id', 'in', resourceIds)
      .where('purpose', '=', purpose)
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /** The open authorisations of some resources, whoever started them (one query for a basket's payments). */
  async listOpenOf(db: DbOrTx, purpose: AuthorisationPurpose, resourceIds: readonly string[]): Promise<Authorisation[]> {
    if (resourceIds.length === 0) return [];
    const rows = await db
      .selectFrom('authorisation')
      .selectAll()
      .where('resource_id', 'in', resourceIds)
      .where('purpose', '=', purpose)
      .where('sca_status', 'not in', FINAL_SCA_STATUSES)
      .execute();
    return rows.map(toAuthorisation);
  },

  /** Open authorisations whose link has expired, oldest first (the sweep). */
  async listExpired(db: DbOrTx, now: string, limit: number): Promise<Authorisation[]> {
    const rows = await db
      .selectFrom('authorisation')
      .selectAll()
      .where('sca_status', 'not in', FINAL_SCA_STATUSES)
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toAuthorisation);
  },

  /**
   * Applies a change other than of the scaStatus (which only {@link transition} writes) only if the
   * status is still `from`: false when a concurrent change won, so a caller never overwrites what
   * it did not see.
   */
  async update(
    db: DbOrTx,
    id: string,
    from: ScaStatus,
    change: { readonly loginCodeHash?: string; readonly loginCodeExpiresAt?: string },
  ): Promise<boolean> {
    const result = await db
      .updateTable('authorisation')
      .set({
        ...(change.loginCodeHash === undefined ? {} : { login_code_hash: change.loginCodeHash }),
        ...(change.loginCodeExpiresAt === undefined ? {} : { login_code_expires_at: change.loginCodeExpiresAt }),
      })
      .where('id', '=', id)
      .where('sca_status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Writes a move of the scaStatus the move table approved (authorisation-transition.ts is its
   * caller, which audits it), with what comes with it, only if the status is still the move's
   * `from`: false when a concurrent change won.
   */
  async transition(
    db: DbOrTx,
    id: string,
    move: ScaMove,
    change: { readonly statusReason?: string; readonly psuId?: string; readonly at: string },
  ): Promise<boolean> {
    const result = await db
      .updateTable('authorisation')
      .set({
        sca_status: move.to,
        status_changed_at: change.at,
        ...(change.statusReason === undefined ? {} : { status_reason: change.statusReason }),
        ...(change.psuId === undefined ? {} : { psu_id: change.psuId }),
      })
      .where('id', '=', id)
      .where('sca_status', '=', move.from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Counts one more one-time code for an authorisation waiting for its code, unless `max` codes
   * have been counted already: the new count, or undefined when nothing was counted (the limit was
   * reached, or the authorisation moved on).
   */
  async countCodeAttempt(db: DbOrTx, id: string, max: number): Promise<number | undefined> {
    const result = await db
      .updateTable('authorisation')
      .set({ code_attempts: sql<number>`code_attempts + 1` })
      .where('id', '=', id)
      .where('sca_status', '=', 'psuIdentified')
      .where('code_attempts', '<', max)
      .returning('code_attempts')
      .executeTakeFirst();
    return result === undefined ? undefined : Number(result.code_attempts);
  },

  /** Finds a PSU login by the hash of its one-time code and spends the code; undefined when unknown or spent. */
  async takeLoginCode(db: DbOrTx, codeHash: string): Promise<Authorisation | undefined> {
    const row = await db.selectFrom('authorisation').selectAll().where('login_code_hash', '=', codeHash).executeTakeFirst();
    if (!row) return undefined;
    const spent = await db
      .updateTable('authorisation')
      .set({ login_code_hash: null })
      .where('id', '=', row.id)
      .where('login_code_hash', '=', codeHash)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? toAuthorisation(row) : undefined;
  },
};
