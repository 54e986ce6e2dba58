import { sql, type Kysely } from 'kysely';
import { sequenceKeyColumn, timestampColumn } from './column-types.js';

/**
 * Berlin Group status notifications (docs/notifications.md).
 *
 * - `notification_subscription`: one row per resource (payment, signing basket, consent) whose
 *   creator sent an accepted TPP-Notification-URI, written in the transaction that creates the
 *   resource. `contents` is what was promised in ASPSP-Notification-Content (`SCA,PROCESS,LAST`);
 *   `last_sequence` numbers the resource's notifications (its row lock, taken by the update that
 *   draws a number, orders them in commit order); `last_status` is the last status notified
 *   (a signing basket's status is derived from its payments, so a change is noticed by comparing).
 * - `notification_outbox`: one row per notification, written in the transaction of the status
 *   change it reports. The delivery job sends a resource's rows in `sequence` order, one at a
 *   time; `lease_owner`/`lease_until` claim a row for one sender, `attempts`/`next_attempt_at`
 *   carry the retries across restarts; `state` is pending, delivered or failed (retries used up).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_subscription')
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('uri', 'text', (col) => col.notNull())
    .addColumn('contents', 'text', (col) => col.notNull())
    .addColumn('self_href', 'text', (col) => col.notNull())
    .addColumn('status_href', 'text', (col) => col.notNull())
    .addColumn('last_sequence', 'integer', (col) => col.notNull())
    .addColumn('last_status', 'text')
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_subscription_pk', ['resource_type', 'resource_id'])
    .execute();
  await sequenceKeyColumn(db, db.schema.createTable('notification_outbox'), 'id')
    .addColumn('notification_id', 'text', (col) => col.notNull().unique())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addColumn('tpp_id', 'text', (col) => col.notNull())
    .addColumn('uri', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('next_attempt_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', timestampColumn(db))
    .addColumn('last_error', 'text')
    .addColumn('created_at', timestampColumn(db), (col) => col.notNull())
    .addColumn('delivered_at', timestampColumn(db))
    .addUniqueConstraint('notification_outbox_resource_sequence', ['resource_type', 'resource_id', 'sequence'])
    .execute();
  // The delivery job looks at pending rows only.
  await sql`create index notification_outbox_pending on notification_outbox (next_attempt_at) where state = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('notification_subscription').execute();
}
