/**
 * The notification outbox and its sender on the store (docs/notifications.md), on each dialect:
 * - a notification is written in the transaction of its change: rolled back, nothing is sent;
 *   a resource without a subscription gets none;
 * - what the sender knows lives in the database: a sender made anew (a restarted server, another
 *   process) finds the pending rows, their attempts and the time of their next try;
 * - a failure waits retryBaseMs · 2^(attempts-1) before the next try; after maxAttempts the row
 *   is given up and the resource's next notification goes;
 * - only the first pending notification of a resource is sent: a later one never overtakes it;
 * - a row leased by one sender is not sent by another until the lease ran out, and a sender that
 *   lost its lease cannot record an outcome.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { openBankSeal, type BankSeal } from '../../src/modules/notifications/bank-seal.js';
import { createNotificationDelivery, RETRY_CAP_MS } from '../../src/modules/notifications/notification-delivery.js';
import { notificationRepository } from '../../src/modules/notifications/notification.repository.js';
import { notificationOutbox } from '../../src/modules/notifications/notification.service.js';
import { capturingLogger } from '../support/batch-runner.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { startNotificationReceiver, type NotificationReceiver } from '../support/notification-receiver.js';

const T0 = new Date('2026-12-02T09:00:00.000Z');
const SETTINGS = { timeoutMs: 2_000, retryBaseMs: 10_000, maxAttempts: 3, allowLoopback: true };
let nextResource = 1;

describe.each(DIALECTS)('notification outbox (%s)', (dialect) => {
  let database: TestDatabase;
  let receiver: NotificationReceiver;
  let seal: BankSeal;
  let dataDir: string;
  let clock = T0;
  const now = () => clock;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'xs2a-seal-'));
    seal = await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir, bankName: 'Test Bank' });
    receiver = await startNotificationReceiver(
      () => readFileSync(join(dataDir, 'notification-seal', 'seal-certificate.pem'), 'utf8'),
      () => clock.getTime(),
    );
  });
  afterAll(async () => {
    await receiver.close();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    clock = T0;
  });

  /** A fresh sender, as a (re)started server process makes one. */
  function sender(settings = SETTINGS) {
    return createNotificationDelivery(database.db, now, () => seal, settings, capturingLogger().logger);
  }

  /** A payment subscribed to PROCESS notifications at the receiver, and `statuses` changes of it, each in its own transaction. */
  async function notifiedPayment(statuses: readonly string[], path = 'outbox'): Promise<string> {
    const id = `payment-${nextResource++}`;
    await withTransaction(database.db, (trx) =>
      notificationOutbox.subscribe(
        trx,
        { supported: true, uri: receiver.uri(path), contents: ['PROCESS'] },
        {
          type: 'payment',
          id,
          tppId: 'PSDNO-FSA-1',
          selfHref: `https://bank.example/v1/payments/x/${id}`,
          statusHref: `https://bank.example/v1/payments/x/${id}/status`,
        },
        now().toISOString(),
      ),
    );
    for (const status of statuses) {
      await withTransaction(database.db, (trx) =>
        notificationOutbox.statusChanged(trx, 'payment', id, [{ status, final: false }], now().toISOString()),
      );
    }
    return id;
  }

  const rowsOf = (id: string) => notificationRepository.ofResource(database.db, 'payment', id);
  const receivedOf = (id: string) =>
    receiver.received.filter(({ body }) => body.resourceId === id).map(({ body }) => body.transactionStatus as string);

  it('is written with its change: a rolled-back change leaves none; an unsubscribed resource gets none', async () => {
    const id = await notifiedPayment([]);
    await expect(
      withTransaction(database.db, async (trx) => {
        await notificationOutbox.statusChanged(trx, 'payment', id, [{ status: 'ACTC', final: false }], now().toISOString());
        throw new Error('the change fails after its notification was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await rowsOf(id)).toEqual([]);

    await withTransaction(database.db, (trx) =>
      notificationOutbox.statusChanged(trx, 'payment', 'payment-never-subscribed', [{ status: 'ACTC', final: false }], now().toISOString()),
    );
    expect(await rowsOf('payment-never-subscribed')).toEqual([]);
  });

  it('is not sent to a receiver on a loopback address outside the sandbox: the attempt fails, naming the address', async () => {
    const id = await notifiedPayment(['ACTC'], 'loopback');
    // One attempt only: the row is given up, and later tests' senders do not send it.
    const pass = await sender({ ...SETTINGS, allowLoopback: false, maxAttempts: 1 }).deliverDue();
    expect(pass).toEqual({ delivered: 0, failed: 1 });
    expect(receivedOf(id)).toEqual([]);
    const [row] = await rowsOf(id);
    expect(row?.lastError).toMatch(/loopback address/);
  });

  it('survives a restart: a new sender finds the failed row, waits for its retry time, then sends all in order', async () => {
    await receiver.down();
    const id = await notifiedPayment(['ACTC', 'ACSP', 'ACSC']);
    expect(await sender().deliverDue()).toEqual({ delivered: 0, failed: 1 });
    let rows = await rowsOf(id);
    expect(rows.map((row) => [row.sequence, row.state, row.attempts])).toEqual([
      [1, 'pending', 1],
      [2, 'pending', 0],
      [3, 'pending', 0],
    ]);
    expect(rows[0]!.nextAttemptAt).toBe(new Date(T0.getTime() + SETTINGS.retryBaseMs).toISOString());
    expect(rows[0]!.lastError).toBeTruthy();

    // The server restarts: only the database is left. Before the retry time, nothing is sent.
    await receiver.up();
    const restarted = sender();
    clock = new Date(T0.getTime() + SETTINGS.retryBaseMs - 1);
    expect(await restarted.deliverDue()).toEqual({ delivered: 0, failed: 0 });
    clock = new Date(T0.getTime() + SETTINGS.retryBaseMs);
    expect(await restarted.deliverDue()).toEqual({ delivered: 3, failed: 0 });
    expect(receivedOf(id)).toEqual(['ACTC', 'ACSP', 'ACSC']);
    rows = await rowsOf(id);
    expect(rows.map((row) => [row.state, row.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 1],
      ['delivered', 1],
    ]);
    expect(receiver.received.every((notification) => notification.signatureProblem === undefined)).toBe(true);
    // Delivered rows are never sent again.
    expect(await restarted.deliverDue()).toEqual({ delivered: 0, failed: 0 });
  });

  it('backs off exponentially, at most an hour, and gives a row up after maxAttempts, letting the next one go', async () => {
    receiver.failing = true;
    try {
      const id = await notifiedPayment(['ACTC', 'ACSC'], 'backoff');
      const waits: number[] = [];
      const delivery = sender({ ...SETTINGS, retryBaseMs: 1_000_000, maxAttempts: 4 });
      for (let attempt = 1; attempt <= 4; attempt++) {
        expect(await delivery.deliverDue()).toEqual({ delivered: 0, failed: 1 });
        const [head] = await rowsOf(id);
        if (head!.state === 'pending') {
          waits.push(Date.parse(head!.nextAttemptAt) - clock.getTime());
          clock = new Date(Date.parse(head!.nextAttemptAt));
        }
      }
      expect(waits).toEqual([1_000_000, 2_000_000, RETRY_CAP_MS]);
      expect((await rowsOf(id)).map((row) => [row.state, row.attempts])).toEqual([
        ['failed', 4],
        ['pending', 0],
      ]);
      receiver.failing = false;
      expect(await delivery.deliverDue()).toEqual({ delivered: 1, failed: 0 });
      expect(receivedOf(id)).toEqual(['ACSC']);
    } finally {
      receiver.failing = false;
    }
  });

  it('a row leased by one sender is not sent by another until the lease ran out; the first can no longer record its outcome', async () => {
    const id = await notifiedPayment(['ACTC', 'ACSC'], 'lease');
    const [head] = await rowsOf(id);
    const leaseUntil = new Date(T0.getTime() + 60_000).toISOString();
    expect(await notificationRepository.claim(database.db, head!.id, 'process-a', T0.toISOString(), leaseUntil)).toBe(true);
    // A second claim while the lease holds fails, and a second process sends neither row.
    expect(await notificationRepository.claim(database.db, head!.id, 'process-b', T0.toISOString(), leaseUntil)).toBe(false);
    const other = sender();
    expect(await other.deliverDue()).toEqual({ delivered: 0, failed: 0 });
    expect(receivedOf(id)).toEqual([]);
    // Process A died holding it: once the lease ran out, the other sends both, in order.
    clock = new Date(T0.getTime() + 60_001);
    expect(await other.deliverDue()).toEqual({ delivered: 2, failed: 0 });
    expect(receivedOf(id)).toEqual(['ACTC', 'ACSC']);
    expect(await notificationRepository.delivered(database.db, head!.id, 'process-a', clock.toISOString())).toBe(false);
  });
});
