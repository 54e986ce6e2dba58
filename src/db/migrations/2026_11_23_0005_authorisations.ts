import { sql, type Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * SCA by redirect: the authorisation sub-resources of payments (and their
 * cancellations), the PSU logins of the 401 pre-step, and the PSU access tokens handed out for them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('authorisation')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('tpp_name', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('sca_status', 'text', (col) => col.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('expected_psu_id', 'text')
    .addColumn('psu_corporate_id', 'text')
    .addColumn('psu_id', 'text')
    .addColumn('code_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('redirect_uri', 'text')
    .addColumn('nok_redirect_uri', 'text')
    .addColumn('biometric', 'boolean', (col) => col.notNull())
    .addColumn('login_code_hash', 'text')
    .addColumn('login_code_expires_at', timestampColumn(db))
    .addColumn('expires_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('status_changed_at', timestampColumn(db), (col) => col.notNull())
    .execute();
  await db.schema.createIndex('authorisation_resource_idx').on('authorisation').columns(['resource_id']).execute();
  // Only open authorisations can expire; the sweep reads this small index, not the table.
  await db.schema
    .createIndex('authorisation_open_expiry_idx')
    .on('authorisation')
    .column('expires_at')
    .where(sql.ref('sca_status'), 'not in', ['finalised', 'failed', 'exempted'])
    .execute();
  await db.schema
    .createIndex('authorisation_login_code_idx')
    .on('authorisation')
    .column('login_code_hash')
    .unique()
    .where(sql.ref('login_code_hash'), 'is not', null)
    .execute();

  await db.schema
    .createTable('psu_token')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('psu_id', 'text', (col) => col.notNull())
    .addColumn('login_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('psu_token').execute();
  await db.schema.dropTable('authorisation').execute();
}
