import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import {
  checkNotificationContent,
  formatNotificationContent,
  SUPPORTED_NOTIFICATION_CONTENT,
  type NotificationContent,
} from '../../domain/notification-content.js';
import { checkNotificationUri, hostCoveredBy } from '../../domain/notification-uri.js';
import { AppError } from '../../errors/app-error.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import type {
  NotificationDecision,
  NotificationRequest,
  NotifiedResource,
  NotifiedResourceType,
  StatusChangeNotice,
} from './notification.model.js';
import { notificationRepository, type Subscription } from './notification.repository.js';
import { notificationBody } from './notification-body.js';

export interface NotificationSettings {
  /** Whether the bank offers status notifications at all (XS2A_NOTIFICATIONS). */
  readonly enabled: boolean;
  /** Sandbox mode: http to a loopback host is accepted, so a developer's machine (and a test) can receive. */
  readonly sandbox: boolean;
}

export interface NotificationService {
  /**
   * What to answer a creating request's TPP-Notification-URI: undefined when it sent none (or the
   * bank offers no notifications: then no ASPSP-Notification-* header is sent); not supported when
   * the URI is not https or its host is not the TPP's (a domain its certificate secures); else the URI and the content promised, what the TPP preferred of SCA, PROCESS, LAST
   * (all three when it named none). A malformed TPP-Notification-Content-Preferred is 400.
   */
  decide(tpp: TppIdentity, request: NotificationRequest): Promise<NotificationDecision | undefined>;
}

export function createNotificationService(settings: NotificationSettings): NotificationService {
  return {
    async decide(tpp, request) {
      if (!settings.enabled || request.uri === undefined) return undefined;
      const preferred = preferredContent(request.contentPreferred);
      const uri = checkNotificationUri(request.uri, { allowLoopbackHttp: settings.sandbox });
      if (!uri.ok) return { supported: false };
      // Only what the TPP's certificate proves it holds: a contact address the TPP registers
      // itself proves nothing, and would let it aim the bank's POSTs at any host.
      if (!hostCoveredBy(uri.host, tpp.domains ?? [])) return { supported: false };
      const contents = SUPPORTED_NOTIFICATION_CONTENT.filter((content) => preferred.includes(content));
      return contents.length > 0 ? { supported: true, uri: uri.uri, contents } : { supported: false };
    },
  };
}

function preferredContent(value: string | undefined): readonly NotificationContent[] {
  if (value === undefined) return SUPPORTED_NOTIFICATION_CONTENT;
  const checked = checkNotificationContent(value);
  if (!checked.ok) {
    throw new AppError('FORMAT_ERROR', { detail: checked.reason, path: 'TPP-Notification-Content-Preferred' });
  }
  return checked.value;
}

/** ASPSP-Notification-Support and, when true, ASPSP-Notification-Content: the headers of the creating request's answer. */
export function notificationAnswerHeaders(decision: NotificationDecision | undefined): Readonly<Record<string, string>> {
  if (decision === undefined) return {};
  return decision.supported
    ? { 'aspsp-notification-support': 'true', 'aspsp-notification-content': formatNotificationContent(decision.contents) }
    : { 'aspsp-notification-support': 'false' };
}

/**
 * How other modules feed the outbox (docs/notifications.md): always in the transaction of the
 * change it reports, so a notification exists exactly when its change committed. Plain functions,
 * like the audit log: every resource module writes here, and the outbox needs nothing of theirs.
 */
export const notificationOutbox = {
  /** Records the subscription of a resource just created, in its creating transaction, when one was accepted. */
  async subscribe(trx: DbOrTx, decision: NotificationDecision | undefined, resource: NotifiedResource, at: string): Promise<void> {
    if (!decision?.supported) return;
    await notificationRepository.subscribe(trx, resource, decision.uri, decision.contents, at);
  },

  /**
   * A resource's transactionStatus or consentStatus moved, through `steps` in order: each is
   * notified under PROCESS, a final one under LAST.
   */
  async statusChanged(
    trx: DbOrTx,
    type: NotifiedResourceType,
    id: string,
    steps: readonly { readonly status: string; readonly final: boolean }[],
    at: string,
  ): Promise<void> {
    await notificationOutbox.statusesChanged(trx, type, [{ id, steps }], at);
  },

  /**
   * {@link statusChanged} for many resources of one type at once (a batch run's chunk): their
   * subscriptions are looked up together, so resources nobody subscribed to cost no query each.
   */
  async statusesChanged(
    trx: DbOrTx,
    type: NotifiedResourceType,
    changes: readonly { readonly id: string; readonly steps: readonly { readonly status: string; readonly final: boolean }[] }[],
    at: string,
  ): Promise<void> {
    const subscriptions = await notificationRepository.findSubscriptions(
      trx,
      type,
      changes.map((change) => change.id),
    );
    if (subscriptions.size === 0) return;
    for (const change of changes) {
      const subscription = subscriptions.get(change.id);
      if (!subscription) continue;
      for (const step of change.steps) {
        if (wants(subscription, { kind: 'status', ...step })) await append(trx, subscription, { kind: 'status', ...step }, at);
      }
    }
  },

  /**
   * Statuses derived from other resources (signing baskets', from their payments) may have moved:
   * each is notified when it differs from the last one notified. Subscriptions are looked up together.
   */
  async derivedStatusesMayHaveChanged(
    trx: DbOrTx,
    type: NotifiedResourceType,
    ids: readonly string[],
    current: (id: string) => Promise<{ readonly status: string; readonly final: boolean }>,
    at: string,
  ): Promise<void> {
    const subscriptions = await notificationRepository.findSubscriptions(trx, type, [...new Set(ids)]);
    for (const subscription of subscriptions.values()) {
      const step = await current(subscription.resourceId);
      if (step.status === (subscription.lastStatus ?? 'RCVD')) continue;
      if (wants(subscription, { kind: 'status', ...step })) await append(trx, subscription, { kind: 'status', ...step }, at);
    }
  },

  /** An authorisation of the resource moved to a new scaStatus: notified under SCA. */
  async scaStatusChanged(
    trx: DbOrTx,
    type: NotifiedResourceType,
    id: string,
    change: { readonly authorisationId: string; readonly scaStatus: string; readonly cancellation: boolean },
    at: string,
  ): Promise<void> {
    const subscription = await notificationRepository.findSubscription(trx, type, id);
    if (!subscription?.contents.includes('SCA')) return;
    await append(trx, subscription, { kind: 'sca', ...change }, at);
  },
};

function wants(subscription: Subscription, notice: StatusChangeNotice): boolean {
  if (notice.kind === 'sca') return subscription.contents.includes('SCA');
  return subscription.contents.includes('PROCESS') || (notice.final && subscription.contents.includes('LAST'));
}

async function append(trx: DbOrTx, subscription: Subscription, notice: StatusChangeNotice, at: string): Promise<void> {
  const sequence = await notificationRepository.nextSequence(
    trx,
    subscription.resourceType,
    subscription.resourceId,
    notice.kind === 'status' ? notice.status : undefined,
  );
  const notificationId = randomUUID();
  await notificationRepository.enqueue(
    trx,
    { notificationId, subscription, body: JSON.stringify(notificationBody(notificationId, subscription, notice, at)), at },
    sequence,
  );
}
