import { randomInt, randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { checkCurrencyCode } from '../../domain/currencies.js';
import { localized } from '../../domain/localized.js';
import { parseAmount } from '../../domain/money.js';
import { cardAccountRepository } from './card-account.repository.js';
import type { CardAccountUpdate, CardTransactionQuery, NewCardAccount, NewCardTransaction } from './card-account.schemas.js';
import { exchangeRateOf } from './card-exchange-rate.js';
import type { SandboxBalances, SandboxCaller, SandboxCardAccount, SandboxCardTransaction } from './sandbox-bank.model.js';
import { amountIn, notFuture, refuse, valid } from './sandbox-checks.js';
import { audit, customerNamed, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';

export interface CardAccountWithBalances {
  readonly cardAccount: SandboxCardAccount;
  readonly balances: SandboxBalances;
}

/** The card range of generated masked PANs (a Mastercard BIN), as in the documented sample. */
const SANDBOX_CARD_BIN = '525412';

/**
 * Mock card accounts and their transactions. A purchase is a negative amount on the card's own
 * ledger account; the balance available to spend adds the credit limit.
 */
export function createCardAccountService({ db, bookkeeping, now, today: todayOf }: SandboxDeps) {
  // `from`: the transaction that wrote, so an answer shows what it wrote (a concurrent initialize
  // may remove it right after the commit).
  async function find(caller: SandboxCaller, id: string, from: DbOrTx = db): Promise<SandboxCardAccount> {
    const card = await cardAccountRepository.findById(from, caller.tppId, id);
    if (!card) {
      unknown('mockCardAccountId', localized(`your sandbox has no card account ${id}`, `sandkassen din har ingen kortkonto ${id}`));
    }
    return card;
  }

  async function withBalances(cardAccount: SandboxCardAccount, from: DbOrTx = db): Promise<CardAccountWithBalances> {
    return { cardAccount, balances: await bookkeeping.balances(from, cardAccount.id, cardAccount.currency, cardAccount.creditLimit) };
  }

  return {
    async create(caller: SandboxCaller, input: NewCardAccount): Promise<CardAccountWithBalances> {
      const currency = valid(checkCurrencyCode(input.currency ?? 'NOK'), 'currency');
      const creditLimit = input.creditLimit ? amountIn(input.creditLimit, currency, 'creditLimit') : { minor: 0n, currency };
      if (creditLimit.minor < 0n) {
        refuse('creditLimit.amount', localized('must not be negative', 'kan ikke være negativ'));
      }
      const at = now().toISOString();
      return inSandbox(db, caller, at, async (trx) => {
        const owner = await customerNamed(trx, caller.tppId, input.customerNumber, 'customerNumber');
        const name = input.name ?? input.product ?? 'Mastercard';
        const created: SandboxCardAccount = {
          id: randomUUID(),
          owner,
          maskedPan: input.maskedPan ?? `${SANDBOX_CARD_BIN}******${String(randomInt(0, 10_000)).padStart(4, '0')}`,
          name,
          product: input.product ?? name,
          currency,
          creditLimit,
        };
        await cardAccountRepository.insert(trx, caller.tppId, created, at);
        await audit(trx, caller, 'sandbox.card-account.created', { type: 'sandbox-card-account', id: created.id }, at);
        return withBalances(created, trx);
      });
    },

    /** `PATCH`: sets the credit limit. */
    async update(caller: SandboxCaller, id: string, input: CardAccountUpdate): Promise<CardAccountWithBalances> {
      const card = await find(caller, id);
      if (input.creditLimit === undefined) refuse('creditLimit', localized('is missing', 'mangler'));
      const creditLimit = amountIn(input.creditLimit, card.currency, 'creditLimit');
      if (creditLimit.minor < 0n) refuse('creditLimit.amount', localized('must not be negative', 'kan ikke være negativ'));
      const at = now().toISOString();
      return inSandbox(db, caller, at, async (trx) => {
        if (!(await cardAccountRepository.setCreditLimit(trx, caller.tppId, id, creditLimit))) {
          unknown('mockCardAccountId', localized(`your sandbox has no card account ${id}`, `sandkassen din har ingen kortkonto ${id}`));
        }
        await audit(trx, caller, 'sandbox.card-account.updated', { type: 'sandbox-card-account', id }, at, {
          creditLimitMinor: creditLimit.minor.toString(),
        });
        return withBalances(await find(caller, id, trx), trx);
      });
    },

    async get(caller: SandboxCaller, id: string): Promise<CardAccountWithBalances> {
      return withBalances(await find(caller, id));
    },

    async list(caller: SandboxCaller): Promise<CardAccountWithBalances[]> {
      const cards = await cardAccountRepository.list(db, caller.tppId);
      const balances = await bookkeeping.balancesOfMany(db, cards);
      return cards.map((cardAccount, index) => ({ cardAccount, balances: balances[index]! }));
    },

    /** Dated today or earlier; booked when it has a booking date (not before the purchase), else pending. */
    async addTransaction(caller: SandboxCaller, cardAccountId: string, input: NewCardTransaction): Promise<SandboxCardTransaction> {
      const card = await find(caller, cardAccountId);
      const today = await todayOf(caller.tppId);
      notFuture(input.transactionDate, today, 'transactionDate');
      if (input.bookingDate !== undefined) {
        notFuture(input.bookingDate, today, 'bookingDate');
        if (input.bookingDate < input.transactionDate) {
          refuse(
            'bookingDate',
            localized(
              `must not be before transactionDate (${input.transactionDate}), got ${input.bookingDate}`,
              `kan ikke være før transactionDate (${input.transactionDate}), men er ${input.bookingDate}`,
            ),
          );
        }
      }
      const amount = amountIn(input.transactionAmount, card.currency, 'transactionAmount');
      if (amount.minor === 0n) {
        refuse(
          'transactionAmount.amount',
          localized(
            'must not be zero: a purchase is negative, a refund positive',
            'kan ikke være null: et kjøp er negativt, en refusjon positiv',
          ),
        );
      }
      const originalAmount = input.originalAmount
        ? valid(parseAmount(input.originalAmount.amount, input.originalAmount.currency), 'originalAmount.amount')
        : undefined;
      if (originalAmount && originalAmount.currency === card.currency) {
        refuse(
          'originalAmount.currency',
          localized(
            `must be another currency than the card account's ${card.currency}: originalAmount is what a merchant abroad charged`,
            `må være en annen valuta enn kortkontoens ${card.currency}: originalAmount er det en utenlandsk brukersted belastet`,
          ),
        );
      }
      if (input.exchangeRate !== undefined && !originalAmount) {
        refuse(
          'exchangeRate',
          localized('needs originalAmount: it converts that amount', 'krever originalAmount: den omregner det beløpet'),
        );
      }
      const exchangeRate = originalAmount ? (input.exchangeRate ?? exchangeRateOf(amount, originalAmount)) : undefined;
      const transaction: SandboxCardTransaction = {
        id: randomUUID(),
        cardAccountId: card.id,
        maskedPan: card.maskedPan,
        status: input.bookingDate === undefined ? 'pending' : 'booked',
        transactionDate: input.transactionDate,
        bookingDate: input.bookingDate,
        amount,
        originalAmount,
        exchangeRate,
        merchantCategoryCode: input.merchantCategoryCode,
        transactionDetails: input.transactionDetails,
      };
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        // Still there under the lock: an initialize may have wiped it since it was read.
        if (!(await cardAccountRepository.findById(trx, caller.tppId, card.id))) {
          unknown(
            'mockCardAccountId',
            localized(`your sandbox has no card account ${card.id}`, `sandkassen din har ingen kortkonto ${card.id}`),
          );
        }
        await bookkeeping.bookCardTransactions(trx, caller.tppId, [transaction], at);
        await audit(trx, caller, 'sandbox.card-transaction.created', { type: 'sandbox-card-transaction', id: transaction.id }, at);
      });
      return transaction;
    },

    async listTransactions(caller: SandboxCaller, cardAccountId: string, query: CardTransactionQuery) {
      const cardAccount = await find(caller, cardAccountId);
      const status = query.bookingStatus === 'both' ? undefined : query.bookingStatus;
      const transactions = await cardAccountRepository.listTransactions(db, caller.tppId, cardAccount.id, {
        status,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        offset: query.offset ?? 0,
        limit: query.limit ?? 100,
      });
      return { cardAccount, transactions };
    },

    async getTransaction(caller: SandboxCaller, cardAccountId: string, id: string): Promise<SandboxCardTransaction> {
      const cardAccount = await find(caller, cardAccountId);
      const transaction = await cardAccountRepository.findTransaction(db, caller.tppId, cardAccount.id, id);
      if (!transaction) {
        unknown(
          'cardTransactionId',
          localized(`card account ${cardAccountId} has no transaction ${id}`, `kortkonto ${cardAccountId} har ingen transaksjon ${id}`),
        );
      }
      return transaction;
    },
  };
}

export type CardAccountService = ReturnType<typeof createCardAccountService>;
