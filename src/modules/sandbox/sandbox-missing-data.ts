import { BankError } from '../../bank/bank-error.js';
import type { CoreBanking, RequestingTpp, TransactionQuery } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import { accountRepository } from './account.repository.js';

/**
 * The sandbox's missing-data switch (README "Sandbox data"): for a mock account or card account
 * whose `reportsMissingData` is on, the bank answers reads of its balances and transactions with
 * BankError `missing-data`, as a core system does that answers without data it must have. The
 * account itself stays visible (listed, named in a consent, its details shown), so a TPP reaches
 * the error on the reads that carry the data. Every other operation passes through untouched.
 */
export function withMissingDataSwitch<T extends CoreBanking>(db: Db, port: T): T {
  async function guard(tpp: RequestingTpp, accountId: string): Promise<void> {
    if (await accountRepository.reportsMissingData(db, tpp.tppId, accountId)) {
      throw new BankError('missing-data', `the sandbox account ${accountId} is set to report missing data (reportsMissingData)`);
    }
  }
  return {
    ...port,
    balances: async (tpp: RequestingTpp, accountId: string) => {
      await guard(tpp, accountId);
      return port.balances(tpp, accountId);
    },
    transactions: async (tpp: RequestingTpp, accountId: string, query: TransactionQuery) => {
      await guard(tpp, accountId);
      return port.transactions(tpp, accountId, query);
    },
    transaction: async (tpp: RequestingTpp, accountId: string, transactionId: string) => {
      await guard(tpp, accountId);
      return port.transaction(tpp, accountId, transactionId);
    },
    cardTransactions: async (tpp: RequestingTpp, cardAccountId: string, query: TransactionQuery) => {
      await guard(tpp, cardAccountId);
      return port.cardTransactions(tpp, cardAccountId, query);
    },
  };
}
