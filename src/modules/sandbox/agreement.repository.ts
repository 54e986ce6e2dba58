import { sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import type { EngagementRole, SandboxAgreement, SandboxEngagement } from './sandbox-bank.model.js';
import { JOINED_CUSTOMER_COLUMNS, joinedCustomer } from './customer.repository.js';

function agreements(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_agreement as g')
    .innerJoin('sandbox_customer as c', 'c.id', 'g.customer_id')
    .select(['g.id', 'g.organisation_number', 'g.name', ...JOINED_CUSTOMER_COLUMNS])
    .where('g.tpp_id', '=', tppId);
}

type AgreementRow = Awaited<ReturnType<ReturnType<typeof agreements>['executeTakeFirstOrThrow']>>;

function toAgreement(row: AgreementRow): SandboxAgreement {
  return {
    id: row.id,
    owner: joinedCustomer(row),
    organisationNumber: row.organisation_number,
    name: row.name,
  };
}

function engagements(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_engagement as e')
    .innerJoin('sandbox_customer as c', 'c.id', 'e.customer_id')
    .innerJoin('sandbox_account as a', 'a.id', 'e.account_id')
    .select([
      'e.id',
      'e.agreement_id',
      'e.roles',
      sql<string | null>`cast(e.register_limit_minor as text)`.as('register_limit_minor'),
      sql<string | null>`cast(e.approval_limit_minor as text)`.as('approval_limit_minor'),
      'e.consent_needs_second_approver',
      ...JOINED_CUSTOMER_COLUMNS,
      'a.id as account_id',
      'a.bban',
      'a.iban',
      'a.currency',
    ])
    .where('e.tpp_id', '=', tppId);
}

type EngagementRow = Awaited<ReturnType<ReturnType<typeof engagements>['executeTakeFirstOrThrow']>>;

function toEngagement(row: EngagementRow): SandboxEngagement {
  const limit = (minor: string | null) => (minor === null ? undefined : { minor: BigInt(minor), currency: row.currency });
  return {
    id: row.id,
    agreementId: row.agreement_id,
    customer: joinedCustomer(row),
    account: { id: row.account_id, bban: row.bban, iban: row.iban, currency: row.currency },
    roles: row.roles.split(',') as EngagementRole[],
    registerLimit: limit(row.register_limit_minor),
    approvalLimit: limit(row.approval_limit_minor),
    consentNeedsSecondApprover: Boolean(row.consent_needs_second_approver),
  };
}

/** The only place that queries sandbox_agreement and sandbox_engagement; scoped to one TPP. */
export const agreementRepository = {
  /** False when the owner already has an agreement or the organisation number is taken. */
  async insert(
    db: DbOrTx,
    tppId: string,
    agreement: { id: string; ownerId: string; organisationNumber: string; name: string },
    at: string,
  ) {
    const inserted = await db
      .insertInto('sandbox_agreement')
      .values({
        id: agreement.id,
        tpp_id: tppId,
        customer_id: agreement.ownerId,
        organisation_number: agreement.organisationNumber,
        name: agreement.name,
        created_at: at,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  async findById(db: DbOrTx, tppId: string, id: string): Promise<SandboxAgreement | undefined> {
    const row = await agreements(db, tppId).where('g.id', '=', id).executeTakeFirst();
    return row && toAgreement(row);
  },

  async findByOwner(db: DbOrTx, tppId: string, ownerId: string): Promise<SandboxAgreement | undefined> {
    const row = await agreements(db, tppId).where('g.customer_id', '=', ownerId).executeTakeFirst();
    return row && toAgreement(row);
  },

  async findByOrganisationNumber(db: DbOrTx, tppId: string, organisationNumber: string): Promise<SandboxAgreement | undefined> {
    const row = await agreements(db, tppId).where('g.organisation_number', '=', organisationNumber).executeTakeFirst();
    return row && toAgreement(row);
  },

  async list(db: DbOrTx, tppId: string): Promise<SandboxAgreement[]> {
    const rows = await agreements(db, tppId).orderBy('g.organisation_number').execute();
    return rows.map(toAgreement);
  },

  /** False when the PSU already has an engagement on this account under this agreement. */
  async insertEngagement(db: DbOrTx, tppId: string, engagement: SandboxEngagement, at: string): Promise<boolean> {
    const inserted = await db
      .insertInto('sandbox_engagement')
      .values({
        id: engagement.id,
        tpp_id: tppId,
        agreement_id: engagement.agreementId,
        customer_id: engagement.customer.id,
        account_id: engagement.account.id,
        roles: engagement.roles.join(','),
        register_limit_minor: engagement.registerLimit?.minor ?? null,
        approval_limit_minor: engagement.approvalLimit?.minor ?? null,
        consent_needs_second_approver: engagement.consentNeedsSecondApprover ? 1 : 0,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['agreement_id', 'customer_id', 'account_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** False when the agreement has no such engagement. */
  async deleteEngagement(db: DbOrTx, tppId: string, agreementId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('sandbox_engagement')
      .where('tpp_id', '=', tppId)
      .where('agreement_id', '=', agreementId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async findEngagement(db: DbOrTx, tppId: string, agreementId: string, id: string): Promise<SandboxEngagement | undefined> {
    const row = await engagements(db, tppId).where('e.agreement_id', '=', agreementId).where('e.id', '=', id).executeTakeFirst();
    return row && toEngagement(row);
  },

  /**
   * An agreement's engagements by customer and account; without `agreementId`, those of every
   * agreement of the TPP's sandbox (a list's, one query), each agreement's in that same order.
   */
  async listEngagements(db: DbOrTx, tppId: string, agreementId?: string): Promise<SandboxEngagement[]> {
    const ofTpp = engagements(db, tppId);
    const rows = await (agreementId === undefined ? ofTpp : ofTpp.where('e.agreement_id', '=', agreementId))
      .orderBy('c.customer_number')
      .orderBy('a.bban')
      .execute();
    return rows.map(toEngagement);
  },

  /** A PSU's engagements under one agreement (the accounts it may use in that corporate context). */
  async listEngagementsOfPsu(db: DbOrTx, tppId: string, agreementId: string, customerNumber: string): Promise<SandboxEngagement[]> {
    const rows = await engagements(db, tppId)
      .where('e.agreement_id', '=', agreementId)
      .where('c.customer_number', '=', customerNumber)
      .orderBy('a.bban')
      .execute();
    return rows.map(toEngagement);
  },
};
