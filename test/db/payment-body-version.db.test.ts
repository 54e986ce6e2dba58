/**
 * The stored payment body and its version (src/modules/payments/payment-document.ts, migration
 * 0013), on each dialect of DIALECTS:
 * - rows written the way the server wrote them before the migration (raw SQL, no body_version)
 *   read, after migrating, through the repository as the typed document of their service, with
 *   the body as the TPP sent it (both address spellings, bulk items, a standing order's schedule);
 * - the migration gives them version 1, and a row still written without a version after it (an
 *   older server during an upgrade) is version 1 as well;
 * - the repository writes the current version, and reads back what it wrote;
 * - a version-1 KID in the deprecated remittanceInformationStructured is read, and written, as
 *   remittanceInformationStructuredArray (version 2);
 * - a version this server does not know is an error that names it, not a guess.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../src/db/create-db.js';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';
import { CURRENT_PAYMENT_BODY_VERSION, type PaymentBody } from '../../src/modules/payments/payment-document.js';
import type { PaymentService } from '../../src/modules/payments/payment-products.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { Payment } from '../../src/modules/payments/payment.model.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { NO_HEADERS } from '../support/stored-payment.js';

const MIGRATION = '2026_11_29_0013_payment_body_version';
const BEFORE = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(MIGRATION) - 1]!;
const TPP = 'PSDNO-FSA-123456789';
const AT = '2026-11-20T08:00:00.000Z';

const single: PaymentBody<'payments'> = {
  debtorAccount: { bban: '12345678903' },
  instructedAmount: { currency: 'NOK', amount: '1234.56' },
  creditorAccount: { bban: '86011117947' },
  creditorName: 'Kari Nordmann',
  creditorAddress: { street: 'Storgata 1', postalCode: '0155', city: 'Oslo', country: 'NO' },
  remittanceInformationUnstructured: 'Husleie',
};

const sepa: PaymentBody<'payments'> = {
  debtorAccount: { iban: 'NO9312345678903' },
  instructedAmount: { currency: 'EUR', amount: '10.00' },
  creditorAccount: { iban: 'DE89370400440532013000' },
  creditorName: 'Max Mustermann',
  creditorAgent: 'COBADEFFXXX',
  creditorAddress: { streetName: 'Hauptstraße', buildingNumber: '5', postCode: '10115', townName: 'Berlin', country: 'DE' },
};

const bulk: PaymentBody<'bulk-payments'> = {
  debtorAccount: { bban: '12345678903' },
  requestedExecutionDate: '2026-12-01',
  payments: [
    {
      instructedAmount: { currency: 'NOK', amount: '100.00' },
      creditorAccount: { bban: '86011117947' },
      creditorName: 'Strøm AS',
      creditorAddress: { streetName: 'Kraftveien', postalCode: '5003', city: 'Bergen', country: 'NO' },
      remittanceInformationStructured: { reference: '1234567890128', referenceType: 'SCOR' },
    },
    {
      instructedAmount: { currency: 'NOK', amount: '12.50' },
      creditorAccount: { bban: '12345678903' },
      creditorName: 'Utleier',
    },
  ],
};

/** The bulk as read today: the KID of its first payment in remittanceInformationStructuredArray (version 2). */
const bulkAsRead: PaymentBody<'bulk-payments'> = {
  ...bulk,
  payments: [
    (({ remittanceInformationStructured, ...item }) => ({
      ...item,
      remittanceInformationStructuredArray: [remittanceInformationStructured!],
    }))(bulk.payments[0]!),
    bulk.payments[1]!,
  ],
};

const periodic: PaymentBody<'periodic-payments'> = {
  debtorAccount: { bban: '12345678903' },
  instructedAmount: { currency: 'NOK', amount: '500.00' },
  creditorAccount: { bban: '86011117947' },
  creditorName: 'Sparing',
  startDate: '2026-12-05',
  frequency: 'MonthlyVariable',
  monthsOfExecution: ['1', '6'],
  dayOfExecution: '5',
  executionRule: 'preceding',
};

/** A payment row as the server wrote it before body_version existed: every column but that one. */
async function insertAsBefore(db: DbOrTx, id: string, service: PaymentService, body: unknown): Promise<void> {
  await sql`
    insert into payment (
      id, tpp_id, service, product, status, status_reason, funds_available, request_id, psu_id,
      psu_corporate_id, debtor_account_id, currency, amount_minor, requested_execution_date,
      logical_key, body, request_context, created_at, status_changed_at, basket_id, awaiting_funds_since
    ) values (
      ${id}, ${TPP}, ${service}, ${'norwegian-domestic-credit-transfers'}, ${'RCVD'}, ${null}, ${null}, ${`request-${id}`},
      ${'13039319955'}, ${null}, ${'account-12345678903'}, ${'NOK'}, ${123456}, ${null},
      ${null}, ${JSON.stringify(body)}, ${'{}'}, ${AT}, ${AT}, ${null}, ${null}
    )`.execute(db);
}

async function bodyVersionOf(db: DbOrTx, id: string): Promise<number> {
  const row = await db.selectFrom('payment').select('body_version').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.body_version);
}

async function read(db: DbOrTx, id: string): Promise<Payment> {
  const payment = await paymentRepository.findById(db, TPP, id);
  if (!payment) throw new Error(`payment ${id} not found`);
  return payment;
}

describe.each(DIALECTS)('stored payment bodies on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect, { upTo: BEFORE });
    await insertAsBefore(database.db, 'old-single', 'payments', single);
    await insertAsBefore(database.db, 'old-sepa', 'payments', sepa);
    await insertAsBefore(database.db, 'old-bulk', 'bulk-payments', bulk);
    await insertAsBefore(database.db, 'old-periodic', 'periodic-payments', periodic);
    await migrateToLatest(database.db);
  });
  afterAll(() => database?.dispose());

  it('migrates the rows written before the version column to version 1', async () => {
    for (const id of ['old-single', 'old-sepa', 'old-bulk', 'old-periodic']) {
      expect(await bodyVersionOf(database.db, id)).toBe(1);
    }
  });

  it('reads an old single payment as its typed document, address names as sent', async () => {
    const payment = await read(database.db, 'old-single');
    if (payment.service !== 'payments') throw new Error(`read as ${payment.service}`);
    expect(payment.body).toEqual(single);
    // Typed: the address is read without a cast, in the documentation's names the TPP used.
    expect(payment.body.creditorAddress?.city).toBe('Oslo');
    expect(payment.body.creditorAddress?.townName).toBeUndefined();
    const other = await read(database.db, 'old-sepa');
    expect(other.body).toEqual(sepa);
    expect(other.service === 'payments' && other.body.creditorAddress?.townName).toBe('Berlin');
  });

  it('reads an old bulk payment with its payments, in order', async () => {
    const payment = await read(database.db, 'old-bulk');
    if (payment.service !== 'bulk-payments') throw new Error(`read as ${payment.service}`);
    expect(payment.body).toEqual(bulkAsRead);
    expect(payment.body.payments.map((item) => item.creditorName)).toEqual(['Strøm AS', 'Utleier']);
    // A mix of spellings in one address is kept as it came.
    expect(payment.body.payments[0]!.creditorAddress).toEqual({
      streetName: 'Kraftveien',
      postalCode: '5003',
      city: 'Bergen',
      country: 'NO',
    });
  });

  it('reads an old standing order with its schedule', async () => {
    const payment = await read(database.db, 'old-periodic');
    if (payment.service !== 'periodic-payments') throw new Error(`read as ${payment.service}`);
    expect(payment.body).toEqual(periodic);
    expect(payment.body.monthsOfExecution).toEqual(['1', '6']);
  });

  it('reads a row an older server writes after the migration, without a version, as version 1', async () => {
    await insertAsBefore(database.db, 'late-single', 'payments', single);
    expect(await bodyVersionOf(database.db, 'late-single')).toBe(1);
    expect((await read(database.db, 'late-single')).body).toEqual(single);
  });

  it('writes the current version, and reads back what it wrote', async () => {
    await paymentRepository.insert(database.db, {
      id: 'new-bulk',
      tppId: TPP,
      service: 'bulk-payments',
      product: 'norwegian-domestic-credit-transfers',
      status: 'RCVD',
      requestId: 'request-new-bulk',
      psuId: undefined,
      psuCorporateId: undefined,
      debtorAccountId: 'account-12345678903',
      currency: 'NOK',
      amountMinor: 11250n,
      requestedExecutionDate: '2026-12-01',
      logicalKey: undefined,
      body: bulk,
      requestContext: NO_HEADERS,
      createdAt: AT,
    });
    expect(await bodyVersionOf(database.db, 'new-bulk')).toBe(CURRENT_PAYMENT_BODY_VERSION);
    const payment = await read(database.db, 'new-bulk');
    expect(payment.service).toBe('bulk-payments');
    expect(payment.body).toEqual(bulkAsRead);
    expect(
      JSON.parse((await database.db.selectFrom('payment').select('body').where('id', '=', 'new-bulk').executeTakeFirstOrThrow()).body),
    ).toEqual(bulkAsRead);
  });

  it('refuses to read a version it does not know, naming the payment and the version', async () => {
    await insertAsBefore(database.db, 'future', 'payments', single);
    await database.db.updateTable('payment').set({ body_version: 99 }).where('id', '=', 'future').execute();
    await expect(read(database.db, 'future')).rejects.toThrow(
      'payment future has a stored body that cannot be read: unknown body version 99',
    );
  });
});
