import type { StatusChangeNotice } from './notification.model.js';
import type { Subscription } from './notification.repository.js';

/** The resource types as a notification names them, in the Berlin Group's spelling. */
const RESOURCE_TYPES = { payment: 'payment', 'signing-basket': 'signingBasket', consent: 'consent' } as const;

/** The status attribute each resource has in the Berlin Group API. */
const STATUS_ATTRIBUTES = { payment: 'transactionStatus', 'signing-basket': 'transactionStatus', consent: 'consentStatus' } as const;

/**
 * The JSON a notification carries (docs/notifications.md): which resource, its new status (or the
 * new scaStatus of one of its authorisations) under the attribute name the API uses for it, when
 * the change happened, and `_links` to read it: `self`, `status` and, for an SCA change, `scaStatus`.
 * `notificationId` is the same in every attempt to deliver it, so a TPP recognises a repeat.
 */
export function notificationBody(notificationId: string, subscription: Subscription, notice: StatusChangeNotice, at: string): object {
  const links = { self: { href: subscription.selfHref }, status: { href: subscription.statusHref } };
  const common = {
    notificationId,
    resourceType: RESOURCE_TYPES[subscription.resourceType],
    resourceId: subscription.resourceId,
  };
  if (notice.kind === 'status') {
    return { ...common, [STATUS_ATTRIBUTES[subscription.resourceType]]: notice.status, changedAt: at, _links: links };
  }
  const subresource = notice.cancellation ? 'cancellation-authorisations' : 'authorisations';
  return {
    ...common,
    authorisationId: notice.authorisationId,
    scaStatus: notice.scaStatus,
    changedAt: at,
    _links: { ...links, scaStatus: { href: `${subscription.selfHref}/${subresource}/${notice.authorisationId}` } },
  };
}
