import { sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import type { Money } from '../../domain/money.js';
import type { BookingStatus, SandboxCardAccount, SandboxCardTransaction } from './sandbox-bank.model.js';
import { JOINED_CUSTOMER_COLUMNS, joinedCustomer } from './customer.repository.js';

const INSERT_SLICE = 100;

function cardAccounts(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_card_account as k')
    .innerJoin('sandbox_customer as c', 'c.id', 'k.customer_id')
    .select([
      'k.id',
      'k.masked_pan',
      'k.name',
      'k.product',
      'k.currency',
      sql<string>`cast(k.credit_limit_minor as text)`.as('credit_limit_minor'),
      ...JOINED_CUSTOMER_COLUMNS,
    ])
    .where('k.tpp_id', '=', tppId);
}

type CardAccountRow = Awaited<ReturnType<ReturnType<typeof cardAccounts>['executeTakeFirstOrThrow']>>;

function toCardAccount(row: CardAccountRow): SandboxCardAccount {
  return {
    id: row.id,
    owner: joinedCustomer(row),
    maskedPan: row.masked_pan,
    name: row.name,
    product: row.product,
    currency: row.currency,
    creditLimit: { minor: BigInt(row.credit_limit_minor), currency: row.currency },
  };
}

function cardTransactions(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_card_transaction as t')
    .innerJoin('sandbox_card_account as k', 'k.id', 't.card_account_id')
    .select([
      't.id',
      't.card_account_id',
      'k.masked_pan',
      't.status',
      't.transaction_date',
      't.booking_date',
      sql<string>`cast(t.amount_minor as text)`.as('amount_minor'),
      't.currency',
      sql<string | null>`cast(t.original_amount_minor as text)`.as('original_amount_minor'),
      't.original_currency',
      't.exchange_rate',
      't.merchant_category_code',
      't.transaction_details',
    ])
    .where('t.tpp_id', '=', tppId);
}

type CardTransactionRow = Awaited<ReturnType<ReturnType<typeof cardTransactions>['executeTakeFirstOrThrow']>>;

function toCardTransaction(row: CardTransactionRow): SandboxCardTransaction {
  return {
    id: row.id,
    cardAccountId: row.card_account_id,
    maskedPan: row.masked_pan,
    status: row.status as BookingStatus,
    transactionDate: row.transaction_date,
    bookingDate: row.booking_date ?? undefined,
    amount: { minor: BigInt(row.amount_minor), currency: row.currency },
    originalAmount:
      row.original_amount_minor !== null && row.original_currency !== null
        ? { minor: BigInt(row.original_amount_minor), currency: row.original_currency }
        : undefined,
    exchangeRate: row.exchange_rate ?? undefined,
    merchantCategoryCode: row.merchant_category_code ?? undefined,
    transactionDetails: row.transaction_details ?? undefined,
  };
}

/** Filters of the card-transaction list (the real sandbox's GET query parameters). */
export interface CardTransactionFilter {
  readonly status?: BookingStatus | undefined;
  readonly dateFrom?: string | undefined;
  readonly dateTo?: string | undefined;
  /** Only those recorded at or before this time (a list read as of then). */
  readonly recordedUpTo?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** The only place that queries sandbox_card_account and sandbox_card_transaction; scoped to one TPP. */
export const cardAccountRepository = {
  async insert(db: DbOrTx, tppId: string, card: SandboxCardAccount, at: string): Promise<void> {
    await db
      .insertInto('sandbox_card_account')
      .values({
        id: card.id,
        tpp_id: tppId,
        customer_id: card.owner.id,
        masked_pan: card.maskedPan,
        name: card.name,
        product: card.product,
        currency: card.currency,
        credit_limit_minor: card.creditLimit.minor,
        created_at: at,
      })
      .execute();
  },

  /** Sets the credit limit (`PATCH /v1/sandbox/card-accounts/{id}`); false when the TPP has no such card account. */
  async setCreditLimit(db: DbOrTx, tppId: string, id: string, creditLimit: Money): Promise<boolean> {
    const result = await db
      .updateTable('sandbox_card_account')
      .set({ credit_limit_minor: creditLimit.minor })
      .where('tpp_id', '=', tppId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async findById(db: DbOrTx, tppId: string, id: string): Promise<SandboxCardAccount | undefined> {
    const row = await cardAccounts(db, tppId).where('k.id', '=', id).executeTakeFirst();
    return row && toCardAccount(row);
  },

  async list(db: DbOrTx, tppId: string): Promise<SandboxCardAccount[]> {
    const rows = await cardAccounts(db, tppId).orderBy('c.customer_number').orderBy('k.masked_pan').execute();
    return rows.map(toCardAccount);
  },

  async insertTransactions(db: DbOrTx, tppId: string, items: readonly SandboxCardTransaction[], at: string): Promise<void> {
    for (let start = 0; start < items.length; start += INSERT_SLICE) {
      await db
        .insertInto('sandbox_card_transaction')
        .values(
          items.slice(start, start + INSERT_SLICE).map((item) => ({
            id: item.id,
            tpp_id: tppId,
            card_account_id: item.cardAccountId,
            status: item.status,
            transaction_date: item.transactionDate,
            booking_date: item.bookingDate ?? null,
            amount_minor: item.amount.minor,
            currency: item.amount.currency,
            original_amount_minor: item.originalAmount?.minor ?? null,
            original_currency: item.originalAmount?.currency ?? null,
            exchange_rate: item.exchangeRate ?? null,
            merchant_category_code: item.merchantCategoryCode ?? null,
            transaction_details: item.transactionDetails ?? null,
            created_at: at,
          })),
        )
        .execute();
    }
  },

  async findTransaction(db: DbOrTx, tppId: string, cardAccountId: string, id: string): Promise<SandboxCardTransaction | undefined> {
    const row = await cardTransactions(db, tppId).where('t.card_account_id', '=', cardAccountId).where('t.id', '=', id).executeTakeFirst();
    return row && toCardTransaction(row);
  },

  /** Newest first, then paged. */
  /** When the card account's newest transaction was recorded; undefined when it has none. */
  async lastTransactionRecordedAt(db: DbOrTx, tppId: string, cardAccountId: string): Promise<string | undefined> {
    const row = await cardTransactions(db, tppId)
      .where('t.card_account_id', '=', cardAccountId)
      .clearSelect()
      .select((eb) => eb.fn.max('t.created_at').as('last'))
      .executeTakeFirst();
    return row?.last ?? undefined;
  },

  async listTransactions(
    db: DbOrTx,
    tppId: string,
    cardAccountId: string,
    filter: CardTransactionFilter,
  ): Promise<SandboxCardTransaction[]> {
    let query = cardTransactions(db, tppId).where('t.card_account_id', '=', cardAccountId);
    if (filter.status) query = query.where('t.status', '=', filter.status);
    if (filter.dateFrom) query = query.where('t.transaction_date', '>=', filter.dateFrom);
    if (filter.dateTo) query = query.where('t.transaction_date', '<=', filter.dateTo);
    if (filter.recordedUpTo) query = query.where('t.created_at', '<=', filter.recordedUpTo);
    const rows = await query
      .orderBy('t.transaction_date', 'desc')
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return rows.map(toCardTransaction);
  },
};
