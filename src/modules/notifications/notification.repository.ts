import type { Selectable } from 'kysely';
import type { DbOrTx } from '../../db/create-db.js';
import type { NotifiedResource, NotifiedResourceType } from './notification.model.js';
import type { NotificationSubscriptionTable } from './notification.table.js';

export interface Subscription {
  readonly resourceType: NotifiedResourceType;
  readonly resourceId: string;
  readonly tppId: string;
  readonly uri: string;
  readonly contents: readonly string[];
  readonly selfHref: string;
  readonly statusHref: string;
  readonly lastStatus: string | undefined;
}

export interface OutboxRow {
  readonly id: number;
  readonly notificationId: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly sequence: number;
  readonly uri: string;
  readonly body: string;
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly nextAttemptAt: string;
  readonly lastError: string | undefined;
  readonly deliveredAt: string | undefined;
}

export interface NewNotification {
  readonly notificationId: string;
  readonly subscription: Subscription;
  readonly body: string;
  readonly at: string;
}

function toOutboxRow(row: {
  id: number | string;
  notification_id: string;
  resource_type: string;
  resource_id: string;
  sequence: number | string;
  uri: string;
  body: string;
  state: string;
  attempts: number | string;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
}): OutboxRow {
  return {
    id: Number(row.id),
    notificationId: row.notification_id,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    sequence: Number(row.sequence),
    uri: row.uri,
    body: row.body,
    state: row.state as OutboxRow['state'],
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error ?? undefined,
    deliveredAt: row.delivered_at ?? undefined,
  };
}

const OUTBOX_COLUMNS = [
  'id',
  'notification_id',
  'resource_type',
  'resource_id',
  'sequence',
  'uri',
  'body',
  'state',
  'attempts',
  'next_attempt_at',
  'last_error',
  'delivered_at',
] as const;

/** Resource ids per query when many are looked up at once (both databases cap the bound parameters). */
const ID_SLICE = 500;

function subscriptionOf(type: NotifiedResourceType, row: Selectable<NotificationSubscriptionTable>): Subscription {
  return {
    resourceType: type,
    resourceId: row.resource_id,
    tppId: row.tpp_id,
    uri: row.uri,
    contents: row.contents.split(','),
    selfHref: row.self_href,
    statusHref: row.status_href,
    lastStatus: row.last_status ?? undefined,
  };
}

export const notificationRepository = {
  async subscribe(trx: DbOrTx, resource: NotifiedResource, uri: string, contents: readonly string[], at: string): Promise<void> {
    await trx
      .insertInto('notification_subscription')
      .values({
        resource_type: resource.type,
        resource_id: resource.id,
        tpp_id: resource.tppId,
        uri,
        contents: contents.join(','),
        self_href: resource.selfHref,
        status_href: resource.statusHref,
        last_sequence: 0,
        last_status: null,
        created_at: at,
      })
      .execute();
  },

  async findSubscription(trx: DbOrTx, type: NotifiedResourceType, id: string): Promise<Subscription | undefined> {
    const row = await trx
      .selectFrom('notification_subscription')
      .selectAll()
      .where('resource_type', '=', type)
      .where('resource_id', '=', id)
      .executeTakeFirst();
    return row && subscriptionOf(type, row);
  },

  /** The subscriptions of those of `ids` that have one, by resource id: one query per 500 ids. */
  async findSubscriptions(trx: DbOrTx, type: NotifiedResourceType, ids: readonly string[]): Promise<Map<string, Subscription>> {
    const found = new Map<string, Subscription>();
    for (let start = 0; start < ids.length; start += ID_SLICE) {
      const rows = await trx
        .selectFrom('notification_subscription')
        .selectAll()
        .where('resource_type', '=', type)
        .where('resource_id', 'in', ids.slice(start, start + ID_SLICE))
        .execute();
      for (const row of rows) found.set(row.resource_id, subscriptionOf(type, row));
    }
    return found;
  },

  /**
   * Draws the resource's next notification number, and records its status as the last notified
   * when given. The update locks the subscription row until the transaction ends (PostgreSQL;
   * SQLite has one writer), so numbers follow commit order.
   */
  async nextSequence(trx: DbOrTx, type: NotifiedResourceType, id: string, status: string | undefined): Promise<number> {
    const row = await trx
      .updateTable('notification_subscription')
      .set((eb) => ({
        last_sequence: eb('last_sequence', '+', 1),
        ...(status === undefined ? {} : { last_status: status }),
      }))
      .where('resource_type', '=', type)
      .where('resource_id', '=', id)
      .returning('last_sequence')
      .executeTakeFirstOrThrow();
    return Number(row.last_sequence);
  },

  async enqueue(trx: DbOrTx, notification: NewNotification, sequence: number): Promise<void> {
    await trx
      .insertInto('notification_outbox')
      .values({
        notification_id: notification.notificationId,
        resource_type: notification.subscription.resourceType,
        resource_id: notification.subscription.resourceId,
        sequence,
        tpp_id: notification.subscription.tppId,
        uri: notification.subscription.uri,
        body: notification.body,
        state: 'pending',
        attempts: 0,
        next_attempt_at: notification.at,
        lease_owner: null,
        lease_until: null,
        last_error: null,
        created_at: notification.at,
        delivered_at: null,
      })
      .execute();
  },

  /**
   * The rows that may be sent now: pending, due, not leased by a live sender, and the first
   * pending one of their resource (a later notification waits until the earlier one is through).
   */
  async dueHeads(db: DbOrTx, at: string, limit: number): Promise<OutboxRow[]> {
    const rows = await db
      .selectFrom('notification_outbox as o')
      .select(OUTBOX_COLUMNS.map((column) => `o.${column}` as const))
      .where('o.state', '=', 'pending')
      .where('o.next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('o.lease_until', 'is', null), eb('o.lease_until', '<', at)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('notification_outbox as e')
              .select('e.id')
              .whereRef('e.resource_type', '=', 'o.resource_type')
              .whereRef('e.resource_id', '=', 'o.resource_id')
              .whereRef('e.sequence', '<', 'o.sequence')
              .where('e.state', '=', 'pending'),
          ),
        ),
      )
      .orderBy('o.next_attempt_at')
      .orderBy('o.id')
      .limit(limit)
      .execute();
    return rows.map(toOutboxRow);
  },

  /** Takes a row for one sender until `until`; false when another sender holds it or it is no longer pending. */
  async claim(db: DbOrTx, id: number, owner: string, at: string, until: string): Promise<boolean> {
    const result = await db
      .updateTable('notification_outbox')
      .set({ lease_owner: owner, lease_until: until })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Records a delivery, if this sender still holds the row. */
  async delivered(db: DbOrTx, id: number, owner: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('notification_outbox')
      .set((eb) => ({
        state: 'delivered',
        attempts: eb('attempts', '+', 1),
        delivered_at: at,
        lease_owner: null,
        lease_until: null,
        last_error: null,
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Records a failed attempt: the next one at `nextAttemptAt`, or none (`failed`) when the retries are used up. */
  async attemptFailed(
    db: DbOrTx,
    id: number,
    owner: string,
    failure: { readonly error: string; readonly nextAttemptAt: string | undefined },
  ): Promise<boolean> {
    const result = await db
      .updateTable('notification_outbox')
      .set((eb) => ({
        state: failure.nextAttemptAt === undefined ? 'failed' : 'pending',
        attempts: eb('attempts', '+', 1),
        ...(failure.nextAttemptAt === undefined ? {} : { next_attempt_at: failure.nextAttemptAt }),
        lease_owner: null,
        lease_until: null,
        last_error: failure.error.slice(0, 500),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** A resource's notifications, in order (for tests and operators). */
  async ofResource(db: DbOrTx, type: NotifiedResourceType, id: string): Promise<OutboxRow[]> {
    const rows = await db
      .selectFrom('notification_outbox')
      .select(OUTBOX_COLUMNS)
      .where('resource_type', '=', type)
      .where('resource_id', '=', id)
      .orderBy('sequence')
      .execute();
    return rows.map(toOutboxRow);
  },
};
