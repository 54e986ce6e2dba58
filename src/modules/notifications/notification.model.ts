import type { NotificationContent } from '../../domain/notification-content.js';

/** The resources whose status a TPP may be notified of. */
export type NotifiedResourceType = 'payment' | 'signing-basket' | 'consent';

/**
 * What the server answers a creating request that named a TPP-Notification-URI: whether it will
 * notify (ASPSP-Notification-Support) and, when it will, where and what (ASPSP-Notification-Content).
 */
export type NotificationDecision =
  { readonly supported: false } | { readonly supported: true; readonly uri: string; readonly contents: readonly NotificationContent[] };

/** The TPP-Notification-* headers of a creating request, as sent. */
export interface NotificationRequest {
  readonly uri?: string | undefined;
  readonly contentPreferred?: string | undefined;
}

/** A resource just created, as its subscription records it. */
export interface NotifiedResource {
  readonly type: NotifiedResourceType;
  readonly id: string;
  readonly tppId: string;
  /** Its own address and its status address: the `_links` of every notification. */
  readonly selfHref: string;
  readonly statusHref: string;
}

/** A change worth notifying: a new transactionStatus/consentStatus, or a new scaStatus of an authorisation. */
export type StatusChangeNotice =
  | { readonly kind: 'status'; readonly status: string; readonly final: boolean }
  | {
      readonly kind: 'sca';
      readonly authorisationId: string;
      readonly scaStatus: string;
      /** A payment's cancellation authorisation, under `cancellation-authorisations`. */
      readonly cancellation: boolean;
    };
