import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { rollToBankDay } from '../../domain/bank-calendar.js';
import { ibanFromNorwegianBban } from '../../domain/iban.js';
import { parseAmount, type Money } from '../../domain/money.js';
import { accountRepository } from './account.repository.js';
import { agreementRepository } from './agreement.repository.js';
import { cardAccountRepository } from './card-account.repository.js';
import { generateCardTransactions } from './card-transaction-generator.js';
import { customerRepository } from './customer.repository.js';
import type {
  SandboxCaller,
  SandboxCardAccount,
  SandboxCardTransaction,
  SandboxCustomer,
  SandboxTransaction,
} from './sandbox-bank.model.js';
import { sandboxBankRepository } from './sandbox-bank.repository.js';
import { addDays } from './sandbox-dates.js';
import { audit, inSandbox, type SandboxDeps } from './sandbox-deps.js';
import { SANDBOX_SEED, SEED_HISTORY_DAYS, type SeedAccount, type SeedCardAccount } from './sandbox-seed.js';
import { asSandboxTransactions, generateTransactions } from './transaction-generator.js';

export interface InitializeSummary {
  readonly customers: number;
  readonly accounts: number;
  readonly cardAccounts: number;
  readonly agreements: number;
  readonly engagements: number;
  readonly transactions: number;
  readonly cardTransactions: number;
}

/** A seed amount; the seed is fixed data, so a bad one is a programming error. */
function money(text: string, currency: string): Money {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new Error(`bad seed amount ${text} ${currency}: ${parsed.reason.en}`);
  return parsed.value;
}

/**
 * `POST /v1/sandbox/initialize`: wipes the calling TPP's sandbox (customers, accounts, agreements,
 * engagements, card accounts, their transactions and ledger postings) and seeds the documented
 * set, all in one transaction, so a failure leaves the old data in place. Other TPPs' sandboxes
 * are untouched. Seeded history is generated from each account's BBAN, so every initialize gives
 * the same customers, accounts, balances and transaction amounts; only ids and dates (relative to
 * today by the TPP's sandbox clock) differ.
 */
export function createInitializeService({ db, bookkeeping, now, today: todayOf }: SandboxDeps) {
  return {
    /**
     * `seed` varies the generated history: the same seed gives the same data again (amounts,
     * counterparties, KIDs, days relative to today); without one each account's BBAN seeds its own.
     */
    async initialize(caller: SandboxCaller, seed?: string): Promise<InitializeSummary> {
      const historySeed = (key: string) => (seed === undefined ? key : `${seed}|${key}`);
      const at = now().toISOString();
      const today = await todayOf(caller.tppId);
      const history = {
        dateFrom: addDays(today, -SEED_HISTORY_DAYS),
        // Up to the previous bank day, whose end is the closingBooked of a balances read: history
        // dated after it (a weekend's, before a Monday's initialize) would keep that figure from
        // the seed's.
        dateTo: rollToBankDay(addDays(today, -1), 'preceding'),
        opening: addDays(today, -SEED_HISTORY_DAYS - 1),
      };
      const tppId = caller.tppId;

      async function seedAccount(trx: DbOrTx, owner: SandboxCustomer, account: SeedAccount): Promise<{ id: string; transactions: number }> {
        const id = randomUUID();
        const row = {
          id,
          customerId: owner.id,
          iban: ibanFromNorwegianBban(account.bban),
          ...account,
          creditLimitMinor: account.creditLimit === undefined ? undefined : money(account.creditLimit, account.currency).minor,
        };
        await accountRepository.insert(trx, tppId, row, at);
        const generated = generateTransactions({
          ...history,
          seed: historySeed(account.bban),
          count: account.transactions,
          currency: account.currency,
          profile: account.profile,
        });
        const pending = (account.pending ?? []).map((item): SandboxTransaction => ({
          id: randomUUID(),
          accountId: id,
          status: 'pending',
          bookingDate: today,
          valueDate: today,
          amount: money(item.amount, account.currency),
          counterpartyName: item.counterparty,
          remittanceUnstructured: item.text,
        }));
        const transactions = [...asSandboxTransactions(id, account.currency, generated), ...pending];
        await bookkeeping.bookTransactions(trx, tppId, transactions, at);
        await bookkeeping.setClosingBooked(trx, tppId, id, money(account.closingBooked, account.currency), {
          key: `sandbox:opening:${id}`,
          date: history.opening,
          description: 'Opening balance',
        });
        return { id, transactions: transactions.length };
      }

      async function seedCardAccount(trx: DbOrTx, owner: SandboxCustomer, seeded: SeedCardAccount): Promise<number> {
        const card: SandboxCardAccount = {
          id: randomUUID(),
          owner,
          ...seeded,
          creditLimit: money(seeded.creditLimit, seeded.currency),
        };
        await cardAccountRepository.insert(trx, tppId, card, at);
        const purchases = generateCardTransactions({
          ...history,
          seed: historySeed(seeded.maskedPan),
          count: seeded.purchases,
          currency: seeded.currency,
        });
        const transactions: SandboxCardTransaction[] = [
          ...purchases.map((item) => ({
            id: randomUUID(),
            cardAccountId: card.id,
            maskedPan: card.maskedPan,
            status: 'booked' as const,
            transactionDate: item.transactionDate,
            bookingDate: item.bookingDate,
            amount: { minor: item.amountMinor, currency: card.currency },
            originalAmount: item.originalAmount,
            exchangeRate: item.exchangeRate,
            merchantCategoryCode: item.merchantCategoryCode,
            transactionDetails: item.transactionDetails,
          })),
          ...seeded.pending.map((item) => ({
            id: randomUUID(),
            cardAccountId: card.id,
            maskedPan: card.maskedPan,
            status: 'pending' as const,
            transactionDate: today,
            amount: money(item.amount, card.currency),
            merchantCategoryCode: item.merchantCategoryCode,
            transactionDetails: item.details,
          })),
        ];
        await bookkeeping.bookCardTransactions(trx, tppId, transactions, at);
        await bookkeeping.setClosingBooked(trx, tppId, card.id, money(seeded.closingBooked, seeded.currency), {
          key: `sandbox:opening:${card.id}`,
          date: history.opening,
          description: 'Opening balance',
        });
        return transactions.length;
      }

      return inSandbox(db, caller, at, async (trx) => {
        const removed = await sandboxBankRepository.removeAll(trx, tppId);
        await bookkeeping.forget(trx, tppId, removed.ledgerAccountIds);
        const customers = new Map<string, SandboxCustomer>();
        const accounts = new Map<string, { id: string; currency: string }>();
        const summary = { customers: 0, accounts: 0, cardAccounts: 0, agreements: 0, engagements: 0, transactions: 0, cardTransactions: 0 };
        for (const seed of SANDBOX_SEED.customers) {
          const customer: SandboxCustomer = {
            id: randomUUID(),
            customerNumber: seed.customerNumber,
            customerType: seed.customerType,
            name: seed.name,
          };
          await customerRepository.insert(trx, tppId, customer, at);
          customers.set(customer.customerNumber, customer);
          summary.customers++;
          for (const account of seed.accounts) {
            const seeded = await seedAccount(trx, customer, account);
            accounts.set(account.bban, { id: seeded.id, currency: account.currency });
            summary.accounts++;
            summary.transactions += seeded.transactions;
          }
          for (const card of seed.cardAccounts) {
            summary.cardTransactions += await seedCardAccount(trx, customer, card);
            summary.cardAccounts++;
          }
        }
        for (const seed of SANDBOX_SEED.agreements) {
          const owner = customers.get(seed.owner)!;
          const agreementId = randomUUID();
          await agreementRepository.insert(
            trx,
            tppId,
            { id: agreementId, ownerId: owner.id, organisationNumber: seed.organisationNumber, name: seed.name },
            at,
          );
          summary.agreements++;
          for (const engagement of seed.engagements) {
            const account = accounts.get(engagement.bban)!;
            await agreementRepository.insertEngagement(
              trx,
              tppId,
              {
                id: randomUUID(),
                agreementId,
                customer: customers.get(engagement.customer)!,
                account: {
                  id: account.id,
                  bban: engagement.bban,
                  iban: ibanFromNorwegianBban(engagement.bban),
                  currency: account.currency,
                },
                roles: engagement.roles,
                registerLimit: engagement.registerLimit === undefined ? undefined : money(engagement.registerLimit, account.currency),
                approvalLimit: engagement.approvalLimit === undefined ? undefined : money(engagement.approvalLimit, account.currency),
                consentNeedsSecondApprover: false,
              },
              at,
            );
            summary.engagements++;
          }
        }
        await audit(trx, caller, 'sandbox.initialized', { type: 'sandbox', id: tppId }, at, {
          removed: { customers: removed.customers, accounts: removed.accounts, cardAccounts: removed.cardAccounts },
          seeded: summary,
        });
        return summary;
      });
    },
  };
}

export type InitializeService = ReturnType<typeof createInitializeService>;
