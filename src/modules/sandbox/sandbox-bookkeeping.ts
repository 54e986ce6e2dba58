import type { DbOrTx } from '../../db/create-db.js';
import type { Money } from '../../domain/money.js';
import { transferLegs } from '../ledger/ledger-posting.js';
import type { ForgetResult } from '../ledger/ledger.model.js';
import { balanceKey, type Ledger, type LedgerBalances } from '../ledger/ledger.service.js';
import { cardAccountRepository } from './card-account.repository.js';
import { sandboxSystemAccount, type SandboxBalances, type SandboxCardTransaction, type SandboxTransaction } from './sandbox-bank.model.js';
import { transactionRepository } from './transaction.repository.js';

/**
 * How mock data moves money: every mock transaction is a row that describes it plus one ledger
 * posting against the TPP's clearing account, which carries what its statement line shows (so a
 * statement reads the ledger alone), written in the caller's transaction; balance updates and
 * opening balances are single postings against the TPP's adjustment account. Balances are the
 * ledger's: kept with the entries, in the same transaction.
 */
export function sandboxBookkeeping(ledger: Ledger) {
  return {
    async bookTransactions(trx: DbOrTx, tppId: string, items: readonly SandboxTransaction[], at: string): Promise<void> {
      await transactionRepository.insertMany(trx, tppId, items, at);
      const clearing = sandboxSystemAccount(tppId, 'clearing');
      for (const item of items) {
        await ledger.post(trx, {
          idempotencyKey: `sandbox:transaction:${item.id}`,
          status: item.status,
          bookingDate: item.bookingDate,
          valueDate: item.valueDate,
          description: [item.counterpartyName, item.remittanceUnstructured ?? item.remittanceReference].filter(Boolean).join(': '),
          details: {
            counterpartyName: item.counterpartyName,
            counterpartyAccount: item.counterpartyAccount,
            remittanceUnstructured: item.remittanceUnstructured,
            remittanceReference: item.remittanceReference,
          },
          legs: transferLegs(clearing, item.accountId, item.amount.currency, item.amount.minor),
        });
      }
    },

    async bookCardTransactions(trx: DbOrTx, tppId: string, items: readonly SandboxCardTransaction[], at: string): Promise<void> {
      await cardAccountRepository.insertTransactions(trx, tppId, items, at);
      const clearing = sandboxSystemAccount(tppId, 'clearing');
      for (const item of items) {
        await ledger.post(trx, {
          idempotencyKey: `sandbox:card-transaction:${item.id}`,
          status: item.status,
          bookingDate: item.bookingDate ?? item.transactionDate,
          valueDate: item.bookingDate ?? item.transactionDate,
          description: item.transactionDetails ?? 'Card transaction',
          legs: transferLegs(clearing, item.cardAccountId, item.amount.currency, item.amount.minor),
        });
      }
    },

    /**
     * Posts the one booked adjustment that brings closingBooked to `target`; nothing when it is
     * already there. The caller holds the account's lock, so the balance read here stays true.
     */
    async setClosingBooked(
      trx: DbOrTx,
      tppId: string,
      accountId: string,
      target: Money,
      posting: { key: string; date: string; description: string },
    ): Promise<bigint> {
      const current = await ledger.balances(trx, accountId, target.currency);
      const difference = target.minor - current.closingBooked;
      if (difference !== 0n) {
        await ledger.post(trx, {
          idempotencyKey: posting.key,
          status: 'booked',
          bookingDate: posting.date,
          valueDate: posting.date,
          description: posting.description,
          legs: transferLegs(sandboxSystemAccount(tppId, 'adjustment'), accountId, target.currency, difference),
          // Setting a balance moves no money: the statement does not show it.
          onStatement: false,
        });
      }
      return difference;
    },

    /**
     * Balances of an account or card account; a card's available amount includes its credit limit.
     * With `closingDate`, closingBooked is the booked balance at the end of that day.
     */
    async balances(db: DbOrTx, accountId: string, currency: string, creditLimit?: Money, closingDate?: string): Promise<SandboxBalances> {
      return sandboxBalances(await ledger.balances(db, accountId, currency, closingDate), currency, creditLimit);
    },

    /** The balances of many accounts or card accounts, in their order: a list's, read in a query per few hundred accounts. */
    async balancesOfMany(
      db: DbOrTx,
      accounts: readonly { readonly id: string; readonly currency: string; readonly creditLimit?: Money | undefined }[],
    ): Promise<SandboxBalances[]> {
      const sums = await ledger.balancesOf(
        db,
        accounts.map(({ id, currency }) => ({ accountId: id, currency })),
      );
      return accounts.map(({ id, currency, creditLimit }) => sandboxBalances(sums.get(balanceKey(id, currency))!, currency, creditLimit));
    },

    /**
     * Takes deleted accounts and card accounts off the ledger without touching any other
     * account's money or history (the rule of a sandbox deletion, see customer.service.ts): their
     * own mock data (postings only against the TPP's clearing and adjustment accounts, or among
     * themselves) goes with all its legs; a posting that also moved another account's money (a
     * payment between two customers of the bank) stays, with the deleted account's legs moved to
     * the TPP's clearing account, as if that account had been at another bank.
     */
    async forget(trx: DbOrTx, tppId: string, ledgerAccountIds: readonly string[]): Promise<ForgetResult> {
      return ledger.forget(trx, ledgerAccountIds, {
        successor: sandboxSystemAccount(tppId, 'clearing'),
        disposable: [
          sandboxSystemAccount(tppId, 'clearing'),
          sandboxSystemAccount(tppId, 'adjustment'),
          sandboxSystemAccount(tppId, 'fees'),
        ],
      });
    },
  };
}

/** An account's balances from its ledger sums; a card's available amount includes its credit limit. */
function sandboxBalances(sums: LedgerBalances, currency: string, creditLimit: Money | undefined): SandboxBalances {
  return {
    closingBooked: { minor: sums.closingBooked, currency },
    expected: { minor: sums.expected, currency },
    interimAvailable: { minor: sums.interimAvailable + (creditLimit?.minor ?? 0n), currency },
  };
}

export type SandboxBookkeeping = ReturnType<typeof sandboxBookkeeping>;
