/**
 * Deleting sandbox data never touches anyone else's money (the sandbox's DELETE endpoints:
 * `/v1/sandbox/customers/{id}` and `/v1/sandbox/agreements/{id}/engagements/{id}`):
 * - a customer whose payments credited or debited another customer's account (an instant payment,
 *   one executed by a batch run, one in another currency through the clearing account) is deleted,
 *   and the other customer's balances and ledger history stay exactly as they were: the deleted
 *   accounts' legs of those postings move to the TPP's clearing account; the customer's own mock
 *   data (transactions, card transactions, balance updates) goes with all its legs;
 * - a mock transaction naming another customer's account as its counterparty never moved that
 *   account's money, before or after the deletion;
 * - removing an engagement, or deleting a PSU with only final payments, changes no posting;
 * - 409 REFERENCE_STATUS_INVALID, naming the customer and saying why, while the customer is the
 *   debtor or PSU of a live payment (not ACSC, ACCC, PART, RJCT, CANC) or the PSU of an open
 *   signing basket; a refusal changes nothing; once the payments are cancelled or executed, and the
 *   baskets deleted, the deletion goes through;
 * - a live payment TO the customer does not hold the deletion: executed afterwards, it leaves the
 *   bank through the clearing account;
 * - after every deletion the ledger holds: each posting's legs sum to zero per currency, every
 *   ledger_balance row equals the sum of its account's entries, and no leg is left on a deleted
 *   account.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sandboxClearingAccount } from '../../src/modules/sandbox/sandbox-core-banking.js';
import type { TppClient } from '../../src/client/tpp-client.js';
import { createBasket, deleteBasket, explicitPayment } from '../support/baskets.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  balanceOf,
  freshTpp,
  fundedPsu,
  inBankAccount,
  feeOfPayment,
  ledgerOfPayment,
  NO_COUNTS,
  nok,
  runBatch,
  statusOf,
  useTestServer,
} from '../support/execution.js';
import { INDCTS, NDCT, ndctBody, SCT, sctBody } from '../support/payments.js';
import { createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { dualControlCorporation, OK_URI } from '../support/sca.js';
import type { TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI };

/** One entry of an account's ledger history, as a statement would show it. */
interface HistoryLine {
  readonly key: string;
  readonly status: string;
  readonly bookingDate: string;
  readonly valueDate: string;
  readonly description: string;
  readonly currency: string;
  readonly amountMinor: string;
}

/** Every ledger entry on the account with its posting, in key order. */
async function historyOf(server: TestServer, accountId: string): Promise<HistoryLine[]> {
  const rows = await server.database.db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select([
      't.idempotency_key',
      't.status',
      't.booking_date',
      't.value_date',
      't.description',
      'e.currency',
      sql<string>`cast(e.amount_minor as text)`.as('amount'),
    ])
    .where('e.account_id', '=', accountId)
    .execute();
  const lines = rows.map((row) => ({
    key: row.idempotency_key,
    status: row.status,
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    description: row.description,
    currency: row.currency,
    amountMinor: row.amount,
  }));
  // Sorted here, not by the database's collation, so both dialects give one order.
  return lines.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.currency < y.currency ? -1 : x.currency > y.currency ? 1 : 0));
}

/** The whole ledger as text: every posting with its legs, and every balance row. */
async function ledgerSnapshot(server: TestServer): Promise<{ postings: string[]; balances: string[] }> {
  const db = server.database.db;
  const entries = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_transaction as t', 't.id', 'e.transaction_id')
    .select(['t.idempotency_key', 't.status', 'e.account_id', 'e.currency', sql<string>`cast(e.amount_minor as text)`.as('amount')])
    .execute();
  const balances = await db
    .selectFrom('ledger_balance')
    .select([
      'account_id',
      'currency',
      sql<string>`cast(booked_minor as text)`.as('booked'),
      sql<string>`cast(expected_minor as text)`.as('expected'),
    ])
    .execute();
  return {
    postings: entries.map((row) => `${row.idempotency_key} ${row.status} ${row.account_id} ${row.currency} ${row.amount}`).sort(),
    balances: balances.map((row) => `${row.account_id} ${row.currency} ${row.booked} ${row.expected}`).sort(),
  };
}

/**
 * The ledger's invariants over the whole database: every posting's legs sum to zero per currency
 * (and it has at least two), every ledger_balance row equals the sums of its account's entries
 * (a missing row meaning zero), and no leg or balance row is left on `gone` accounts.
 */
async function expectLedgerWhole(server: TestServer, gone: readonly string[] = []): Promise<void> {
  const db = server.database.db;
  const unbalanced = await db
    .selectFrom('ledger_entry')
    .select(['transaction_id', 'currency', sql<string>`cast(sum(amount_minor) as text)`.as('sum')])
    .groupBy(['transaction_id', 'currency'])
    .having(sql`sum(amount_minor)`, '<>', 0)
    .execute();
  expect(unbalanced, 'postings whose legs do not sum to zero').toEqual([]);
  const thin = await db
    .selectFrom('ledger_transaction as t')
    .leftJoin('ledger_entry as e', 'e.transaction_id', 't.id')
    .select(['t.idempotency_key', sql<string>`cast(count(e.id) as text)`.as('legs')])
    .groupBy(['t.id', 't.idempotency_key'])
    .having(sql`count(e.id)`, '<', 2)
    .execute();
  expect(thin, 'postings with fewer than two legs').toEqual([]);
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
  const rows = await db
    .selectFrom('ledger_balance')
    .select([
      'account_id',
      'currency',
      sql<string>`cast(booked_minor as text)`.as('booked'),
      sql<string>`cast(expected_minor as text)`.as('expected'),
    ])
    .execute();
  const fromEntries = new Map(sums.map((row) => [`${row.account_id} ${row.currency}`, `${BigInt(row.booked)} ${BigInt(row.expected)}`]));
  const stored = new Map(rows.map((row) => [`${row.account_id} ${row.currency}`, `${BigInt(row.booked)} ${BigInt(row.expected)}`]));
  for (const [key, value] of stored) expect(value, `ledger_balance of ${key}`).toBe(fromEntries.get(key) ?? '0 0');
  for (const [key, value] of fromEntries) expect(stored.get(key) ?? '0 0', `ledger_balance of ${key}`).toBe(value);
  if (gone.length > 0) {
    expect(await db.selectFrom('ledger_entry').select('account_id').where('account_id', 'in', gone).execute()).toEqual([]);
    expect(await db.selectFrom('ledger_balance').select('account_id').where('account_id', 'in', gone).execute()).toEqual([]);
  }
}

/** What a TPP sees of an account, and what the ledger holds for it. */
async function accountState(server: TestServer, client: TppClient, accountId: string) {
  return { balances: await balanceOf(client, accountId), history: await historyOf(server, accountId) };
}

/** A deletion refused with 409 REFERENCE_STATUS_INVALID on customerId; returns the message. */
function expectRefused(response: { status: number; body: any; text: string }): string {
  expect(response.status, response.text).toBe(409);
  expect(response.body).toMatchObject({
    status: 409,
    code: 'REFERENCE_STATUS_INVALID',
    tppMessages: [{ category: 'ERROR', code: 'REFERENCE_STATUS_INVALID', path: 'customerId' }],
  });
  expectBerlinGroupSchema('Error409_NG_AIS', response.body);
  return response.body.tppMessages[0].text as string;
}

/** Everything a refused deletion must leave as it was. */
async function sandboxState(server: TestServer, client: TppClient) {
  return {
    customers: (await client.get<any>('/v1/sandbox/customers')).body,
    accounts: (await client.get<any>('/v1/sandbox/accounts')).body,
    cardAccounts: (await client.get<any>('/v1/sandbox/card-accounts')).body,
    agreements: (await client.get<any>('/v1/sandbox/agreements')).body,
    ledger: await ledgerSnapshot(server),
    deletions: (await server.database.db.selectFrom('audit_event').select('id').where('action', '=', 'sandbox.customer.deleted').execute())
      .length,
  };
}

describe.each(DIALECTS)('deleting sandbox data never touches anyone else’s money (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  const deleteCustomer = (client: TppClient, customerId: string) => client.delete<any>(`/v1/sandbox/customers/${customerId}`);

  /** The customer id behind a funded PSU (fundedPsu returns its number). */
  async function customerIdOf(client: TppClient, psu: { customerNumber: string }): Promise<string> {
    const customers = (await client.get<any>('/v1/sandbox/customers')).body.customers as { customerId: string; customerNumber: string }[];
    return customers.find((customer) => customer.customerNumber === psu.customerNumber)!.customerId;
  }

  it('has exactly these DELETE endpoints under /v1/sandbox, each covered below', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const deletions = Object.entries(document.paths)
      .filter(([path, operations]) => path.startsWith('/v1/sandbox/') && 'delete' in operations)
      .map(([path]) => path)
      .sort();
    expect(deletions).toEqual([
      '/v1/sandbox/agreements/{mockAgreementId}/engagements/{engagementId}',
      '/v1/sandbox/customers/{customerId}',
    ]);
  });

  describe('deleting a customer', () => {
    it('leaves the balance and history of a customer it paid and was paid by exactly as they were', async () => {
      const { orgId, client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const b = await fundedPsu(client, '500.00');
      // A pays B at once (instant), B pays A in a batch run, and A has mock data of its own.
      const toB = await approvedPayment(
        client,
        'payments',
        INDCTS,
        ndctBody(a.account, { creditorAccount: { bban: b.account.bban }, ...nok('100.33') }),
        { ...a.headers, ...URIS },
      );
      expect((await statusOf(client, toB.path)).transactionStatus).toBe('ACSC');
      const toA = await approvedPayment(
        client,
        'payments',
        NDCT,
        ndctBody(b.account, { creditorAccount: { bban: a.account.bban }, ...nok('20.00') }),
        b.headers,
      );
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect((await statusOf(client, toA.path)).transactionStatus).toBe('ACSC');
      const mock = await client.post<any>(`/v1/sandbox/accounts/${a.accountId}/transactions`, {
        bookingDate: osloDay(-1),
        valueDate: osloDay(-1),
        transactionAmount: { currency: 'NOK', amount: '-50.00' },
        creditorName: 'Ola Nordmann',
        creditorAccount: { iban: b.account.iban },
      });
      expect(mock.status, mock.text).toBe(201);
      const filled = await client.post<any>(`/v1/sandbox/accounts/${a.accountId}/transactions/fill`, {
        count: 4,
        dateFrom: osloDay(-20),
        dateTo: osloDay(-1),
      });
      expect(filled.status, filled.text).toBe(201);
      const card = await client.post<any>('/v1/sandbox/card-accounts', { customerNumber: a.customerNumber });
      expect(card.status, card.text).toBe(201);
      for (const body of [
        { transactionDate: osloDay(-2), bookingDate: osloDay(-1), transactionAmount: { currency: 'NOK', amount: '-99.90' } },
        { transactionDate: osloDay(0), transactionAmount: { currency: 'NOK', amount: '-12.00' } },
      ]) {
        const purchase = await client.post<any>(`/v1/sandbox/card-accounts/${card.body.resourceId}/transactions`, body);
        expect(purchase.status, purchase.text).toBe(201);
      }
      // The mock transaction naming B moved none of B's money.
      expect(await balanceOf(client, b.accountId)).toEqual({ closingBooked: '580.33', expected: '580.33', interimAvailable: '580.33' });
      const before = await accountState(server, client, b.accountId);
      const lines = before.history.map((line) => `${line.key} ${line.amountMinor}`);
      expect(lines).toHaveLength(3);
      expect(lines).toEqual(expect.arrayContaining([`payment:${toA.paymentId} -2000`, `payment:${toB.paymentId} 10033`]));
      expect(lines.filter((line) => /^sandbox:balance:\S+ 50000$/.test(line))).toHaveLength(1);
      const bTransactions = (await client.get<any>(`/v1/sandbox/accounts/${b.accountId}/transactions`)).body;

      const aId = await customerIdOf(client, a);
      const response = await deleteCustomer(client, aId);
      expect(response.status, response.text).toBe(204);
      const audit = await server.database.db
        .selectFrom('audit_event')
        .select('details')
        .where('resource_id', '=', aId)
        .where('action', '=', 'sandbox.customer.deleted')
        .executeTakeFirstOrThrow();
      // Its opening balance, the fee of its instant payment (A's and the fee account's legs only),
      // the mock transaction, the four filled ones and the two card purchases went; the two
      // payments stayed.
      expect(JSON.parse(audit.details)).toMatchObject({ accounts: 1, cardAccounts: 1, postingsRemoved: 9, postingsMovedToClearing: 2 });
      expect(await feeOfPayment(server, toB.paymentId)).toBeUndefined();

      expect(await accountState(server, client, b.accountId)).toEqual(before);
      expect((await client.get<any>(`/v1/sandbox/accounts/${b.accountId}/transactions`)).body).toEqual(bTransactions);
      expect((await client.get<any>(`/v1/sandbox/accounts/${a.accountId}`)).status).toBe(404);
      expect((await client.get<any>(`/v1/sandbox/card-accounts/${card.body.resourceId}`)).status).toBe(404);
      // The payments stay on B's side; A's legs are now the clearing account's.
      const clearing = sandboxClearingAccount({ tppId: orgId });
      for (const [payment, bSide] of [
        [toB, '10033'],
        [toA, '-2000'],
      ] as const) {
        const [posting] = await ledgerOfPayment(server, payment.paymentId);
        expect(posting!.legs.map((leg) => `${leg.accountId} ${leg.currency} ${leg.amountMinor}`).sort(), payment.paymentId).toEqual(
          [`${b.accountId} NOK ${bSide}`, `${clearing} NOK ${String(-BigInt(bSide))}`].sort(),
        );
      }
      await expectLedgerWhole(server, [a.accountId, card.body.resourceId]);
      // A's own mock data went with all its legs: no posting of it is left anywhere.
      const left = await server.database.db
        .selectFrom('ledger_transaction')
        .select('idempotency_key')
        .where((eb) =>
          eb.or([
            eb('idempotency_key', 'like', 'sandbox:transaction:%'),
            eb('idempotency_key', 'like', 'sandbox:card-transaction:%'),
            eb('idempotency_key', 'like', `sandbox:opening:${card.body.resourceId}`),
          ]),
        )
        .where('id', 'not in', (eb) => eb.selectFrom('ledger_entry').select('transaction_id').where('account_id', '<>', clearing))
        .execute();
      expect(left).toEqual([]);
      // B goes on as before: it can still pay, and is then deleted cleanly too.
      await approvedPayment(client, 'payments', INDCTS, ndctBody(b.account, nok('80.33')), { ...b.headers, ...URIS });
      // 580.33 less 80.33 and its 5.00 fee.
      expect(await balanceOf(client, b.accountId)).toMatchObject({ closingBooked: '495.00' });
      expect((await deleteCustomer(client, await customerIdOf(client, b))).status).toBe(204);
      await expectLedgerWhole(server, [a.accountId, b.accountId, card.body.resourceId]);
      const postings = await server.database.db
        .selectFrom('ledger_transaction')
        .select('idempotency_key')
        .where('idempotency_key', 'in', [`payment:${toA.paymentId}`, `payment:${toB.paymentId}`])
        .execute();
      // With both sides gone, nothing of the payments between them is left.
      expect(postings).toEqual([]);
    });

    it('a payment in another currency through the clearing account: the EUR creditor keeps its credit', async () => {
      const { orgId, client } = await freshTpp(server);
      const a = await fundedPsu(client, '10000.00');
      const euro = await inBankAccount(client, 'EUR');
      const payment = await approvedPayment(
        client,
        'payments',
        SCT,
        sctBody(a.account, { creditorAccount: { iban: euro.iban } }),
        a.headers,
      );
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      const before = await accountState(server, client, euro.accountId);
      expect(before.balances).toMatchObject({ closingBooked: '100.33' });

      expect((await deleteCustomer(client, await customerIdOf(client, a))).status).toBe(204);

      expect(await accountState(server, client, euro.accountId)).toEqual(before);
      const clearing = sandboxClearingAccount({ tppId: orgId });
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      // The NOK legs (A's debit and the clearing account's) cancel out; the EUR side stays whole.
      expect(posting!.legs.map((leg) => `${leg.accountId} ${leg.currency} ${leg.amountMinor}`).sort()).toEqual(
        [`${clearing} EUR -10033`, `${euro.accountId} EUR 10033`].sort(),
      );
      await expectLedgerWhole(server, [a.accountId]);
    });

    it('a corporation with an agreement: deleting its PSU (final payments only) changes no posting; deleting the corporation keeps its creditor whole', async () => {
      const { client } = await freshTpp(server);
      const corp = await dualControlCorporation(client, '100000', 1);
      const psu = corp.approvers[0]!;
      const corpAccount = (await client.get<any>('/v1/sandbox/accounts')).body.accounts.find(
        (account: { bban: string }) => account.bban === corp.account.bban,
      ) as { resourceId: string };
      const put = await client.put<any>(`/v1/sandbox/accounts/${corpAccount.resourceId}/balance`, {
        balanceAmount: { currency: 'NOK', amount: '1000.00' },
      });
      expect(put.status, put.text).toBe(200);
      const creditor = await fundedPsu(client, '10.00');
      const payment = await approvedPayment(
        client,
        'payments',
        NDCT,
        ndctBody(corp.account, { creditorAccount: { bban: creditor.account.bban }, ...nok('300.00') }),
        psu.headers,
      );
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('ACSC');
      const before = await accountState(server, client, creditor.accountId);
      expect(before.balances).toMatchObject({ closingBooked: '310.00' });

      const ledger = await ledgerSnapshot(server);
      expect((await deleteCustomer(client, await customerIdOf(client, psu))).status).toBe(204);
      expect(await ledgerSnapshot(server)).toEqual(ledger);
      expect(await balanceOf(client, corpAccount.resourceId)).toMatchObject({ closingBooked: '700.00' });

      const owner = (await client.get<any>('/v1/sandbox/agreements')).body.agreements[0].owner as string;
      expect((await deleteCustomer(client, await customerIdOf(client, { customerNumber: owner }))).status).toBe(204);
      expect(await accountState(server, client, creditor.accountId)).toEqual(before);
      expect((await client.get<any>('/v1/sandbox/agreements')).body.agreements).toEqual([]);
      await expectLedgerWhole(server, [corpAccount.resourceId]);
    });

    it("a payment between the customer's own two accounts goes whole: no leg of it is left, not even the clearing account's", async () => {
      const { orgId, client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const savings = await createAccount(client, a.customerNumber);
      const payment = await approvedPayment(
        client,
        'payments',
        INDCTS,
        ndctBody(a.account, { creditorAccount: { bban: savings.bban }, ...nok('400.00') }),
        { ...a.headers, ...URIS },
      );
      expect(await balanceOf(client, savings.resourceId)).toMatchObject({ closingBooked: '400.00' });
      const systemAccounts = async () =>
        (
          await server.database.db
            .selectFrom('ledger_balance')
            .select(['account_id', 'currency', sql<string>`cast(booked_minor as text)`.as('booked')])
            .where('account_id', 'like', `sandbox-system:${orgId}:%`)
            .execute()
        )
          .map((row) => `${row.account_id} ${row.currency} ${row.booked}`)
          .sort();
      // Only the opening balance (the adjustment account) and the instant payment's fee (the fee
      // account) touched a system account, never the payment.
      expect(await systemAccounts()).toEqual([`sandbox-system:${orgId}:adjustment NOK -100000`, `sandbox-system:${orgId}:fees NOK 500`]);

      expect((await deleteCustomer(client, await customerIdOf(client, a))).status).toBe(204);

      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      // The opening balance and the fee went with their system legs; the clearing account has no row at all.
      expect(await systemAccounts()).toEqual([`sandbox-system:${orgId}:adjustment NOK 0`, `sandbox-system:${orgId}:fees NOK 0`]);
      await expectLedgerWhole(server, [a.accountId, savings.resourceId]);
    });

    it('a live payment TO the customer does not hold the deletion: executed afterwards, it leaves the bank', async () => {
      const { orgId, client } = await freshTpp(server);
      const a = await fundedPsu(client, '0.00');
      const b = await fundedPsu(client, '1000.00');
      const payment = await approvedPayment(
        client,
        'payments',
        NDCT,
        ndctBody(b.account, { creditorAccount: { bban: a.account.bban }, ...nok('100.00') }),
        b.headers,
      );
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('ACTC');
      expect((await deleteCustomer(client, await customerIdOf(client, a))).status).toBe(204);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await balanceOf(client, b.accountId)).toMatchObject({ closingBooked: '900.00' });
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      expect(posting!.legs).toEqual([
        { accountId: b.accountId, currency: 'NOK', amountMinor: '-10000' },
        { accountId: sandboxClearingAccount({ tppId: orgId }), currency: 'NOK', amountMinor: '10000' },
      ]);
      await expectLedgerWhole(server, [a.accountId]);
    });
  });

  describe('removing an engagement', () => {
    it('changes no posting and no balance', async () => {
      const { client } = await freshTpp(server);
      const corp = await dualControlCorporation(client, '100000', 2);
      const corpAccount = (await client.get<any>('/v1/sandbox/accounts')).body.accounts.find(
        (account: { bban: string }) => account.bban === corp.account.bban,
      ) as { resourceId: string };
      await client.put<any>(`/v1/sandbox/accounts/${corpAccount.resourceId}/balance`, {
        balanceAmount: { currency: 'NOK', amount: '1000.00' },
      });
      const creditor = await inBankAccount(client);
      await approvedPayment(
        client,
        'payments',
        NDCT,
        ndctBody(corp.account, { creditorAccount: { bban: creditor.bban }, ...nok('1.00') }),
        corp.approvers[0]!.headers,
      );
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      const agreement = (await client.get<any>('/v1/sandbox/agreements')).body.agreements[0];
      const engagement = agreement.engagements.find((item: { customer: string }) => item.customer === corp.approvers[0]!.customerNumber);
      const ledger = await ledgerSnapshot(server);
      const balances = [await balanceOf(client, corpAccount.resourceId), await balanceOf(client, creditor.accountId)];

      const response = await client.delete<any>(`/v1/sandbox/agreements/${agreement.agreementId}/engagements/${engagement.engagementId}`);
      expect(response.status, response.text).toBe(204);

      expect(await ledgerSnapshot(server)).toEqual(ledger);
      expect([await balanceOf(client, corpAccount.resourceId), await balanceOf(client, creditor.accountId)]).toEqual(balances);
      await expectLedgerWhole(server);
    });
  });

  describe('refusals (409): nothing changes', () => {
    it('a received (RCVD) payment from the account: refused, saying which and what to do; once cancelled, deleted', async () => {
      const { client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const bystander = await fundedPsu(client, '5.00');
      const payment = await explicitPayment(
        client,
        NDCT,
        ndctBody(a.account, { creditorAccount: { bban: bystander.account.bban } }),
        a.headers,
      );
      const customerId = await customerIdOf(client, a);
      const before = await sandboxState(server, client);

      const text = expectRefused(await deleteCustomer(client, customerId));
      expect(text).toContain(a.customerNumber);
      expect(text).toContain(`${payment.paymentId} (RCVD)`);
      expect(text).toMatch(/cancel or execute them first/);
      expect(await sandboxState(server, client)).toEqual(before);

      expect((await client.delete<any>(payment.path)).status).toBe(204);
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('CANC');
      expect((await deleteCustomer(client, customerId)).status).toBe(204);
      expect((await client.get<any>(`/v1/sandbox/customers/${customerId}`)).status).toBe(404);
      await expectLedgerWhole(server, [a.accountId]);
    });

    it('an approved payment waiting for its batch run (ACTC): refused; once executed (ACSC), deleted, the creditor keeping its money', async () => {
      const { client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const b = await fundedPsu(client, '0.00');
      const payment = await approvedPayment(
        client,
        'payments',
        NDCT,
        ndctBody(a.account, { creditorAccount: { bban: b.account.bban }, ...nok('250.00') }),
        a.headers,
      );
      const customerId = await customerIdOf(client, a);
      const before = await sandboxState(server, client);

      expect(expectRefused(await deleteCustomer(client, customerId))).toContain(`${payment.paymentId} (ACTC)`);
      expect(await sandboxState(server, client)).toEqual(before);

      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      const credited = await accountState(server, client, b.accountId);
      expect(credited.balances).toMatchObject({ closingBooked: '250.00' });
      expect((await deleteCustomer(client, customerId)).status).toBe(204);
      expect(await accountState(server, client, b.accountId)).toEqual(credited);
      await expectLedgerWhole(server, [a.accountId]);
    });

    it('the PSU of a live payment from a corporation’s account: neither the PSU nor the corporation is deleted', async () => {
      const { client } = await freshTpp(server);
      const corp = await dualControlCorporation(client, '0', 2);
      const payment = await explicitPayment(client, NDCT, ndctBody(corp.account), corp.approvers[0]!.headers);
      const owner = (await client.get<any>('/v1/sandbox/agreements')).body.agreements[0].owner as string;
      const before = await sandboxState(server, client);

      const forPsu = expectRefused(await deleteCustomer(client, await customerIdOf(client, corp.approvers[0]!)));
      expect(forPsu).toContain(`${payment.paymentId} (RCVD)`);
      const forOwner = expectRefused(await deleteCustomer(client, await customerIdOf(client, { customerNumber: owner })));
      expect(forOwner).toContain(`${payment.paymentId} (RCVD)`);
      // The other approver has nothing live: deleted.
      expect(await sandboxState(server, client)).toEqual(before);
      expect((await deleteCustomer(client, await customerIdOf(client, corp.approvers[1]!))).status).toBe(204);
    });

    it('an open signing basket: refused naming it; deleted basket and cancelled payments let the deletion through', async () => {
      const { client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const first = await explicitPayment(client, NDCT, ndctBody(a.account, nok('1.00')), a.headers);
      const second = await explicitPayment(client, NDCT, ndctBody(a.account, nok('2.00')), a.headers);
      const basket = await createBasket(client, [first.paymentId, second.paymentId], { ...a.headers, ...URIS });
      const customerId = await customerIdOf(client, a);
      const before = await sandboxState(server, client);

      const text = expectRefused(await deleteCustomer(client, customerId));
      expect(text).toContain(basket.basketId);
      expect(text).toContain(`${first.paymentId} (RCVD)`);
      expect(await sandboxState(server, client)).toEqual(before);

      expect((await deleteBasket(client, basket.path)).status).toBe(204);
      const afterBasket = expectRefused(await deleteCustomer(client, customerId));
      expect(afterBasket).not.toContain(basket.basketId);
      expect(afterBasket).toContain(`${second.paymentId} (RCVD)`);

      for (const payment of [first, second]) expect((await client.delete<any>(payment.path)).status).toBe(204);
      expect((await deleteCustomer(client, customerId)).status).toBe(204);
      await expectLedgerWhole(server, [a.accountId]);
    });

    it('names two payments and counts the rest, so the whole reason fits in the message', async () => {
      const { client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      const payments = [];
      for (const amount of ['1.00', '2.00', '3.00', '4.00']) {
        payments.push(await explicitPayment(client, NDCT, ndctBody(a.account, nok(amount)), a.headers));
      }
      const basket = await createBasket(client, [payments[0]!.paymentId], { ...a.headers, ...URIS });
      for (const language of ['en', 'nb']) {
        const response = await client.delete<any>(`/v1/sandbox/customers/${await customerIdOf(client, a)}`, {
          headers: { 'accept-language': language },
        });
        const text = expectRefused(response);
        expect(response.body.message).toBe(text);
        expect(text).toContain(`${payments[0]!.paymentId} (RCVD), ${payments[1]!.paymentId} (RCVD) (+2)`);
        expect(text).not.toContain(payments[2]!.paymentId);
        expect(text).toContain(basket.basketId);
        // Not cut off at the 500-character cap: the last words are there.
        expect(text.length).toBeLessThan(500);
        expect(text).toMatch(language === 'en' ? /delete them first$/ : /slett dem først$/);
      }
    });

    it('answers in Norwegian when asked', async () => {
      const { client } = await freshTpp(server);
      const a = await fundedPsu(client, '1000.00');
      await explicitPayment(client, NDCT, ndctBody(a.account), a.headers);
      const response = await client.delete<any>(`/v1/sandbox/customers/${await customerIdOf(client, a)}`, {
        headers: { 'accept-language': 'nb' },
      });
      expect(expectRefused(response)).toMatch(/kanseller eller utfør dem først/);
    });

    it('a customer with only an account and no payments is still deleted (nothing to refuse)', async () => {
      const { client } = await freshTpp(server);
      const customer = await createCustomer(client);
      const account = await createAccount(client, customer.customerNumber);
      expect((await deleteCustomer(client, customer.customerId)).status).toBe(204);
      await expectLedgerWhole(server, [account.resourceId]);
    });
  });
});
