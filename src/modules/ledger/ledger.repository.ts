import { sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import type { LedgerPosting } from './ledger-posting.js';

export interface RecordedPosting {
  readonly transactionId: number;
  /** False when the idempotency key was already recorded: nothing was written this time. */
  readonly applied: boolean;
}

export interface AccountSums {
  /** Sum of booked entries. */
  readonly booked: bigint;
  /** Sum of booked and pending entries. */
  readonly expected: bigint;
}

const REMOVE_SLICE = 500;

/** The only place that queries ledger_transaction and ledger_entry. */
export const ledgerRepository = {
  /**
   * Records a posting once. Must run inside the caller's transaction, so the posting commits or
   * rolls back together with the status change that caused it.
   */
  async record(trx: DbOrTx, posting: LedgerPosting, at: string): Promise<RecordedPosting> {
    const inserted = await trx
      .insertInto('ledger_transaction')
      .values({
        idempotency_key: posting.idempotencyKey,
        status: posting.status,
        booking_date: posting.bookingDate,
        value_date: posting.valueDate,
        description: posting.description,
        created_at: at,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('ledger_transaction')
        .select('id')
        .where('idempotency_key', '=', posting.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { transactionId: Number(existing.id), applied: false };
    }
    const transactionId = Number(inserted.id);
    await trx
      .insertInto('ledger_entry')
      .values(
        posting.legs.map((leg) => ({
          transaction_id: transactionId,
          account_id: leg.accountId,
          currency: leg.currency,
          amount_minor: leg.amountMinor,
        })),
      )
      .execute();
    return { transactionId, applied: true };
  },

  /** An account's sums, derived from its entries every time: there is no balance column to drift. */
  async sums(db: DbOrTx, accountId: string, currency: string): Promise<AccountSums> {
    const row = await db
      .selectFrom('ledger_entry')
      .innerJoin('ledger_transaction', 'ledger_transaction.id', 'ledger_entry.transaction_id')
      .select([
        sql<string>`cast(coalesce(sum(case when ledger_transaction.status = 'booked' then ledger_entry.amount_minor else 0 end), 0) as text)`.as(
          'booked',
        ),
        sql<string>`cast(coalesce(sum(ledger_entry.amount_minor), 0) as text)`.as('expected'),
      ])
      .where('ledger_entry.account_id', '=', accountId)
      .where('ledger_entry.currency', '=', currency)
      .executeTakeFirstOrThrow();
    return { booked: BigInt(row.booked), expected: BigInt(row.expected) };
  },

  /**
   * Deletes every transaction with a leg on one of these accounts, all its legs included (the
   * foreign key cascades), so the ledger stays balanced. Returns how many transactions went.
   */
  async removeTouching(trx: DbOrTx, accountIds: readonly string[]): Promise<number> {
    let removed = 0;
    // In slices: both databases cap the number of bound parameters in one statement.
    for (let start = 0; start < accountIds.length; start += REMOVE_SLICE) {
      const slice = accountIds.slice(start, start + REMOVE_SLICE);
      const result = await trx
        .deleteFrom('ledger_transaction')
        .where('id', 'in', (eb) => eb.selectFrom('ledger_entry').select('transaction_id').where('account_id', 'in', slice))
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  },

  /** Moves a pending posting to booked (e.g. when a reserved amount settles). */
  async book(trx: DbOrTx, idempotencyKey: string): Promise<boolean> {
    const result = await trx
      .updateTable('ledger_transaction')
      .set({ status: 'booked' })
      .where('idempotency_key', '=', idempotencyKey)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
