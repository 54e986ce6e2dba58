import { PostgresAdapter, sql } from 'kysely';
import type { Money } from '../../domain/money.js';
import type { AccountReference } from '../../bank/core-banking.port.js';
import type { DbOrTx } from '../../db/create-db.js';
import { preparedQuery } from '../../db/prepared-query.js';
import type { SandboxAccount } from './sandbox-bank.model.js';
import { JOINED_CUSTOMER_COLUMNS, joinedCustomer } from './customer.repository.js';

export interface NewAccountRow {
  readonly id: string;
  readonly customerId: string;
  readonly bban: string;
  readonly iban: string;
  readonly currency: string;
  readonly name: string;
  readonly product: string;
  readonly cashAccountType: string;
  readonly creditLimitMinor?: bigint | undefined;
}

/** An account with its owner and, for a corporation, its agreement's organisation number. */
function accounts(db: DbOrTx, tppId: string) {
  return db
    .selectFrom('sandbox_account as a')
    .innerJoin('sandbox_customer as c', 'c.id', 'a.customer_id')
    .leftJoin('sandbox_agreement as g', 'g.customer_id', 'a.customer_id')
    .select([
      'a.id',
      'a.bban',
      'a.iban',
      'a.currency',
      'a.name',
      'a.product',
      'a.cash_account_type',
      sql<string>`cast(a.credit_limit_minor as text)`.as('credit_limit_minor'),
      ...JOINED_CUSTOMER_COLUMNS,
      'g.organisation_number',
    ])
    .where('a.tpp_id', '=', tppId);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof accounts>['executeTakeFirstOrThrow']>>;

function toAccount(row: AccountRow): SandboxAccount {
  return {
    id: row.id,
    owner: joinedCustomer(row),
    bban: row.bban,
    iban: row.iban,
    currency: row.currency,
    name: row.name,
    product: row.product,
    cashAccountType: row.cash_account_type,
    creditLimit: { minor: BigInt(row.credit_limit_minor), currency: row.currency },
    organisationNumber: row.organisation_number ?? undefined,
  };
}

/**
 * An account of a TPP by id, BBAN or IBAN: read on every initiation (its debtor) and account read,
 * so prepared once. The key is unique per TPP.
 */
const BY_ID = preparedQuery((db, v: { tppId: string; key: string }) => accounts(db, v.tppId).where('a.id', '=', v.key));
const BY_BBAN = preparedQuery((db, v: { tppId: string; key: string }) => accounts(db, v.tppId).where('a.bban', '=', v.key));
const BY_IBAN = preparedQuery((db, v: { tppId: string; key: string }) => accounts(db, v.tppId).where('a.iban', '=', v.key));

/** What moving money needs of an account: its id, currency and credit line. */
export interface LedgerKey {
  readonly id: string;
  readonly currency: string;
  readonly creditLimitMinor: bigint;
}

/** {@link LedgerKey} of an account by id: every balances read asks, so prepared once; no join, as the owner is not wanted. */
const LEDGER_KEY_BY_ID = preparedQuery((db, v: { tppId: string; id: string }) =>
  db
    .selectFrom('sandbox_account')
    .select(['id', 'currency', sql<string>`cast(credit_limit_minor as text)`.as('credit_limit_minor')])
    .where('tpp_id', '=', v.tppId)
    .where('id', '=', v.id),
);

/** The only place that queries sandbox_account; every query is scoped to one TPP. */
export const accountRepository = {
  /** Inserts an account; false when the TPP already has an account with this BBAN (or IBAN). */
  async insert(db: DbOrTx, tppId: string, account: NewAccountRow, at: string): Promise<boolean> {
    const inserted = await db
      .insertInto('sandbox_account')
      .values({
        id: account.id,
        tpp_id: tppId,
        customer_id: account.customerId,
        bban: account.bban,
        iban: account.iban,
        currency: account.currency,
        name: account.name,
        product: account.product,
        cash_account_type: account.cashAccountType,
        credit_limit_minor: account.creditLimitMinor ?? 0n,
        created_at: at,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  /** Sets the credit line (`PATCH /v1/sandbox/accounts/{id}`); false when the TPP has no such account. */
  async setCreditLimit(db: DbOrTx, tppId: string, id: string, creditLimit: Money): Promise<boolean> {
    const result = await db
      .updateTable('sandbox_account')
      .set({ credit_limit_minor: creditLimit.minor })
      .where('tpp_id', '=', tppId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async findById(db: DbOrTx, tppId: string, id: string): Promise<SandboxAccount | undefined> {
    const row = (await BY_ID.run(db, { tppId, key: id })).rows[0];
    return row && toAccount(row);
  },

  /** What moving money and reading balances need of an account (no owner): its id, currency and credit line. */
  async ledgerKeyById(db: DbOrTx, tppId: string, id: string): Promise<LedgerKey | undefined> {
    const row = (await LEDGER_KEY_BY_ID.run(db, { tppId, id })).rows[0];
    return row && { id: row.id, currency: row.currency, creditLimitMinor: BigInt(row.credit_limit_minor) };
  },

  /** By BBAN or IBAN, as a payment or an engagement names it. */
  async findByReference(db: DbOrTx, tppId: string, reference: AccountReference): Promise<SandboxAccount | undefined> {
    const { rows } =
      'bban' in reference ? await BY_BBAN.run(db, { tppId, key: reference.bban }) : await BY_IBAN.run(db, { tppId, key: reference.iban });
    const row = rows[0];
    return row && toAccount(row);
  },

  /**
   * {@link ledgerKeyOf} of many references in a few statements (a payment file's debtors and
   * creditors): a lookup answering what ledgerKeyOf would for each.
   */
  async ledgerKeysOf(
    db: DbOrTx,
    tppId: string,
    references: readonly ({ id: string } | AccountReference)[],
  ): Promise<(reference: { id: string } | AccountReference) => LedgerKey | undefined> {
    const wanted = { id: new Set<string>(), bban: new Set<string>(), iban: new Set<string>() };
    for (const reference of references) {
      if ('id' in reference) wanted.id.add(reference.id);
      else if ('bban' in reference) wanted.bban.add(reference.bban);
      else wanted.iban.add(reference.iban);
    }
    const found = { id: new Map<string, LedgerKey>(), bban: new Map<string, LedgerKey>(), iban: new Map<string, LedgerKey>() };
    for (const column of ['id', 'bban', 'iban'] as const) {
      const values = [...wanted[column]];
      for (let start = 0; start < values.length; start += LOCK_SLICE) {
        const rows = await db
          .selectFrom('sandbox_account')
          .select(['id', 'bban', 'iban', 'currency', sql<string>`cast(credit_limit_minor as text)`.as('credit_limit_minor')])
          .where('tpp_id', '=', tppId)
          .where(column, 'in', values.slice(start, start + LOCK_SLICE))
          .execute();
        for (const row of rows) {
          found[column].set(row[column], { id: row.id, currency: row.currency, creditLimitMinor: BigInt(row.credit_limit_minor) });
        }
      }
    }
    return (reference) =>
      'id' in reference
        ? found.id.get(reference.id)
        : 'bban' in reference
          ? found.bban.get(reference.bban)
          : found.iban.get(reference.iban);
  },

  async list(db: DbOrTx, tppId: string): Promise<SandboxAccount[]> {
    const rows = await accounts(db, tppId).orderBy('c.customer_number').orderBy('a.bban').execute();
    return rows.map(toAccount);
  },

  async listOwnedBy(db: DbOrTx, tppId: string, customerId: string): Promise<SandboxAccount[]> {
    const rows = await accounts(db, tppId).where('a.customer_id', '=', customerId).orderBy('a.bban').execute();
    return rows.map(toAccount);
  },

  /**
   * Takes the account's row lock until the transaction ends (a write that changes nothing), so
   * two balance updates of one account cannot both read the old balance. SQLite serialises
   * write transactions anyway; on PostgreSQL this is the row lock.
   */
  async lock(trx: DbOrTx, tppId: string, id: string): Promise<boolean> {
    const result = await trx
      .updateTable('sandbox_account')
      .set({ tpp_id: tppId })
      .where('tpp_id', '=', tppId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * Takes the row locks of several accounts until the transaction ends, in id order, so two
   * writers locking overlapping sets never deadlock. SQLite serialises write transactions anyway;
   * on PostgreSQL these are the row locks, taken in the order of the statement's sort.
   */
  async lockAll(trx: DbOrTx, tppId: string, ids: readonly string[]): Promise<void> {
    if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
    const sorted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (let start = 0; start < sorted.length; start += LOCK_SLICE) {
      await trx
        .selectFrom('sandbox_account')
        .select('id')
        .where('tpp_id', '=', tppId)
        .where('id', 'in', sorted.slice(start, start + LOCK_SLICE))
        .orderBy('id')
        .forUpdate()
        .execute();
    }
  },
};

/** Accounts locked per statement (both databases cap the bound parameters of one statement). */
const LOCK_SLICE = 1000;
