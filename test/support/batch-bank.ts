/**
 * A sandbox bank full of approved payments, for the process-level batch-run tests
 * (test/execution/batch-crash.process.test.ts), and what the database says about them afterwards.
 *
 * Seeding: the TPP's customers and accounts go through the sandbox bank's own services (so they
 * are real sandbox accounts of that TPP, with opening balances posted to the ledger); the
 * payments are validated by the payment rules, as an initiation would be, and inserted with the
 * payment repository in status ACTC (approved), in a few transactions at once: thousands through
 * the API and SCA would take minutes.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/create-db.js';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
import { createBankClock } from '../../src/modules/clock/bank-clock.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { checkSinglePayment } from '../../src/modules/payments/payment-rules.js';
import type { SinglePaymentBody } from '../../src/modules/payments/payment.schemas.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { NewPayment } from '../../src/modules/payments/payment.model.js';
import { sandboxSystemAccount } from '../../src/modules/sandbox/sandbox-bank.model.js';
import { createSandboxBank } from '../../src/modules/sandbox/sandbox-bank.service.js';
import { openTestDatabase, type TestDatabase } from './databases.js';
import { NDCT, ndctBody } from './payments.js';
import { accountNumber, identityNumber, osloDay } from './sandbox.js';
import { NO_HEADERS } from './stored-payment.js';

export interface SeededAccount {
  readonly id: string;
  readonly bban: string;
  readonly customerNumber: string;
  readonly openingMinor: bigint;
}

export interface SeededPayment {
  readonly id: string;
  readonly debtorAccountId: string;
  readonly amountMinor: bigint;
  /** The sandbox account credited, when the creditor is in the bank; else the TPP's clearing account takes it. */
  readonly creditorAccountId: string | undefined;
}

export interface SeededBank {
  readonly tppId: string;
  readonly debtors: readonly SeededAccount[];
  readonly creditors: readonly SeededAccount[];
  /** The debtor whose funds cover only some of its payments, when the plan has one. */
  readonly limited: SeededAccount | undefined;
  readonly payments: readonly SeededPayment[];
  /** The TPP's clearing account: the other leg of payments to creditors outside the bank. */
  readonly clearing: string;
}

export interface SeedPlan {
  readonly tppId: string;
  /** Approved payments from the well-funded debtors. */
  readonly payments: number;
  readonly debtors: number;
  readonly debtorOpeningMinor: bigint;
  /** Sandbox accounts of the same TPP that every third payment goes to (the others leave the bank). */
  readonly inBankCreditors: number;
  /** One more debtor whose opening balance covers only some of its `payments` equal payments. */
  readonly limited?: { readonly openingMinor: bigint; readonly payments: number; readonly amountMinor: bigint };
}

function decimal(minor: bigint): string {
  return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
}

export async function seedBank(db: Db, plan: SeedPlan): Promise<SeededBank> {
  const now = () => new Date();
  const bank = createSandboxBank(db, createLedger(now), createBankClock(db, now, true));
  const caller = { tppId: plan.tppId };
  const account = async (name: string, openingMinor: bigint): Promise<SeededAccount> => {
    const customer = await bank.customers.create(caller, { customerNumber: identityNumber(), customerType: 'PRIVATE', customerName: name });
    const created = await bank.accounts.create(caller, { customerNumber: customer.customerNumber });
    if (openingMinor !== 0n) {
      await bank.accounts.setBalance(caller, created.account.id, { balanceAmount: { currency: 'NOK', amount: decimal(openingMinor) } });
    }
    return { id: created.account.id, bban: created.account.bban, customerNumber: customer.customerNumber, openingMinor };
  };
  const debtors: SeededAccount[] = [];
  for (let n = 0; n < plan.debtors; n++) debtors.push(await account(`Debtor ${n}`, plan.debtorOpeningMinor));
  const creditors: SeededAccount[] = [];
  for (let n = 0; n < plan.inBankCreditors; n++) creditors.push(await account(`Creditor ${n}`, 0n));
  const limited = plan.limited && (await account('Limited Debtor', plan.limited.openingMinor));

  const orders: { debtor: SeededAccount; amountMinor: bigint; creditor: SeededAccount | undefined }[] = [];
  for (let n = 0; n < plan.payments; n++) {
    const creditor = creditors.length > 0 && n % 3 === 0 ? creditors[(n / 3) % creditors.length] : undefined;
    orders.push({ debtor: debtors[n % debtors.length]!, amountMinor: 100n + BigInt((n * 7919) % 50_000), creditor });
  }
  for (let n = 0; n < (plan.limited?.payments ?? 0); n++) {
    orders.push({ debtor: limited!, amountMinor: plan.limited!.amountMinor, creditor: undefined });
  }

  const context = { today: osloDay(), maxDaysAhead: 365, nokRates: DEFAULT_NOK_RATES };
  const createdAt = new Date().toISOString();
  const payments: SeededPayment[] = [];
  const rows = orders.map(({ debtor, amountMinor, creditor }, n): NewPayment => {
    const body = ndctBody(debtor, {
      instructedAmount: { currency: 'NOK', amount: decimal(amountMinor) },
      creditorAccount: { bban: creditor?.bban ?? accountNumber().bban },
      remittanceInformationUnstructured: `Faktura ${n}`,
    });
    const order = checkSinglePayment(NDCT, body as unknown as SinglePaymentBody, context);
    const id = randomUUID();
    payments.push({ id, debtorAccountId: debtor.id, amountMinor: order.amount.minor, creditorAccountId: creditor?.id });
    return {
      id,
      tppId: plan.tppId,
      service: 'payments',
      product: NDCT,
      status: 'ACTC',
      requestId: randomUUID(),
      psuId: debtor.customerNumber,
      psuCorporateId: undefined,
      debtorAccountId: debtor.id,
      currency: order.amount.currency,
      amountMinor: order.amount.minor,
      requestedExecutionDate: order.requestedExecutionDate,
      logicalKey: order.logicalKey,
      body: order.body,
      requestContext: NO_HEADERS,
      createdAt,
    };
  });
  const SLICE = 500;
  const slices: (typeof rows)[] = [];
  for (let start = 0; start < rows.length; start += SLICE) slices.push(rows.slice(start, start + SLICE));
  // A few transactions at once on PostgreSQL (the pool has 5 connections); SQLite takes them in turn.
  await Promise.all(
    slices.map((slice) =>
      db.transaction().execute(async (trx) => {
        for (const row of slice) await paymentRepository.insert(trx, row);
      }),
    ),
  );
  return { tppId: plan.tppId, debtors, creditors, limited, payments, clearing: sandboxSystemAccount(plan.tppId, 'clearing') };
}

/**
 * A fresh migrated database, and the DATABASE_URL that lets a server process use exactly it:
 * the SQLite file, or the PostgreSQL URL with the test's schema as search_path (and an
 * application_name, so the test can see when the process's connections are gone).
 */
export async function openProcessDatabase(dialect: 'sqlite' | 'postgres'): Promise<{
  readonly database: TestDatabase;
  readonly urlFor: (applicationName: string) => string;
}> {
  const database = await openTestDatabase(dialect);
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(database.db);
    const file = rows.find((row) => row.name === 'main')!.file;
    return { database, urlFor: () => `sqlite:${file}` };
  }
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const schema = rows[0]!.schema;
  return {
    database,
    urlFor: (applicationName) => {
      const url = new URL(process.env['TEST_POSTGRES_URL']!);
      // synchronous_commit=off: a COMMIT does not wait for the WAL flush (a quarter of the time
      // per payment on a slow disk). What a killed server process committed stays committed and
      // visible all the same; only a crash of PostgreSQL itself could lose the newest commits.
      url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
      url.searchParams.set('application_name', applicationName);
      return url.toString();
    },
  };
}

/** How many PostgreSQL connections of this application_name are open (a killed server's linger a moment). */
export async function connectionsOf(db: Db, applicationName: string): Promise<number> {
  const { rows } = await sql<{
    n: string;
  }>`select cast(count(*) as text) as n from pg_stat_activity where application_name = ${applicationName}`.execute(db);
  return Number(rows[0]!.n);
}

export async function statusCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('payment')
    .select(['status', sql<string>`cast(count(*) as text)`.as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

export interface StoredPayment {
  readonly id: string;
  readonly status: string;
  readonly fundsAvailable: boolean | undefined;
}

export interface LedgerLeg {
  readonly accountId: string;
  readonly currency: string;
  readonly amountMinor: bigint;
}

/** Everything the exactly-once checks read, in one go. */
export interface BankState {
  readonly payments: ReadonlyMap<string, StoredPayment>;
  /** Per payment id: the ledger transactions under its key `payment:<id>`, each with its legs. */
  readonly postings: ReadonlyMap<string, LedgerLeg[][]>;
  /** Per payment id: its audited status changes, `FROM>TO`, in order. */
  readonly statusChanges: ReadonlyMap<string, string[]>;
  /** Booked balance per account, from ledger_balance. */
  readonly balances: ReadonlyMap<string, bigint>;
  /** ledger_balance rows that differ from the sums of their entries (should be none). */
  readonly balanceDrift: readonly string[];
  /** Sum of all entries per currency (should be 0 each). */
  readonly currencySums: ReadonlyMap<string, bigint>;
  /** The payments submitted to the bank whose outcome is not recorded yet (in flight). */
  readonly inFlight: ReadonlySet<string>;
}

export async function readBankState(db: Db): Promise<BankState> {
  const payments = new Map<string, StoredPayment>();
  for (const row of await db.selectFrom('payment').select(['id', 'status', 'funds_available']).execute()) {
    payments.set(row.id, {
      id: row.id,
      status: row.status,
      fundsAvailable: row.funds_available === null ? undefined : Boolean(row.funds_available),
    });
  }
  const legRows = await db
    .selectFrom('ledger_transaction as t')
    .leftJoin('ledger_entry as e', 'e.transaction_id', 't.id')
    .select([
      't.id as transactionId',
      't.idempotency_key as key',
      'e.account_id',
      'e.currency',
      sql<string | null>`cast(e.amount_minor as text)`.as('amount'),
    ])
    .where('t.idempotency_key', 'like', 'payment:%')
    .orderBy('t.id')
    .orderBy('e.id')
    .execute();
  const byTransaction = new Map<string, { key: string; legs: LedgerLeg[] }>();
  for (const row of legRows) {
    const id = String(row.transactionId);
    let transaction = byTransaction.get(id);
    if (!transaction) byTransaction.set(id, (transaction = { key: row.key, legs: [] }));
    if (row.account_id !== null && row.currency !== null && row.amount !== null) {
      transaction.legs.push({ accountId: row.account_id, currency: row.currency, amountMinor: BigInt(row.amount) });
    }
  }
  const postings = new Map<string, LedgerLeg[][]>();
  for (const { key, legs } of byTransaction.values()) {
    const paymentId = key.slice('payment:'.length);
    postings.set(paymentId, [...(postings.get(paymentId) ?? []), legs]);
  }
  const inFlight = new Set(
    (await db.selectFrom('payment_submission').select('payment_id').where('outcome', 'is', null).execute()).map((row) => row.payment_id),
  );
  const statusChanges = new Map<string, string[]>();
  const audits = await db
    .selectFrom('audit_event')
    .select(['resource_id', 'details'])
    .where('action', '=', 'payment.status-changed')
    .orderBy('id')
    .execute();
  for (const row of audits) {
    const details = JSON.parse(row.details) as { from: string; to: string };
    statusChanges.set(row.resource_id, [...(statusChanges.get(row.resource_id) ?? []), `${details.from}>${details.to}`]);
  }
  const balanceRows = await db
    .selectFrom('ledger_balance')
    .select([
      'account_id',
      'currency',
      sql<string>`cast(booked_minor as text)`.as('booked'),
      sql<string>`cast(expected_minor as text)`.as('expected'),
    ])
    .execute();
  const sums = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select([
      'e.account_id',
      'e.currency',
      sql<string>`cast(sum(case when t.status = 'booked' then e.amount_minor else 0 end) as text)`.as('booked'),
      sql<string>`cast(sum(e.amount_minor) as text)`.as('expected'),
    ])
    .groupBy(['e.account_id', 'e.currency'])
    .execute();
  const key = (accountId: string, currency: string) => `${accountId} ${currency}`;
  const kept = new Map(balanceRows.map((row) => [key(row.account_id, row.currency), `${BigInt(row.booked)}/${BigInt(row.expected)}`]));
  const summed = new Map(sums.map((row) => [key(row.account_id, row.currency), `${BigInt(row.booked)}/${BigInt(row.expected)}`]));
  const balanceDrift: string[] = [];
  for (const name of new Set([...kept.keys(), ...summed.keys()])) {
    const row = kept.get(name) ?? '0/0';
    const entries = summed.get(name) ?? '0/0';
    if (row !== entries) balanceDrift.push(`${name}: ledger_balance ${row}, entries ${entries}`);
  }
  const currencyRows = await db
    .selectFrom('ledger_entry')
    .select(['currency', sql<string>`cast(sum(amount_minor) as text)`.as('sum')])
    .groupBy('currency')
    .execute();
  return {
    payments,
    postings,
    statusChanges,
    balances: new Map(balanceRows.filter((row) => row.currency === 'NOK').map((row) => [row.account_id, BigInt(row.booked)])),
    balanceDrift,
    currencySums: new Map(currencyRows.map((row) => [row.currency, BigInt(row.sum)])),
    inFlight,
  };
}
