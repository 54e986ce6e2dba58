import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { BANK_TIME_ZONE, isBankDay, nextBankDayAfter } from '../../src/domain/bank-calendar.js';
import { addDays, todayIn } from '../../src/domain/iso-date.js';
import type { SandboxClockView } from '../../src/modules/clock/sandbox-clock.service.js';
import { expectBerlinGroupSchema } from './berlin-group-schema.js';
import type { Psu } from './payments.js';
import { createPayment, walk, type CreatedPayment } from './sca.js';
import { balancesOf, createAccount, createCustomer } from './sandbox.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/**
 * Helpers of the execution tests (test/execution/*.api.test.ts): the test server of a
 * describe block, a TPP of its own per test (each TPP has its own sandbox and its own clock),
 * funded accounts, batch runs, the sandbox clock, and what a run left in the audit trail and the
 * ledger.
 */

/**
 * The test server of the enclosing describe block: started in its beforeAll, closed in its
 * afterAll. The object returned stands for that server once beforeAll has run (reading it before
 * throws), so a test file writes `const server = useTestServer({ dialect })` instead of the hooks.
 */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(options);
  });
  afterAll(() => started?.close());
  return new Proxy({} as TestServer, {
    get(_target, property) {
      if (!started) throw new Error(`the test server is not started yet (reading ${String(property)} outside a hook or test)`);
      return Reflect.get(started, property);
    },
  });
}

let nextTpp = 1;

/** A fresh TPP of the test server, signing as PSDNO-FSA-7xxxxxxxx: its own sandbox data and clock. */
export async function freshTpp(server: TestServer): Promise<{ orgId: string; client: TppClient }> {
  const orgId = `PSDNO-FSA-${String(700_000_000 + nextTpp++)}`;
  return { orgId, client: (await server.newTpp(orgId)).client };
}

/** A private PSU with one account holding `balance` (closingBooked), and the account's mock id. */
export interface FundedPsu extends Psu {
  readonly accountId: string;
}

export async function fundedPsu(client: TppClient, balance = '1000.00', currency = 'NOK'): Promise<FundedPsu> {
  const customer = await createCustomer(client);
  const account = await createAccount(client, customer.customerNumber, currency === 'NOK' ? {} : { currency });
  await setBalance(client, account.resourceId, balance, currency);
  return {
    customerNumber: customer.customerNumber,
    account: { bban: account.bban, iban: account.iban, currency: account.currency },
    headers: { 'psu-id': customer.customerNumber },
    accountId: account.resourceId,
  };
}

/** A fresh TPP whose sandbox clock is at `time` (Oslo) on the next bank day, with a PSU holding `balance`. */
export async function tppOnBankDay(
  server: TestServer,
  time: string,
  balance = '1000.00',
): Promise<{ orgId: string; client: TppClient; day: string; psu: FundedPsu }> {
  const { orgId, client } = await freshTpp(server);
  const day = nextBankDay();
  await setClock(client, osloDateTime(day, time));
  return { orgId, client, day, psu: await fundedPsu(client, balance) };
}

/** Another account of the same TPP's sandbox (a creditor inside the bank), with its mock id. */
export async function inBankAccount(client: TppClient, currency = 'NOK'): Promise<{ accountId: string; bban: string; iban: string }> {
  const customer = await createCustomer(client);
  const account = await createAccount(client, customer.customerNumber, currency === 'NOK' ? {} : { currency });
  return { accountId: account.resourceId, bban: account.bban, iban: account.iban };
}

/** `PUT /v1/sandbox/accounts/{id}/balance`, failing the test unless 200. */
export async function setBalance(client: TppClient, accountId: string, amount: string, currency = 'NOK'): Promise<void> {
  const response = await client.put<any>(`/v1/sandbox/accounts/${accountId}/balance`, { balanceAmount: { currency, amount } });
  expect(response.status, response.text).toBe(200);
}

/** `POST /v1/funds-confirmations` for a NOK amount on the account: its fundsAvailable (the client needs PSP_IC). */
export async function fundsAvailable(client: TppClient, account: { readonly bban: string }, amount: string): Promise<boolean> {
  const response = await client.post<any>('/v1/funds-confirmations', {
    account: { bban: account.bban },
    instructedAmount: { currency: 'NOK', amount },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.fundsAvailable as boolean;
}

/** The account's balances by type (closingBooked, expected, interimAvailable), read through the API. */
export async function balanceOf(client: TppClient, accountId: string): Promise<Record<string, string>> {
  const response = await client.get<any>(`/v1/sandbox/accounts/${accountId}`);
  expect(response.status, response.text).toBe(200);
  return balancesOf(response.body);
}

/** The answer of `POST /v1/sandbox/batch-runs`. */
export interface BatchRun {
  readonly batchRunId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly today: string;
  readonly lastRunOfDay: boolean;
  readonly counts: {
    readonly executed: number;
    readonly partiallyExecuted: number;
    readonly awaitingFunds: number;
    readonly rejected: number;
    readonly skipped: number;
    readonly failed: number;
  };
}

export const NO_COUNTS = { executed: 0, partiallyExecuted: 0, awaitingFunds: 0, rejected: 0, skipped: 0, failed: 0 } as const;

/** `POST /v1/sandbox/batch-runs`, failing the test unless 200. */
export async function runBatch(client: TppClient): Promise<BatchRun> {
  const response = await client.post<any>('/v1/sandbox/batch-runs', undefined);
  expect(response.status, response.text).toBe(200);
  return response.body as BatchRun;
}

/** `GET /v1/sandbox/clock`, failing the test unless 200. */
export async function readClock(client: TppClient): Promise<SandboxClockView> {
  const response = await client.get<any>('/v1/sandbox/clock');
  expect(response.status, response.text).toBe(200);
  return response.body as SandboxClockView;
}

/** `POST /v1/sandbox/clock {dateTime}`, failing the test unless 200. */
export async function setClock(client: TppClient, dateTime: string): Promise<SandboxClockView> {
  const response = await client.post<any>('/v1/sandbox/clock', { dateTime });
  expect(response.status, response.text).toBe(200);
  return response.body as SandboxClockView;
}

/** Oslo's UTC offset on a date at noon, as "+01:00" or "+02:00". */
export function osloOffset(date: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: BANK_TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(new Date(`${date}T12:00:00Z`))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-]\d{2}:\d{2})/.exec(name ?? '');
  if (!match?.[1]) throw new Error(`no Oslo offset for ${date}: ${name}`);
  return match[1];
}

/** A local time of a date in Oslo as an ISO date-time with its offset, e.g. 2026-11-23T10:00:00+01:00. */
export function osloDateTime(date: string, time: string): string {
  return `${date}T${time}:00${osloOffset(date)}`;
}

/** The real bank date in Oslo. */
export function realToday(): string {
  return todayIn(BANK_TIME_ZONE, new Date());
}

/** The first Norwegian bank day after the real today (always in the future, whatever the time). */
export function nextBankDay(after = realToday()): string {
  return nextBankDayAfter(after);
}

/** The first day after `after` that is not a bank day (a Saturday, Sunday or holiday). */
export function nextNonBankDay(after = realToday()): string {
  let date = addDays(after, 1);
  while (isBankDay(date)) date = addDays(date, 1);
  return date;
}

/** `{instructedAmount}` of a NOK amount, for the body builders' `extra`. */
export function nok(amount: string): { instructedAmount: { currency: string; amount: string } } {
  return { instructedAmount: { currency: 'NOK', amount } };
}

/** The payment's status resource, checked against the Berlin Group schema (paymentInitiationStatusResponse-200_json). */
export async function statusOf(
  client: TppClient,
  paymentPath: string,
): Promise<{ transactionStatus: string; fundsAvailable?: boolean; psuMessage?: string }> {
  const response = await client.get<any>(`${paymentPath}/status`);
  expect(response.status, response.text).toBe(200);
  expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', response.body);
  return response.body;
}

/** Walks a created payment's SCA redirect to approval, failing unless the PSU reached the end. */
export async function approve(payment: CreatedPayment): Promise<void> {
  const journey = await walk(payment.links['scaRedirect']!.href);
  expect(journey.lastStatus, journey.lastPage).toBeLessThan(500);
}

/** Creates a payment and walks its SCA to approval. */
export async function approvedPayment(
  client: TppClient,
  service: 'payments' | 'bulk-payments' | 'periodic-payments',
  product: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<CreatedPayment> {
  const payment = await createPayment(client, service, product, body, headers);
  await approve(payment);
  return payment;
}

/** The audited status moves of a payment, in order, as "FROM>TO". */
export async function paymentMoves(server: TestServer, paymentId: string): Promise<string[]> {
  const rows = await server.database.db
    .selectFrom('audit_event')
    .selectAll()
    .where('resource_type', '=', 'payment')
    .where('resource_id', '=', paymentId)
    .where('action', '=', 'payment.status-changed')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const details = JSON.parse(row.details) as { from: string; to: string };
    return `${details.from}>${details.to}`;
  });
}

/** One ledger transaction with its legs (amounts in minor units, as text). */
export interface LedgerTransaction {
  readonly idempotencyKey: string;
  readonly status: string;
  readonly bookingDate: string;
  readonly description: string;
  readonly legs: readonly { readonly accountId: string; readonly currency: string; readonly amountMinor: string }[];
}

/** The ledger transactions of a payment (keys `payment:<id>` and `payment:<id>:<n>`), by key; its fee is {@link feeOfPayment}. */
export async function ledgerOfPayment(server: TestServer, paymentId: string): Promise<LedgerTransaction[]> {
  return ledgerTransactions(server, (eb) =>
    eb.or([eb('idempotency_key', '=', `payment:${paymentId}`), eb('idempotency_key', 'like', `payment:${paymentId}:%`)]),
  );
}

/** The ledger transaction that charged a payment's fee (key `payment-fee:<id>`), if any. */
export async function feeOfPayment(server: TestServer, paymentId: string): Promise<LedgerTransaction | undefined> {
  const [fee] = await ledgerTransactions(server, (eb) => eb('idempotency_key', '=', `payment-fee:${paymentId}`));
  return fee;
}

async function ledgerTransactions(
  server: TestServer,
  which: (eb: ExpressionBuilder<Database, 'ledger_transaction'>) => Expression<SqlBool>,
): Promise<LedgerTransaction[]> {
  const transactions = await server.database.db
    .selectFrom('ledger_transaction')
    .selectAll()
    .where(which)
    .orderBy('idempotency_key')
    .execute();
  const result: LedgerTransaction[] = [];
  for (const transaction of transactions) {
    const legs = await server.database.db
      .selectFrom('ledger_entry')
      .select(['account_id', 'currency', sql<string>`cast(amount_minor as text)`.as('amount')])
      .where('transaction_id', '=', transaction.id)
      .orderBy('id')
      .execute();
    result.push({
      idempotencyKey: transaction.idempotency_key,
      status: transaction.status,
      bookingDate: transaction.booking_date,
      description: transaction.description,
      legs: legs.map((leg) => ({ accountId: leg.account_id, currency: leg.currency, amountMinor: leg.amount })),
    });
  }
  return result;
}
