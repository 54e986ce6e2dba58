import { randomInt, randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { checkOrganisationNumber, makeOrganisationNumber } from '../../domain/organisation-number.js';
import { accountRepository } from './account.repository.js';
import { agreementRepository } from './agreement.repository.js';
import type { NewAgreement, NewEngagement } from './agreement.schemas.js';
import { ENGAGEMENT_ROLES, type SandboxAgreement, type SandboxCaller, type SandboxEngagement } from './sandbox-bank.model.js';
import { fieldPath, limitIn, norwegianAccount, refuse, valid } from './sandbox-checks.js';
import { alreadyExists, audit, customerNamed, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';
import { groupBy } from '../../domain/group-by.js';

export interface AgreementWithEngagements {
  readonly agreement: SandboxAgreement;
  readonly engagements: readonly SandboxEngagement[];
}

const GENERATION_ATTEMPTS = 20;

/**
 * Corporate agreements and their engagements (docs/design.md §6): a corporation's
 * agreement carries the organisation number a PSU sends as PSU-Corporate-ID; an engagement lets
 * one PSU view (VIEW) or pay from (REGISTER) one of the corporation's own accounts, within limits.
 */
export function createAgreementService({ db, now }: SandboxDeps) {
  async function find(db: DbOrTx, caller: SandboxCaller, id: string): Promise<SandboxAgreement> {
    const agreement = await agreementRepository.findById(db, caller.tppId, id);
    if (!agreement) unknown('mockAgreementId', localized(`your sandbox has no agreement ${id}`, `sandkassen din har ingen avtale ${id}`));
    return agreement;
  }

  async function addEngagement(
    trx: DbOrTx,
    caller: SandboxCaller,
    agreement: SandboxAgreement,
    input: NewEngagement,
    path: string,
    at: string,
  ): Promise<SandboxEngagement> {
    const customer = await customerNamed(trx, caller.tppId, input.customer, fieldPath(path, 'customer'));
    const accountPath = fieldPath(path, 'account');
    const reference = norwegianAccount(input.account, accountPath);
    const account = await accountRepository.findByReference(trx, caller.tppId, reference);
    if (!account) {
      refuse(
        accountPath,
        localized(
          `names account ${reference.bban}, which your sandbox does not have`,
          `viser til konto ${reference.bban}, som ikke finnes i sandkassen din`,
        ),
      );
    }
    if (account.owner.id !== agreement.owner.id) {
      refuse(
        accountPath,
        localized(
          `is owned by customer ${account.owner.customerNumber}, not by the agreement's corporation ${agreement.owner.customerNumber}: an engagement gives access to the corporation's own accounts only`,
          `eies av kunde ${account.owner.customerNumber}, ikke av avtalens bedrift ${agreement.owner.customerNumber}: et engasjement gir bare tilgang til bedriftens egne kontoer`,
        ),
      );
    }
    const engagement: SandboxEngagement = {
      id: randomUUID(),
      agreementId: agreement.id,
      customer,
      account: { id: account.id, bban: account.bban, iban: account.iban, currency: account.currency },
      roles: ENGAGEMENT_ROLES.filter((role) => input.roles.includes(role)),
      registerLimit: limitIn(input.registerLimit, account.currency, fieldPath(path, 'registerLimit')),
      approvalLimit: limitIn(input.approvalLimit, account.currency, fieldPath(path, 'approvalLimit')),
      consentNeedsSecondApprover: input.consentNeedsSecondApprover ?? false,
    };
    if (!(await agreementRepository.insertEngagement(trx, caller.tppId, engagement, at))) {
      alreadyExists(
        path || 'customer',
        localized(
          `customer ${customer.customerNumber} already has an engagement on account ${account.bban} under this agreement`,
          `kunde ${customer.customerNumber} har allerede et engasjement på konto ${account.bban} i denne avtalen`,
        ),
      );
    }
    await audit(trx, caller, 'sandbox.engagement.created', { type: 'sandbox-engagement', id: engagement.id }, at, {
      agreementId: agreement.id,
    });
    return engagement;
  }

  /** Inserts the agreement with the given or a generated organisation number; 409 when taken. */
  async function insertAgreement(trx: DbOrTx, caller: SandboxCaller, agreement: SandboxAgreement, given: boolean, at: string) {
    const existing = await agreementRepository.findByOwner(trx, caller.tppId, agreement.owner.id);
    if (existing) {
      alreadyExists(
        'owner',
        localized(
          `customer ${agreement.owner.customerNumber} already has agreement ${existing.id} (one per corporation)`,
          `kunde ${agreement.owner.customerNumber} har allerede avtale ${existing.id} (én per bedrift)`,
        ),
      );
    }
    for (let attempt = 0; attempt < (given ? 1 : GENERATION_ATTEMPTS); attempt++) {
      const organisationNumber = given ? agreement.organisationNumber : generatedOrganisationNumber();
      const row = { id: agreement.id, ownerId: agreement.owner.id, organisationNumber, name: agreement.name };
      if (await agreementRepository.insert(trx, caller.tppId, row, at)) return { ...agreement, organisationNumber };
    }
    return alreadyExists(
      'organisationNumber',
      localized(
        `your sandbox already has an agreement with organisation number ${agreement.organisationNumber}`,
        `sandkassen din har allerede en avtale med organisasjonsnummer ${agreement.organisationNumber}`,
      ),
    );
  }

  async function withEngagements(db: DbOrTx, caller: SandboxCaller, agreement: SandboxAgreement): Promise<AgreementWithEngagements> {
    return { agreement, engagements: await agreementRepository.listEngagements(db, caller.tppId, agreement.id) };
  }

  return {
    async create(caller: SandboxCaller, input: NewAgreement): Promise<AgreementWithEngagements> {
      const given =
        input.organisationNumber === undefined ? undefined : valid(checkOrganisationNumber(input.organisationNumber), 'organisationNumber');
      const at = now().toISOString();
      return inSandbox(db, caller, at, async (trx) => {
        const owner = await customerNamed(trx, caller.tppId, input.owner, 'owner');
        if (owner.customerType !== 'CORPORATE') {
          refuse(
            'owner',
            localized(
              `names customer ${owner.customerNumber}, which is ${owner.customerType}: agreements are for CORPORATE customers only (a private customer's own accounts need none)`,
              `viser til kunde ${owner.customerNumber}, som er ${owner.customerType}: avtaler er bare for CORPORATE-kunder (en privatkundes egne kontoer trenger ingen)`,
            ),
          );
        }
        const draft = { id: randomUUID(), owner, organisationNumber: given ?? '', name: input.name ?? owner.name };
        const agreement = await insertAgreement(trx, caller, draft, given !== undefined, at);
        await audit(trx, caller, 'sandbox.agreement.created', { type: 'sandbox-agreement', id: agreement.id }, at);
        for (const [index, engagement] of (input.engagements ?? []).entries()) {
          await addEngagement(trx, caller, agreement, engagement, `engagements[${index}]`, at);
        }
        return withEngagements(trx, caller, agreement);
      });
    },

    async get(caller: SandboxCaller, id: string): Promise<AgreementWithEngagements> {
      return withEngagements(db, caller, await find(db, caller, id));
    },

    async list(caller: SandboxCaller): Promise<AgreementWithEngagements[]> {
      const agreements = await agreementRepository.list(db, caller.tppId);
      const engagements = groupBy(await agreementRepository.listEngagements(db, caller.tppId), (engagement) => engagement.agreementId);
      return agreements.map((agreement) => ({ agreement, engagements: engagements.get(agreement.id) ?? [] }));
    },

    async addEngagement(caller: SandboxCaller, agreementId: string, input: NewEngagement): Promise<SandboxEngagement> {
      const at = now().toISOString();
      return inSandbox(db, caller, at, async (trx) => addEngagement(trx, caller, await find(trx, caller, agreementId), input, '', at));
    },

    /** Withdraws the access: payments already created from the account are no longer the PSU's to approve. */
    async removeEngagement(caller: SandboxCaller, agreementId: string, id: string): Promise<void> {
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        await find(trx, caller, agreementId);
        if (!(await agreementRepository.deleteEngagement(trx, caller.tppId, agreementId, id))) {
          unknown(
            'engagementId',
            localized(`agreement ${agreementId} has no engagement ${id}`, `avtale ${agreementId} har ingen engasjement ${id}`),
          );
        }
        await audit(trx, caller, 'sandbox.engagement.deleted', { type: 'sandbox-engagement', id }, at);
      });
    },

    async getEngagement(caller: SandboxCaller, agreementId: string, id: string): Promise<SandboxEngagement> {
      await find(db, caller, agreementId);
      const engagement = await agreementRepository.findEngagement(db, caller.tppId, agreementId, id);
      if (!engagement) {
        unknown(
          'engagementId',
          localized(`agreement ${agreementId} has no engagement ${id}`, `avtale ${agreementId} har ingen engasjement ${id}`),
        );
      }
      return engagement;
    },
  };
}

/** Corporations' organisation numbers start with 8 or 9; a prefix whose check digit is 10 is drawn again. */
function generatedOrganisationNumber(): string {
  for (;;) {
    const number = makeOrganisationNumber(`9${String(randomInt(0, 10_000_000)).padStart(7, '0')}`);
    if (number !== undefined) return number;
  }
}

export type AgreementService = ReturnType<typeof createAgreementService>;
