import { sql, type Kysely } from 'kysely';
import { sequenceKeyColumn, timestampColumn } from './column-types.js';

/** TPPs and their contact address, idempotency records for retried POSTs, and the audit log. */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);
  await db.schema
    .createTable('tpp')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('nca_id', 'text', (col) => col.notNull())
    .addColumn('roles', 'text', (col) => col.notNull())
    .addColumn('certificate_fingerprint', 'text', (col) => col.notNull())
    .addColumn('certificate_serial', 'text', (col) => col.notNull())
    .addColumn('certificate_issuer', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', timestamp, (col) => col.notNull())
    .addColumn('last_certificate_at', timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('tpp_contact')
    .addColumn('tpp_id', 'text', (col) => col.primaryKey().references('tpp.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('updated_at', timestamp, (col) => col.notNull())
    .addColumn('updated_by_request_id', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_record')
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('path', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addColumn('completed_at', timestamp)
    .addPrimaryKeyConstraint('idempotency_record_pk', ['tpp_id', 'request_id'])
    .execute();

  // A sequential key: appends are the hot path, and the log is read in the order it was written.
  await sequenceKeyColumn(db, db.schema.createTable('audit_event'), 'id')
    .addColumn('occurred_at', timestamp, (col) => col.notNull())
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('details', 'text', (col) => col.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db.schema.createIndex('audit_event_resource_idx').on('audit_event').columns(['resource_type', 'resource_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_event').execute();
  await db.schema.dropTable('idempotency_record').execute();
  await db.schema.dropTable('tpp_contact').execute();
  await db.schema.dropTable('tpp').execute();
}
