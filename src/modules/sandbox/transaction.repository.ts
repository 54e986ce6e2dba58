import { sql } from 'kysely';
import { accountReferenceColumns, accountReferenceOf } from '../../db/account-reference-columns.js';
import type { DbOrTx } from '../../db/create-db.js';
import type { BookingStatus, SandboxTransaction } from './sandbox-bank.model.js';

const INSERT_SLICE = 100;

function transactions(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_transaction')
    .select([
      'id',
      'account_id',
      'status',
      'booking_date',
      'value_date',
      sql<string>`cast(amount_minor as text)`.as('amount_minor'),
      'currency',
      'counterparty_name',
      'counterparty_iban',
      'counterparty_bban',
      'remittance_unstructured',
      'remittance_reference',
    ])
    .where('tpp_id', '=', tppId);
}

type TransactionRow = Awaited<ReturnType<ReturnType<typeof transactions>['executeTakeFirstOrThrow']>>;

function toTransaction(row: TransactionRow): SandboxTransaction {
  return {
    id: row.id,
    accountId: row.account_id,
    status: row.status as BookingStatus,
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    amount: { minor: BigInt(row.amount_minor), currency: row.currency },
    counterpartyName: row.counterparty_name ?? undefined,
    counterpartyAccount: accountReferenceOf(row.counterparty_iban, row.counterparty_bban),
    remittanceUnstructured: row.remittance_unstructured ?? undefined,
    remittanceReference: row.remittance_reference ?? undefined,
  };
}

/** The only place that queries sandbox_transaction; every query is scoped to one TPP. */
export const transactionRepository = {
  /** Inserts transactions of one TPP, in slices (databases cap the parameters of a statement). */
  async insertMany(db: DbOrTx, tppId: string, items: readonly SandboxTransaction[], at: string): Promise<void> {
    for (let start = 0; start < items.length; start += INSERT_SLICE) {
      await db
        .insertInto('sandbox_transaction')
        .values(
          items.slice(start, start + INSERT_SLICE).map((item) => ({
            id: item.id,
            tpp_id: tppId,
            account_id: item.accountId,
            status: item.status,
            booking_date: item.bookingDate,
            value_date: item.valueDate,
            amount_minor: item.amount.minor,
            currency: item.amount.currency,
            counterparty_name: item.counterpartyName ?? null,
            counterparty_iban: accountReferenceColumns(item.counterpartyAccount).iban,
            counterparty_bban: accountReferenceColumns(item.counterpartyAccount).bban,
            remittance_unstructured: item.remittanceUnstructured ?? null,
            remittance_reference: item.remittanceReference ?? null,
            created_at: at,
          })),
        )
        .execute();
    }
  },

  async findById(db: DbOrTx, tppId: string, accountId: string, id: string): Promise<SandboxTransaction | undefined> {
    const row = await transactions(db, tppId).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row && toTransaction(row);
  },

  /** Newest first, like a bank statement read from the top. */
  async listForAccount(db: DbOrTx, tppId: string, accountId: string): Promise<SandboxTransaction[]> {
    const rows = await transactions(db, tppId)
      .where('account_id', '=', accountId)
      .orderBy('booking_date', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toTransaction);
  },
};
