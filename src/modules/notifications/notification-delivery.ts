import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher, fetch as undiciFetch } from 'undici';
import type { Db } from '../../db/create-db.js';
import type { BankSeal } from './bank-seal.js';
import { notificationRepository, type OutboxRow } from './notification.repository.js';
import { signNotification } from './notification-signature.js';
import { receiverLookup, refusedLiteralHost } from './receiver-address.js';

export interface DeliverySettings {
  /** How long one POST may take, connect to answer. */
  readonly timeoutMs: number;
  /** The wait after the first failure; doubled after each further one, up to {@link RETRY_CAP_MS}. */
  readonly retryBaseMs: number;
  /** Attempts before a notification is given up (`failed`), letting its resource's next one go. */
  readonly maxAttempts: number;
  /** Sandbox: a receiver on this machine (loopback) may be sent to; never a private network. */
  readonly allowLoopback: boolean;
}

/** The longest wait between two attempts. */
export const RETRY_CAP_MS = 3_600_000;
/** Notifications of different resources sent at once, at most. */
const BATCH_SIZE = 20;
/** Rounds in one pass: each sends the next notification of the resources whose previous one got through. */
const MAX_ROUNDS = 20;

export interface DeliveryPass {
  readonly delivered: number;
  readonly failed: number;
}

export interface NotificationDelivery {
  /** Sends what is due now: each resource's notifications in order, one at a time. */
  deliverDue(): Promise<DeliveryPass>;
}

/**
 * The outbox's sender (docs/notifications.md). A row is claimed with a lease before it is sent, so
 * two server processes never send it at once; its outcome is written only by the holder of the
 * lease. A sender that dies mid-send leaves a lease that runs out, and the row is sent again: at
 * least once, never lost. Only the first pending row of a resource is due, so a resource's
 * notifications arrive in order; a failure waits `retryBaseMs · 2^(attempts-1)` (at most an hour)
 * before the next try, in the database, so a restart changes nothing.
 */
export function createNotificationDelivery(
  db: Db,
  now: () => Date,
  seal: () => BankSeal,
  settings: DeliverySettings,
  logger: FastifyBaseLogger,
): NotificationDelivery {
  const owner = randomUUID();
  // The HTTP client is loaded for the first notification sent, not at the server's start (a
  // sandbox that never sends one does not pay for loading it). The receiver's address is checked
  // as the connection is made, so a name cannot be pointed into the bank's networks after the
  // TPP's URI was accepted. A load that fails is a failed attempt of that send, and the next send
  // loads again.
  let client: Promise<HttpClient> | undefined;
  const clientNow = () =>
    (client ??= import('undici').then(
      ({ Agent, fetch }) => ({ fetch, dispatcher: new Agent({ connect: { lookup: receiverLookup(settings.allowLoopback) } }) }),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    ));
  // The lease outlives the longest send by a margin, so a live sender never loses its row.
  const leaseMs = settings.timeoutMs * 2 + 5_000;

  async function deliverOne(row: OutboxRow): Promise<'delivered' | 'failed' | 'skipped'> {
    const claimedAt = now();
    const claimed = await notificationRepository.claim(
      db,
      row.id,
      owner,
      claimedAt.toISOString(),
      new Date(claimedAt.getTime() + leaseMs).toISOString(),
    );
    if (!claimed) return 'skipped';
    const refused = refusedLiteralHost(row.uri, settings.allowLoopback);
    const problem =
      refused !== undefined ? `receiver refused: ${refused}` : await post(clientNow, row, seal(), claimedAt, settings.timeoutMs);
    if (problem === undefined) {
      await notificationRepository.delivered(db, row.id, owner, now().toISOString());
      return 'delivered';
    }
    const attempts = row.attempts + 1;
    const nextAttemptAt =
      attempts >= settings.maxAttempts
        ? undefined
        : new Date(now().getTime() + Math.min(RETRY_CAP_MS, settings.retryBaseMs * 2 ** (attempts - 1))).toISOString();
    await notificationRepository.attemptFailed(db, row.id, owner, { error: problem, nextAttemptAt });
    logger.warn(
      { notificationId: row.notificationId, resourceId: row.resourceId, attempts, problem, nextAttemptAt },
      nextAttemptAt ? 'status notification not delivered; it will be retried' : 'status notification given up after its last attempt',
    );
    return 'failed';
  }

  return {
    async deliverDue() {
      let delivered = 0;
      let failed = 0;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const due = await notificationRepository.dueHeads(db, now().toISOString(), BATCH_SIZE);
        if (due.length === 0) break;
        const outcomes = await Promise.all(due.map(deliverOne));
        const sent = outcomes.filter((outcome) => outcome === 'delivered').length;
        delivered += sent;
        failed += outcomes.filter((outcome) => outcome === 'failed').length;
        if (sent === 0) break;
      }
      return { delivered, failed };
    },
  };
}

interface HttpClient {
  readonly fetch: typeof undiciFetch;
  readonly dispatcher: Dispatcher;
}

/** POSTs one notification; undefined when the TPP answered 2xx, else what went wrong. Redirects are not followed. */
async function post(
  clientNow: () => Promise<HttpClient>,
  row: OutboxRow,
  seal: BankSeal,
  at: Date,
  timeoutMs: number,
): Promise<string | undefined> {
  const body = Buffer.from(row.body, 'utf8');
  try {
    const { fetch, dispatcher } = await clientNow();
    const response = await fetch(row.uri, {
      dispatcher,
      method: 'POST',
      headers: signNotification(body, row.notificationId, seal, at),
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    return response.status >= 200 && response.status < 300 ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return cause;
  }
}
