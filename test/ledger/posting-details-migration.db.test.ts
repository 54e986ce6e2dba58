/**
 * Migration 0025 (posting details), on each dialect of DIALECTS: the postings of sandbox mock
 * transactions recorded before it take their counterparty and remittance from the mock
 * transaction, so their statement lines read as before; other postings get no details.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const MIGRATION = '2026_12_05_0025_posting_details';
const BEFORE = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(MIGRATION) - 1]!;
const AT = '2026-11-20T08:00:00.000Z';
const ACCOUNT = 'acct-1';

describe.each(DIALECTS)('migration 0025, posting details (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect, { upTo: BEFORE });
  });
  afterAll(() => database?.dispose());

  it('fills the details of postings of mock transactions from them, and leaves other postings without', async () => {
    const db = database.db;
    // Written as the server wrote them before the migration: the account's owner and the account,
    // a mock transaction, its posting, and a payment's posting, each with two legs.
    await sql`insert into sandbox_customer (id, tpp_id, customer_number, customer_type, name, created_at)
              values ('cust-1', 'PSDNO-FSA-123456789', '01010112345', 'PRIVATE', 'Ola Nordmann', ${AT})`.execute(db);
    await sql`insert into sandbox_account (id, tpp_id, customer_id, bban, iban, currency, name, product, cash_account_type, created_at)
              values (${ACCOUNT}, 'PSDNO-FSA-123456789', 'cust-1', '12345678903', 'NO9312345678903', 'NOK', 'Brukskonto', 'Brukskonto',
                'CACC', ${AT})`.execute(db);
    await sql`insert into sandbox_transaction (id, tpp_id, account_id, status, booking_date, value_date, amount_minor, currency,
                counterparty_name, counterparty_iban, counterparty_bban, remittance_unstructured, remittance_reference, created_at)
              values ('mock-1', 'PSDNO-FSA-123456789', ${ACCOUNT}, 'booked', '2026-11-19', '2026-11-19', -4990, 'NOK',
                'Fjordkraft AS', null, '15030154426', null, '1234567890128', ${AT})`.execute(db);
    for (const key of ['sandbox:transaction:mock-1', 'payment:6f1c2a34-0000-4000-8000-000000000001']) {
      const { rows } = await sql<{ id: number | string }>`
        insert into ledger_transaction (idempotency_key, status, booking_date, value_date, description, created_at)
        values (${key}, 'booked', '2026-11-19', '2026-11-19', 'before 0025', ${AT}) returning id`.execute(db);
      const id = Number(rows[0]!.id);
      await sql`insert into ledger_entry (transaction_id, account_id, currency, amount_minor, booking_date)
                values (${id}, ${ACCOUNT}, 'NOK', -4990, '2026-11-19'), (${id}, 'clearing', 'NOK', 4990, '2026-11-19')`.execute(db);
    }
    await migrateToLatest(db);
    const lines = await ledgerRepository.statement(db, ACCOUNT, 'NOK', {});
    expect(lines.map((line) => [line.idempotencyKey, line.details])).toEqual([
      ['payment:6f1c2a34-0000-4000-8000-000000000001', {}],
      [
        'sandbox:transaction:mock-1',
        { counterpartyName: 'Fjordkraft AS', counterpartyAccount: { bban: '15030154426' }, remittanceReference: '1234567890128' },
      ],
    ]);
  });
});
