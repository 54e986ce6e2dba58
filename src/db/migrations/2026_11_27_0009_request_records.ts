import { sql, type Kysely } from 'kysely';
import { timestampColumn } from './column-types.js';

/**
 * Replay protection and the sandbox certificate desk.
 *
 * - `idempotency_record.expires_at`: every signed request's X-Request-ID is now recorded (GETs
 *   too), so rows must leave again: a row is kept until it can no longer matter (the Date window
 *   for a replay, longer for a stored answer) and purged after. Rows written before this version
 *   keep a day from their creation.
 * - `sandbox_key_binding`: the public key the sandbox desk first certified for an organisation
 *   id; another key for that id needs a request signed with the id's current certificate.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = timestampColumn(db);
  await db.schema.alterTable('idempotency_record').addColumn('expires_at', timestamp).execute();
  await (timestamp === 'timestamptz'
    ? sql`update idempotency_record set expires_at = created_at + interval '1 day'`.execute(db)
    : sql`update idempotency_record set expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1 day')`.execute(db));
  await db.schema.createIndex('idempotency_record_expires_idx').on('idempotency_record').column('expires_at').execute();

  await db.schema
    .createTable('sandbox_key_binding')
    .addColumn('organization_identifier', 'text', (col) => col.primaryKey())
    .addColumn('public_key_sha256', 'text', (col) => col.notNull())
    .addColumn('bound_at', timestamp, (col) => col.notNull())
    .addColumn('rotated_at', timestamp)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_key_binding').execute();
  await db.schema.dropIndex('idempotency_record_expires_idx').execute();
  await db.schema.alterTable('idempotency_record').dropColumn('expires_at').execute();
}
