import type { Generated } from 'kysely';

/** A resource whose status changes are notified to its TPP (migration 0020). */
export interface NotificationSubscriptionTable {
  /** payment, signing-basket or consent. */
  resource_type: string;
  resource_id: string;
  tpp_id: string;
  uri: string;
  /** The constants promised in ASPSP-Notification-Content, comma-separated: `SCA,PROCESS,LAST`. */
  contents: string;
  self_href: string;
  status_href: string;
  last_sequence: number;
  last_status: string | null;
  created_at: string;
}

/** One notification to deliver (migration 0020). */
export interface NotificationOutboxTable {
  id: Generated<number>;
  notification_id: string;
  resource_type: string;
  resource_id: string;
  sequence: number;
  tpp_id: string;
  uri: string;
  /** The JSON body, exactly as it is sent (and signed). */
  body: string;
  /** pending, delivered or failed. */
  state: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}
