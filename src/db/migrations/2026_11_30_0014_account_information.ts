import { sql, type Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Account information (docs/design.md §2b):
 *
 * - `consent`: a TPP's account information consent, what it asks (`access`, as the TPP sent it),
 *   its validity, its status, and once the PSU approved it, what the PSU granted (`granted`: the
 *   bank's account ids and the access to each).
 * - `account_resource`: the opaque `resourceId` a TPP sees for an account or card account, one per
 *   TPP and account, kept so it stays the same across consents and never shows the account number.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('consent')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('access', 'text', (col) => col.notNull())
    .addColumn('recurring', 'boolean', (col) => col.notNull())
    .addColumn('valid_until', 'text', (col) => col.notNull())
    .addColumn('frequency_per_day', 'integer', (col) => col.notNull())
    .addColumn('psu_id', 'text')
    .addColumn('psu_corporate_id', 'text')
    .addColumn('granted', 'text')
    .addColumn('approved_at', timestampColumn(db))
    .addColumn('last_action_date', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text', (col) => col.notNull())
    .addColumn('request_context', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('status_changed_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  // A new recurring consent ends the PSU's older valid ones of the same TPP: found by this index.
  await db.schema
    .createIndex('consent_valid_psu_idx')
    .on('consent')
    .columns(['tpp_id', 'psu_id'])
    .where(sql.ref('status'), '=', 'valid')
    .execute();

  await db.schema
    .createTable('account_resource')
    .addColumn('resource_id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('account_type', 'text', (col) => col.notNull())
    .addColumn('bank_account_id', 'text', (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addUniqueConstraint('account_resource_account_uq', ['tpp_id', 'account_type', 'bank_account_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_resource').execute();
  await db.schema.dropTable('consent').execute();
}
