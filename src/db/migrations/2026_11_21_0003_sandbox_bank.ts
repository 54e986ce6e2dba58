import type { Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * The sandbox bank's mock data: customers, their accounts and card accounts, corporate
 * agreements with their engagements, and the descriptive side of mock transactions (the money
 * itself is on the ledger). Every row carries the TPP it belongs to, so TPPs sharing one sandbox
 * never see or wipe each other's data. Money columns are integer minor units.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);

  // One row per TPP with sandbox data: every mock-data write locks it first, so writes of one
  // TPP's sandbox (an initialize and a create, two initializes) never interleave.
  await db.schema
    .createTable('sandbox_tenant')
    .addColumn('tpp_id', 'text', (col) => col.primaryKey())
    .addColumn('changed_at', timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sandbox_customer')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('customer_number', 'text', (col) => col.notNull())
    .addColumn('customer_type', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addUniqueConstraint('sandbox_customer_number_uq', ['tpp_id', 'customer_number'])
    .execute();

  await db.schema
    .createTable('sandbox_account')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('customer_id', 'text', (col) => col.notNull().references('sandbox_customer.id'))
    .addColumn('bban', 'text', (col) => col.notNull())
    .addColumn('iban', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('product', 'text', (col) => col.notNull())
    .addColumn('cash_account_type', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addUniqueConstraint('sandbox_account_bban_uq', ['tpp_id', 'bban'])
    .addUniqueConstraint('sandbox_account_iban_uq', ['tpp_id', 'iban'])
    .execute();
  await db.schema.createIndex('sandbox_account_customer_idx').on('sandbox_account').column('customer_id').execute();

  await db.schema
    .createTable('sandbox_agreement')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    // One agreement per corporation: its organisation number is what PSU-Corporate-ID carries.
    .addColumn('customer_id', 'text', (col) => col.notNull().unique().references('sandbox_customer.id'))
    .addColumn('organisation_number', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addUniqueConstraint('sandbox_agreement_organisation_uq', ['tpp_id', 'organisation_number'])
    .execute();

  await db.schema
    .createTable('sandbox_engagement')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('agreement_id', 'text', (col) => col.notNull().references('sandbox_agreement.id'))
    .addColumn('customer_id', 'text', (col) => col.notNull().references('sandbox_customer.id'))
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_account.id'))
    .addColumn('roles', 'text', (col) => col.notNull())
    .addColumn('register_limit_minor', 'bigint')
    .addColumn('approval_limit_minor', 'bigint')
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addUniqueConstraint('sandbox_engagement_uq', ['agreement_id', 'customer_id', 'account_id'])
    .execute();
  await db.schema.createIndex('sandbox_engagement_customer_idx').on('sandbox_engagement').column('customer_id').execute();
  await db.schema.createIndex('sandbox_engagement_account_idx').on('sandbox_engagement').column('account_id').execute();

  await db.schema
    .createTable('sandbox_transaction')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('account_id', 'text', (col) => col.notNull().references('sandbox_account.id'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('booking_date', 'text', (col) => col.notNull())
    .addColumn('value_date', 'text', (col) => col.notNull())
    .addColumn('amount_minor', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('counterparty_name', 'text')
    .addColumn('counterparty_iban', 'text')
    .addColumn('counterparty_bban', 'text')
    .addColumn('remittance_unstructured', 'text')
    .addColumn('remittance_reference', 'text')
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_transaction_account_idx')
    .on('sandbox_transaction')
    .columns(['account_id', 'booking_date'])
    .execute();

  await db.schema
    .createTable('sandbox_card_account')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('customer_id', 'text', (col) => col.notNull().references('sandbox_customer.id'))
    .addColumn('masked_pan', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('product', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('credit_limit_minor', 'bigint', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sandbox_card_account_customer_idx').on('sandbox_card_account').column('customer_id').execute();

  await db.schema
    .createTable('sandbox_card_transaction')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('card_account_id', 'text', (col) => col.notNull().references('sandbox_card_account.id'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('transaction_date', 'text', (col) => col.notNull())
    .addColumn('booking_date', 'text')
    .addColumn('amount_minor', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('original_amount_minor', 'bigint')
    .addColumn('original_currency', 'text')
    .addColumn('merchant_category_code', 'text')
    .addColumn('transaction_details', 'text')
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_card_transaction_account_idx')
    .on('sandbox_card_transaction')
    .columns(['card_account_id', 'transaction_date'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sandbox_card_transaction',
    'sandbox_card_account',
    'sandbox_transaction',
    'sandbox_engagement',
    'sandbox_agreement',
    'sandbox_account',
    'sandbox_customer',
    'sandbox_tenant',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
