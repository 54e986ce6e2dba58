import type { Db, DbOrTx } from '../db/create-db.js';
import { localized } from '../domain/localized.js';
import { AppError } from '../errors/app-error.js';
import { transferLegs, type LedgerLeg } from '../modules/ledger/ledger-posting.js';
import type { Ledger } from '../modules/ledger/ledger.service.js';
import { convertMinor, type NokRates } from '../domain/regulatory-reporting.js';
import { accountRepository } from '../modules/sandbox/account.repository.js';
import { agreementRepository } from '../modules/sandbox/agreement.repository.js';
import { cardAccountRepository } from '../modules/sandbox/card-account.repository.js';
import { customerRepository } from '../modules/sandbox/customer.repository.js';
import { sandboxBankRepository } from '../modules/sandbox/sandbox-bank.repository.js';
import { sandboxSystemAccount, type SandboxAccount } from '../modules/sandbox/sandbox-bank.model.js';
import { sandboxBookkeeping } from '../modules/sandbox/sandbox-bookkeeping.js';
import type { AccountPermission, BankAccount, BankScope, CoreBanking } from './core-banking.port.js';

const NO_PERMISSION: AccountPermission = { canView: false, canRegister: false };

/** A private account's owner may do everything with it, without limits. */
const OWNER_PERMISSION: AccountPermission = { canView: true, canRegister: true };

function toBankAccount(account: SandboxAccount): BankAccount {
  return {
    id: account.id,
    bban: account.bban,
    iban: account.iban,
    currency: account.currency,
    name: account.name,
    ownerCustomerNumber: account.owner.customerNumber,
    ownerType: account.owner.customerType,
    organisationNumber: account.organisationNumber,
  };
}

/**
 * The ledger account a sandbox payment's other leg goes to (the TPP's clearing account), for
 * callers that build postings for {@link CoreBanking.post}.
 */
export function sandboxClearingAccount(scope: BankScope): string {
  return sandboxSystemAccount(scope.tppId, 'clearing');
}

/**
 * The core-banking port over the sandbox bank (issue 3): the mock data of the calling TPP and the
 * double-entry ledger. Private customers use their own accounts with no limit; a corporate
 * context (PSU-Corporate-ID = the agreement's organisation number) gives a PSU the accounts its
 * engagements name, with their roles and limits. Another TPP's data is never found.
 */
export function createSandboxCoreBanking(db: Db, ledger: Ledger, now: () => Date, rates: NokRates): CoreBanking {
  const bookkeeping = sandboxBookkeeping(ledger);

  async function engagementOf(scope: BankScope, psuId: string, accountId: string, organisationNumber: string) {
    const agreement = await agreementRepository.findByOrganisationNumber(db, scope.tppId, organisationNumber);
    if (!agreement) return undefined;
    const engagements = await agreementRepository.listEngagementsOfPsu(db, scope.tppId, agreement.id, psuId);
    return engagements.find((engagement) => engagement.account.id === accountId);
  }

  /** Legs may touch only this TPP's accounts, card accounts and system accounts, in their currency. */
  async function assertInScope(trx: DbOrTx, scope: BankScope, accountId: string, currency: string): Promise<void> {
    if (accountId.startsWith(`sandbox-system:${scope.tppId}:`)) return;
    const account =
      (await accountRepository.findById(trx, scope.tppId, accountId)) ??
      (await cardAccountRepository.findById(trx, scope.tppId, accountId));
    if (!account || account.currency !== currency) {
      throw new Error(`posting leg on ${accountId} (${currency}) is not an account of the sandbox of ${scope.tppId}`);
    }
  }

  return {
    async findAccount(scope, reference) {
      const account = await accountRepository.findByReference(db, scope.tppId, reference);
      return account && toBankAccount(account);
    },

    async accountsOf(scope, psuId, organisationNumber) {
      if (organisationNumber === undefined) {
        const customer = await customerRepository.findByNumber(db, scope.tppId, psuId);
        if (!customer || customer.customerType !== 'PRIVATE') return [];
        return (await accountRepository.listOwnedBy(db, scope.tppId, customer.id)).map(toBankAccount);
      }
      const agreement = await agreementRepository.findByOrganisationNumber(db, scope.tppId, organisationNumber);
      if (!agreement) return [];
      const engagements = await agreementRepository.listEngagementsOfPsu(db, scope.tppId, agreement.id, psuId);
      const accounts = await accountRepository.listOwnedBy(db, scope.tppId, agreement.owner.id);
      const engaged = new Set(engagements.filter((engagement) => engagement.roles.length > 0).map((engagement) => engagement.account.id));
      return accounts.filter((account) => engaged.has(account.id)).map(toBankAccount);
    },

    async permission(scope, psuId, accountId, organisationNumber) {
      const account = await accountRepository.findById(db, scope.tppId, accountId);
      if (!account) return NO_PERMISSION;
      if (organisationNumber === undefined) {
        return account.owner.customerType === 'PRIVATE' && account.owner.customerNumber === psuId ? OWNER_PERMISSION : NO_PERMISSION;
      }
      if (account.organisationNumber !== organisationNumber) return NO_PERMISSION;
      const engagement = await engagementOf(scope, psuId, accountId, organisationNumber);
      if (!engagement) return NO_PERMISSION;
      // A register limit of 0 is the documented way to withhold the right to register.
      const canRegister =
        engagement.roles.includes('REGISTER') && (engagement.registerLimit === undefined || engagement.registerLimit.minor > 0n);
      return {
        canView: engagement.roles.includes('VIEW'),
        canRegister,
        registerLimit: canRegister ? engagement.registerLimit : undefined,
        approvalLimit: canRegister ? engagement.approvalLimit : undefined,
      };
    },

    async balances(scope, accountId) {
      const account = await accountRepository.findById(db, scope.tppId, accountId);
      if (account) return bookkeeping.balances(db, account.id, account.currency);
      const card = await cardAccountRepository.findById(db, scope.tppId, accountId);
      if (card) return bookkeeping.balances(db, card.id, card.currency, card.creditLimit);
      throw new AppError('RESOURCE_UNKNOWN', { detail: localized(`no account ${accountId}`, `ingen konto ${accountId}`) });
    },

    async transfer(trx, scope, transfer) {
      await sandboxBankRepository.lockTenant(trx, scope.tppId, now().toISOString());
      if (await ledger.isRecorded(trx, transfer.idempotencyKey)) return { kind: 'already-booked' };
      const debtor = await accountRepository.ledgerKeyOf(trx, scope.tppId, { id: transfer.debtorAccountId });
      if (!debtor) return { kind: 'refused', reason: 'The debtor account no longer exists' };
      const debitMinor = convertMinor(transfer.amount, debtor.currency, rates);
      if (debitMinor === undefined) {
        return { kind: 'refused', reason: `The bank has no exchange rate from ${transfer.amount.currency} to ${debtor.currency}` };
      }
      const available = (await bookkeeping.balances(trx, debtor.id, debtor.currency)).interimAvailable;
      if (available.minor < debitMinor) return { kind: 'insufficient-funds' };
      const found = transfer.creditorAccount && (await accountRepository.ledgerKeyOf(trx, scope.tppId, transfer.creditorAccount));
      // Credited here only in the instructed currency; anything else leaves the bank.
      const creditor = found && found.currency === transfer.amount.currency ? found : undefined;
      const clearing = sandboxClearingAccount(scope);
      const legs: LedgerLeg[] =
        creditor && creditor.currency === debtor.currency
          ? transferLegs(debtor.id, creditor.id, debtor.currency, debitMinor)
          : [
              ...transferLegs(debtor.id, clearing, debtor.currency, debitMinor),
              // A currency exchange into an account of this bank goes through the clearing account.
              ...(creditor ? transferLegs(clearing, creditor.id, creditor.currency, transfer.amount.minor) : []),
            ];
      const recorded = await ledger.post(trx, {
        idempotencyKey: transfer.idempotencyKey,
        status: 'booked',
        bookingDate: transfer.bookingDate,
        valueDate: transfer.bookingDate,
        description: transfer.description,
        legs,
      });
      if (!recorded.applied) return { kind: 'already-booked' };
      return { kind: 'booked', creditedInBank: creditor !== undefined };
    },

    async post(trx, scope, posting) {
      // The sandbox's lock, as every mock-data write takes it: an initialize cannot wipe the
      // accounts between the check below and the posting.
      await sandboxBankRepository.lockTenant(trx, scope.tppId, now().toISOString());
      for (const leg of posting.legs) {
        await assertInScope(trx, scope, leg.accountId, leg.currency);
      }
      const recorded = await ledger.post(trx, posting);
      return { applied: recorded.applied };
    },
  };
}
