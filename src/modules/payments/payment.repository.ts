import { PostgresAdapter, sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { DuePayment, NewPayment, Payment, PaymentState } from './payment.model.js';
import type { PaymentTable } from './payment.table.js';
import type { PaymentService } from './payment-products.js';
import { readPaymentDocument, writePaymentDocument } from './payment-document.js';
import { isTransactionStatus, LIVE_STATUSES, statusesAllowing, type TransactionStatus } from './payment-status.js';
import type { StoredRequestContext } from '../../http/headers/request-headers.js';

const COLUMNS = [
  'id',
  'tpp_id',
  'service',
  'product',
  'status',
  'status_reason',
  'funds_available',
  'request_id',
  'psu_id',
  'psu_corporate_id',
  'debtor_account_id',
  'currency',
  'requested_execution_date',
  'body',
  'body_version',
  'request_context',
  'created_at',
  'status_changed_at',
  'basket_id',
  'awaiting_funds_since',
  'transaction_fee_currency',
] as const;

/** A row as read: the table's own column types, and the amount as text. */
type Row = Pick<PaymentTable, (typeof COLUMNS)[number]> & { amount: string; transaction_fee: string | null };

function toPayment(row: Row): Payment {
  // The column is typed, but a row written by hand or by another version of the server is read too.
  const status: string = row.status;
  if (!isTransactionStatus(status)) throw new Error(`payment ${row.id} has an unknown status ${status}`);
  return {
    id: row.id,
    tppId: row.tpp_id,
    product: row.product,
    status,
    statusReason: row.status_reason ?? undefined,
    fundsAvailable: row.funds_available === null ? undefined : Boolean(row.funds_available),
    requestId: row.request_id,
    psuId: row.psu_id ?? undefined,
    psuCorporateId: row.psu_corporate_id ?? undefined,
    debtorAccountId: row.debtor_account_id,
    currency: row.currency,
    amountMinor: BigInt(row.amount),
    requestedExecutionDate: row.requested_execution_date ?? undefined,
    ...readPaymentDocument(row.service, row, row.id),
    requestContext: JSON.parse(row.request_context) as StoredRequestContext,
    createdAt: row.created_at,
    statusChangedAt: row.status_changed_at,
    basketId: row.basket_id ?? undefined,
    awaitingFundsSince: row.awaiting_funds_since ?? undefined,
    transactionFee:
      row.transaction_fee === null || row.transaction_fee_currency === null
        ? undefined
        : { minor: BigInt(row.transaction_fee), currency: row.transaction_fee_currency },
  };
}

/** The fee as text, as the amount: a bigint read exactly on both databases. */
const FEE = sql<string | null>`cast(transaction_fee_minor as text)`.as('transaction_fee');
/** What every read of a payment selects: its columns, and the amounts as exact decimal text. */
const SELECTED = [...COLUMNS, sql<string>`cast(amount_minor as text)`.as('amount'), FEE] as const;
/** Payments per statement in the batch reads and writes (both databases cap the bound parameters). */
const SLICE = 500;

/** Periodic payments are never executed by the sandbox. */
const EXECUTED_SERVICES: readonly PaymentService[] = ['payments', 'bulk-payments'];

/** A new payment: every initiation inserts one or more, so prepared once. */
const INSERT = preparedQuery((db, row: Omit<PaymentTable, 'basket_id' | 'awaiting_funds_since'>) => db.insertInto('payment').values(row), {
  deferrable: true,
});

/**
 * A live payment of a TPP with a logical fingerprint: every initiation checks for one. Without a
 * LIMIT, which made this look-up several times slower on SQLite (a key names one payment or few).
 */
/**
 * A TPP's payments from one debtor account in some statuses, prepared once per list of statuses:
 * the account reads ask it on every balances read and transactions page, always with one of a few
 * constant lists (payments-on-account.ts).
 */
const ON_DEBTOR_ACCOUNT = new Map<string, ReturnType<typeof onDebtorAccountQuery>>();

function onDebtorAccountQuery(statuses: readonly TransactionStatus[]) {
  return preparedQuery((db, v: { debtorAccountId: string }) =>
    db
      .selectFrom('payment')
      .select(SELECTED)
      .where('debtor_account_id', '=', v.debtorAccountId)
      .where('status', 'in', statuses)
      .orderBy('created_at')
      .orderBy('id'),
  );
}

function onDebtorAccountIn(statuses: readonly TransactionStatus[]) {
  const key = statuses.join(' ');
  let query = ON_DEBTOR_ACCOUNT.get(key);
  if (query === undefined) {
    query = onDebtorAccountQuery(statuses);
    ON_DEBTOR_ACCOUNT.set(key, query);
  }
  return query;
}

const LIVE_WITH_KEY = preparedQuery((db, v: { tppId: string; logicalKey: string }) =>
  db
    .selectFrom('payment')
    .select('id')
    .where('tpp_id', '=', v.tppId)
    .where('logical_key', '=', v.logicalKey)
    .where('status', 'in', LIVE_STATUSES),
);

/** The only place that queries the payment table. */
export const paymentRepository = {
  async insert(db: DbOrTx, payment: NewPayment): Promise<void> {
    await INSERT.run(db, {
      id: payment.id,
      tpp_id: payment.tppId,
      service: payment.service,
      product: payment.product,
      status: payment.status,
      status_reason: null,
      funds_available: null,
      request_id: payment.requestId,
      psu_id: payment.psuId ?? null,
      psu_corporate_id: payment.psuCorporateId ?? null,
      debtor_account_id: payment.debtorAccountId,
      currency: payment.currency,
      amount_minor: payment.amountMinor,
      requested_execution_date: payment.requestedExecutionDate ?? null,
      logical_key: payment.logicalKey ?? null,
      transaction_fee_minor: payment.transactionFee?.minor ?? null,
      transaction_fee_currency: payment.transactionFee?.currency ?? null,
      ...writePaymentDocument(payment),
      request_context: JSON.stringify(payment.requestContext),
      created_at: payment.createdAt,
      status_changed_at: payment.createdAt,
    });
  },

  /** A payment of this TPP in this service; another TPP's is not found (docs/design.md §5). */
  async find(db: DbOrTx, tppId: string, service: PaymentService, id: string): Promise<Payment | undefined> {
    const row = await db
      .selectFrom('payment')
      .select(SELECTED)
      .where('id', '=', id)
      .where('tpp_id', '=', tppId)
      .where('service', '=', service)
      .executeTakeFirst();
    return row && toPayment(row);
  },

  /** A payment of this TPP in whichever service (authorisations name payments by id alone). */
  async findById(db: DbOrTx, tppId: string, id: string): Promise<Payment | undefined> {
    const row = await db.selectFrom('payment').select(SELECTED).where('id', '=', id).where('tpp_id', '=', tppId).executeTakeFirst();
    return row && toPayment(row);
  },

  /** The payments of this TPP among `ids` (in no particular order; unknown ids are simply absent). */
  async findManyById(db: DbOrTx, tppId: string, ids: readonly string[]): Promise<Payment[]> {
    // By primary key alone, and the TPP filtered here: given both, SQLite walks the TPP's index
    // (all its payments) instead of looking up the few ids.
    return (await paymentRepository.findManyByIdOfAnyTpp(db, ids)).filter((payment) => payment.tppId === tppId);
  },

  /**
   * Payments among `ids` whoever initiated them: for what the bank says of an account a consent
   * covers (its lines name the payments they executed), not for acting on a payment.
   */
  async findManyByIdOfAnyTpp(db: DbOrTx, ids: readonly string[]): Promise<Payment[]> {
    if (ids.length === 0) return [];
    return (await db.selectFrom('payment').select(SELECTED).where('id', 'in', ids).execute()).map(toPayment);
  },

  /** {@link findManyById} of the state alone (status and the like, not the body): a batch run's re-read. */
  async findStatesById(db: DbOrTx, tppId: string, ids: readonly string[]): Promise<PaymentState[]> {
    const states: PaymentState[] = [];
    for (let start = 0; start < ids.length; start += SLICE) {
      const rows = await db
        .selectFrom('payment')
        .select(['id', 'tpp_id', 'product', 'status', 'awaiting_funds_since', 'basket_id'])
        .where('id', 'in', ids.slice(start, start + SLICE))
        .execute();
      for (const row of rows) {
        const status: string = row.status;
        if (!isTransactionStatus(status)) throw new Error(`payment ${row.id} has an unknown status ${status}`);
        if (row.tpp_id !== tppId) continue;
        states.push({
          id: row.id,
          tppId: row.tpp_id,
          product: row.product,
          status,
          awaitingFundsSince: row.awaiting_funds_since ?? undefined,
          basketId: row.basket_id ?? undefined,
        });
      }
    }
    return states;
  },

  /**
   * The payments from one debtor account in the given statuses, oldest first, whichever TPP
   * initiated them: what the account's statement shows of payments not yet at the bank (approved
   * ones, standing orders), and what they take off its balance. In the sandbox an account is one
   * TPP's; at a real bank TPPs share the PSU's account, and each must see what the others hold.
   */
  async listOnDebtorAccount(db: DbOrTx, debtorAccountId: string, statuses: readonly TransactionStatus[]): Promise<Payment[]> {
    if (statuses.length === 0) return [];
    const { rows } = await onDebtorAccountIn(statuses).run(db, { debtorAccountId });
    return rows.map(toPayment);
  },

  /**
   * Puts single payments into a basket, each only if its status still allows it (received, RCVD)
   * and it is in no open basket: conditional updates, so two baskets created at once cannot both take a payment.
   * Returns how many it took; the caller rolls back unless it took them all.
   */
  async claimForBasket(trx: DbOrTx, tppId: string, ids: readonly string[], basketId: string): Promise<number> {
    let claimed = 0;
    // One update per id: SQLite looks each up by primary key, where an `id in (…)` list made it walk
    // the status index over every received payment. In id order, as every lock on payments is taken.
    for (const id of [...ids].sort()) {
      const result = await trx
        .updateTable('payment')
        .set({ basket_id: basketId })
        .where('id', '=', id)
        .where('tpp_id', '=', tppId)
        .where('service', '=', 'payments')
        .where('status', 'in', statusesAllowing('put-in-basket'))
        .where('basket_id', 'is', null)
        .executeTakeFirst();
      claimed += Number(result.numUpdatedRows);
    }
    return claimed;
  },

  /**
   * Locks payments for the caller's transaction, in id order so that two transactions locking
   * overlapping sets cannot deadlock (PostgreSQL; SQLite runs one write transaction at a time).
   */
  async lockRows(trx: DbOrTx, ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    await trx
      .selectFrom('payment')
      .select('id')
      .where('id', 'in', [...ids].sort())
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /**
   * The payments a batch run considers, oldest first: approved (ACTC), waiting for their date
   * (PDNG) or for funds (ACCP); single and bulk only. Whether a PDNG one's date has come is for
   * the caller to judge, with the TPP's own clock.
   */
  async listExecutable(db: DbOrTx, tppId?: string): Promise<DuePayment[]> {
    let query = db
      .selectFrom('payment')
      .select(['id', 'tpp_id', 'status', 'requested_execution_date'])
      .where('status', 'in', statusesAllowing('execute'))
      .where('service', 'in', EXECUTED_SERVICES)
      // First come, first served: an earlier payment gets the money before a later one.
      .orderBy('created_at')
      .orderBy('id');
    if (tppId !== undefined) query = query.where('tpp_id', '=', tppId);
    const rows = await query.execute();
    return rows
      .filter((row) => isTransactionStatus(row.status))
      .map((row) => ({
        id: row.id,
        tppId: row.tpp_id,
        status: row.status,
        requestedExecutionDate: row.requested_execution_date ?? undefined,
      }));
  },

  /**
   * Takes one payment for execution in the caller's transaction. On PostgreSQL its row lock, or
   * `locked` when another transaction holds it (SKIP LOCKED: another run executing it, or a
   * request changing it); SQLite runs one write transaction at a time.
   */
  async takeForExecution(trx: DbOrTx, id: string): Promise<Payment | 'locked' | undefined> {
    const select = () => trx.selectFrom('payment').select(SELECTED).where('id', '=', id);
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) {
      const row = await select().executeTakeFirst();
      return row && toPayment(row);
    }
    const row = await select().forUpdate().skipLocked().executeTakeFirst();
    if (row) return toPayment(row);
    // Not returned: gone, or locked by another transaction (SKIP LOCKED cannot tell which).
    const exists = await trx.selectFrom('payment').select('id').where('id', '=', id).executeTakeFirst();
    return exists ? 'locked' : undefined;
  },

  /**
   * {@link takeForExecution} of many payments at once (a batch run's chunk), their row locks
   * taken in id order on PostgreSQL: each taken payment, or `locked`; a payment that is gone is
   * absent.
   */
  async takeManyForExecution(trx: DbOrTx, ids: readonly string[]): Promise<Map<string, Payment | 'locked'>> {
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const taken = new Map<string, Payment | 'locked'>();
    const sorted = [...new Set(ids)].sort();
    for (let start = 0; start < sorted.length; start += SLICE) {
      const slice = sorted.slice(start, start + SLICE);
      const rows = await trx
        .selectFrom('payment')
        .select(SELECTED)
        .where('id', 'in', slice)
        .$if(postgres, (qb) => qb.orderBy('id').forUpdate().skipLocked())
        .execute();
      for (const row of rows) taken.set(row.id, toPayment(row));
      const missing = slice.filter((id) => !taken.has(id));
      if (postgres && missing.length > 0) {
        // Not returned: gone, or locked by another transaction (SKIP LOCKED cannot tell which).
        const existing = await trx.selectFrom('payment').select('id').where('id', 'in', missing).execute();
        for (const row of existing) taken.set(row.id, 'locked');
      }
    }
    return taken;
  },

  /** {@link setAwaitingFundsSince} of many payments, to one date. */
  async setAwaitingFundsSinceOf(trx: DbOrTx, ids: readonly string[], date: string | null): Promise<void> {
    for (let start = 0; start < ids.length; start += SLICE) {
      await trx
        .updateTable('payment')
        .set({ awaiting_funds_since: date })
        .where('id', 'in', ids.slice(start, start + SLICE))
        .execute();
    }
  },

  async setAwaitingFundsSince(trx: DbOrTx, id: string, date: string | null): Promise<void> {
    await trx.updateTable('payment').set({ awaiting_funds_since: date }).where('id', '=', id).execute();
  },

  /** The statuses of the payments in a basket (its own status is derived from them). */
  async statusesInBasket(trx: DbOrTx, basketId: string): Promise<TransactionStatus[]> {
    const rows = await trx.selectFrom('payment').select('status').where('basket_id', '=', basketId).execute();
    return rows.map((row) => row.status);
  },

  /** Lets a deleted basket's payments go: they may be authorised alone or put in another basket. */
  async releaseFromBasket(trx: DbOrTx, basketId: string): Promise<void> {
    await trx.updateTable('payment').set({ basket_id: null }).where('basket_id', '=', basketId).execute();
  },

  /** The id of a live payment of this TPP with one of these logical fingerprints, if any. */
  async findLiveDuplicate(db: DbOrTx, tppId: string, logicalKeys: readonly string[]): Promise<string | undefined> {
    // One statement per key (there are one or two): the prepared statement's shape is fixed.
    for (const logicalKey of logicalKeys) {
      const row = (await LIVE_WITH_KEY.run(db, { tppId, logicalKey })).rows[0];
      if (row) return row.id;
    }
    return undefined;
  },

  /**
   * The live payments of this TPP that a party is in (a sandbox deletion asks): debited from one
   * of its accounts, or created by it as the PSU. Oldest first.
   */
  async listLiveOf(
    db: DbOrTx,
    tppId: string,
    party: { readonly debtorAccountIds: readonly string[]; readonly psuId: string },
  ): Promise<{ id: string; status: TransactionStatus }[]> {
    const rows = await db
      .selectFrom('payment')
      .select(['id', 'status'])
      .where('tpp_id', '=', tppId)
      .where('status', 'in', LIVE_STATUSES)
      .where((eb) =>
        eb.or([
          eb('psu_id', '=', party.psuId),
          ...(party.debtorAccountIds.length > 0 ? [eb('debtor_account_id', 'in', party.debtorAccountIds)] : []),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.filter((row) => isTransactionStatus(row.status)).map((row) => ({ id: row.id, status: row.status }));
  },

  /**
   * The payments initiated for a PSU, newest first, in every status: debited from one of its
   * accounts, or created with it as the PSU. Of one TPP, or of every TPP when `tppId` is undefined.
   */
  async listForPsu(
    db: DbOrTx,
    tppId: string | undefined,
    party: { readonly debtorAccountIds: readonly string[]; readonly psuId: string },
    limit: number,
  ): Promise<Payment[]> {
    let query = db
      .selectFrom('payment')
      .select(SELECTED)
      .where((eb) =>
        eb.or([
          eb('psu_id', '=', party.psuId),
          ...(party.debtorAccountIds.length > 0 ? [eb('debtor_account_id', 'in', party.debtorAccountIds)] : []),
        ]),
      );
    if (tppId !== undefined) query = query.where('tpp_id', '=', tppId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(toPayment);
  },

  /**
   * Serialises creations of logically equal payments on PostgreSQL (a transaction-scoped advisory
   * lock on the fingerprint), so two concurrent equal payments cannot both pass the duplicate
   * check. SQLite runs one write transaction at a time and needs nothing.
   */
  async lockLogicalKey(trx: DbOrTx, tppId: string, logicalKey: string): Promise<void> {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${tppId}\n${logicalKey}`}, 0))`.execute(trx);
    }
  },

  /**
   * {@link updateStatus} of many payments, one statement per kind of change (the same from, to,
   * reason and time): how many of them moved. A payment whose status was no longer its `from`
   * is not moved.
   */
  async updateStatuses(
    db: DbOrTx,
    changes: readonly {
      id: string;
      from: TransactionStatus;
      to: TransactionStatus;
      reason: string | undefined;
      fundsAvailable?: boolean | undefined;
      at: string;
    }[],
  ): Promise<number> {
    const groups = new Map<string, { change: (typeof changes)[number]; ids: string[] }>();
    for (const change of changes) {
      const key = JSON.stringify([change.from, change.to, change.reason ?? null, change.fundsAvailable ?? null, change.at]);
      const group = groups.get(key);
      if (group) group.ids.push(change.id);
      else groups.set(key, { change, ids: [change.id] });
    }
    // On SQLite `+status` (no index on it): with `status = ?` next to the id list, SQLite's planner
    // walks the status index over every payment in that status (a whole run's worth) instead of
    // looking up the listed ids.
    const status = db.getExecutor().adapter instanceof PostgresAdapter ? sql.ref('status') : sql.raw('+status');
    let moved = 0;
    for (const { change, ids } of groups.values()) {
      for (let start = 0; start < ids.length; start += SLICE) {
        const result = await db
          .updateTable('payment')
          .set({
            status: change.to,
            status_reason: change.reason ?? null,
            status_changed_at: change.at,
            ...(change.fundsAvailable === undefined ? {} : { funds_available: change.fundsAvailable ? 1 : 0 }),
          })
          .where('id', 'in', ids.slice(start, start + SLICE))
          .where(status, '=', change.from)
          .executeTakeFirst();
        moved += Number(result.numUpdatedRows);
      }
    }
    return moved;
  },

  /**
   * Moves a payment from `from` to `to`. False when its status was no longer `from` (a concurrent
   * change won), so the caller never overwrites a status it did not see.
   */
  async updateStatus(
    db: DbOrTx,
    id: string,
    change: {
      from: TransactionStatus;
      to: TransactionStatus;
      reason: string | undefined;
      fundsAvailable?: boolean | undefined;
      at: string;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('payment')
      .set({
        status: change.to,
        status_reason: change.reason ?? null,
        status_changed_at: change.at,
        // 1/0, not true/false: better-sqlite3 binds no booleans, and PostgreSQL reads '1'/'0' as boolean.
        ...(change.fundsAvailable === undefined ? {} : { funds_available: change.fundsAvailable ? 1 : 0 }),
      })
      .where('id', '=', id)
      .where('status', '=', change.from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
