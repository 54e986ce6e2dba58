/**
 * The contract suite against the sandbox adapter, on each database, seeded through the sandbox
 * bank's own services (and its bookkeeping, for what the mock-data API does not offer: pending
 * account transactions and their booking).
 */
import { randomUUID } from 'node:crypto';
import type { RequestingTpp } from '../../src/bank/core-banking.port.js';
import { withTransaction } from '../../src/db/create-db.js';
import { formatAmount, type Money } from '../../src/domain/money.js';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { createBankClock } from '../../src/modules/clock/bank-clock.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { createSandboxBank } from '../../src/modules/sandbox/sandbox-bank.service.js';
import { sandboxBookkeeping } from '../../src/modules/sandbox/sandbox-bookkeeping.js';
import { createSandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import { DIALECTS, openTestDatabase } from '../support/databases.js';
import { runCoreBankingContract, type ContractSeed } from './core-banking.contract.js';

const amount = (money: Money) => ({ currency: money.currency, amount: formatAmount(money) });

for (const dialect of DIALECTS) {
  runCoreBankingContract(`sandbox (${dialect})`, async () => {
    const database = await openTestDatabase(dialect);
    const now = () => new Date();
    const ledger = createLedger(now);
    const sandbox = createSandboxBank(database.db, ledger, createBankClock(database.db, now, true));
    const bookkeeping = sandboxBookkeeping(ledger);
    const bank = createSandboxCoreBanking(database.db, ledger, now, DEFAULT_NOK_RATES);

    const seed = (tpp: RequestingTpp): ContractSeed => ({
      async customer({ customerNumber, name, type }) {
        await sandbox.customers.create(tpp, { customerNumber, customerType: type, customerName: name });
      },
      async account({ owner, currency, closingBooked }) {
        const { account } = await sandbox.accounts.create(tpp, { customerNumber: owner, currency });
        if (closingBooked) await sandbox.accounts.setBalance(tpp, account.id, { balanceAmount: amount(closingBooked) });
        return (await bank.account(tpp, account.id))!;
      },
      async agreement({ owner, engagements }) {
        const accounts = await Promise.all(engagements.map(async (engagement) => (await bank.account(tpp, engagement.accountId))!));
        const { agreement } = await sandbox.agreements.create(tpp, {
          owner,
          engagements: engagements.map((engagement, index) => ({
            customer: engagement.psu,
            account: { bban: accounts[index]!.bban },
            roles: [...engagement.roles],
            ...(engagement.registerLimit && { registerLimit: formatAmount(engagement.registerLimit) }),
            ...(engagement.approvalLimit && { approvalLimit: formatAmount(engagement.approvalLimit) }),
            ...(engagement.consentNeedsSecondApprover && { consentNeedsSecondApprover: true }),
          })),
        });
        return { organisationNumber: agreement.organisationNumber };
      },
      async transaction(accountId, item) {
        const id = randomUUID();
        await withTransaction(database.db, (trx) =>
          bookkeeping.bookTransactions(
            trx,
            tpp.tppId,
            [
              {
                id,
                accountId,
                status: item.status,
                bookingDate: item.bookingDate,
                valueDate: item.bookingDate,
                amount: item.amount,
                counterpartyName: item.counterpartyName,
                remittanceUnstructured: item.remittance,
              },
            ],
            now().toISOString(),
          ),
        );
        return id;
      },
      async book(_accountId, transactionId) {
        await withTransaction(database.db, async (trx) => {
          await trx
            .updateTable('sandbox_transaction')
            .set({ status: 'booked' })
            .where('tpp_id', '=', tpp.tppId)
            .where('id', '=', transactionId)
            .execute();
          if (!(await ledgerRepository.book(trx, `sandbox:transaction:${transactionId}`))) {
            throw new Error(`${transactionId} is not pending`);
          }
        });
      },
      async cardAccount({ owner, currency, creditLimit }) {
        const { cardAccount } = await sandbox.cardAccounts.create(tpp, {
          customerNumber: owner,
          currency,
          creditLimit: amount(creditLimit),
        });
        return (await bank.cardAccount(tpp, cardAccount.id))!;
      },
      async cardTransaction(cardAccountId, item) {
        const created = await sandbox.cardAccounts.addTransaction(tpp, cardAccountId, {
          transactionDate: item.transactionDate,
          ...(item.bookingDate && { bookingDate: item.bookingDate }),
          transactionAmount: amount(item.amount),
          ...(item.originalAmount && { originalAmount: amount(item.originalAmount) }),
          ...(item.merchant && { transactionDetails: item.merchant }),
        });
        return created.id;
      },
    });

    return { bank, seed, dispose: () => database.dispose() };
  });
}
