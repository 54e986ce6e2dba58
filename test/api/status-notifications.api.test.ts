/**
 * Berlin Group status notifications (docs/notifications.md), through the real server:
 * - a creating request (payment, signing basket, consent) with a TPP-Notification-URI whose host
 *   the TPP's certificate secures is answered ASPSP-Notification-Support: true and
 *   ASPSP-Notification-Content naming what the TPP preferred of SCA, PROCESS, LAST (all three
 *   when it named none); a URI of another host is answered false and nothing is ever sent; a
 *   malformed TPP-Notification-Content-Preferred is 400 FORMAT_ERROR and creates nothing;
 * - every scaStatus and transactionStatus/consentStatus change reaches the TPP's endpoint, signed
 *   with the bank's seal (verified with its certificate), in the order the changes happened;
 * - with the endpoint down, the notifications wait and are retried: once it is back, each change
 *   arrives once, in order.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { openBankSeal, type BankSeal } from '../../src/modules/notifications/bank-seal.js';
import { notificationRepository } from '../../src/modules/notifications/notification.repository.js';
import { createBasket, explicitPayment } from '../support/baskets.js';
import { consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { fundedPsu, nextBankDay, osloDateTime, runBatch, setClock, useTestServer, type FundedPsu } from '../support/execution.js';
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from '../support/notification-receiver.js';
import { bulkBody, expectError, NDCT, ndctBody, pathOf, paymentsOfDebtor, periodicBody } from '../support/payments.js';
import { createPayment, walk } from '../support/sca.js';
import { IN_MEMORY_BANK_ENV, PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server.js';

const FAST_DELIVERY = { XS2A_NOTIFICATION_POLL_MS: '50', XS2A_NOTIFICATION_RETRY_BASE_MS: '100' } as const;
let nextTpp = 1;

describe.each(DIALECTS)('status notifications (%s)', (dialect) => {
  const server = useTestServer({ dialect, env: FAST_DELIVERY });
  let receiver: NotificationReceiver;
  beforeAll(async () => {
    // The TPP takes the bank's seal certificate from where the bank publishes it.
    const published = await fetch(`${server.baseUrl}/notification-seal-certificate`);
    expect(published.status).toBe(200);
    expect(published.headers.get('content-type')).toMatch(/^application\/x-pem-file/);
    const certificate = await published.text();
    expect(certificate).toBe(readFileSync(join(server.config.dataDir, 'notification-seal', 'seal-certificate.pem'), 'utf8'));
    receiver = await startNotificationReceiver(() => certificate);
  });
  afterAll(() => receiver.close());

  /** A TPP whose certificate secures 127.0.0.1 (the receiver), on a bank day at 10:00, with a funded PSU. */
  async function notifiedTpp(domains: readonly string[] = ['127.0.0.1']): Promise<{ orgId: string; client: TppClient; psu: FundedPsu }> {
    const orgId = `PSDNO-FSA-${String(800_000_000 + nextTpp++)}`;
    const { client } = await server.newTpp(orgId, ['PSP_PI', 'PSP_AI'], domains);
    await setClock(client, osloDateTime(nextBankDay(), '10:00'));
    return { orgId, client, psu: await fundedPsu(client) };
  }

  /** The statuses notified for a resource, in arrival order: a transactionStatus/consentStatus, or `sca:<scaStatus>`. */
  function notifiedOf(resourceId: string): ReceivedNotification[] {
    return receiver.received.filter((notification) => notification.body.resourceId === resourceId);
  }

  function statusesOf(notifications: readonly ReceivedNotification[]): string[] {
    return notifications.map(({ body }) =>
      body.scaStatus !== undefined ? `sca:${body.scaStatus}` : (body.transactionStatus ?? body.consentStatus),
    );
  }

  async function waitForResource(resourceId: string, count: number): Promise<ReceivedNotification[]> {
    const until = Date.now() + 15_000;
    while (notifiedOf(resourceId).length < count) {
      if (Date.now() > until) throw new Error(`got ${JSON.stringify(statusesOf(notifiedOf(resourceId)))}, ${count} expected`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return notifiedOf(resourceId);
  }

  /** Every scaStatus and status change of a resource and its authorisations, in the order they were audited. */
  async function auditedChanges(db: TestServer['database']['db'], resourceId: string): Promise<string[]> {
    const rows = await db.selectFrom('audit_event').selectAll().orderBy('id').execute();
    return rows.flatMap((row) => {
      const details = JSON.parse(row.details) as { to?: string; resourceId?: string };
      if (row.action === 'authorisation.sca-status-changed' && details.resourceId === resourceId) return [`sca:${details.to}`];
      if (row.resource_id === resourceId && /\.status-changed$/.test(row.action)) return [details.to ?? ''];
      return [];
    });
  }

  it('a payment: Support true, every SCA and status change signed and in order, through approval and the batch run', async () => {
    const { client, psu } = await notifiedTpp();
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri() },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['aspsp-notification-support']).toBe('true');
    expect(response.headers['aspsp-notification-content']).toBe('status=SCA,PROCESS,LAST');
    const payment = { paymentId: response.body.paymentId as string, path: pathOf(response.headers.location as string) };

    await walk(response.body._links.scaRedirect.href as string);
    expect((await runBatch(client)).counts.executed).toBeGreaterThanOrEqual(1);

    const expected = await auditedChanges(server.database.db, payment.paymentId);
    expect(expected.filter((status) => !status.startsWith('sca:'))).toEqual(['ACTC', 'ACSP', 'ACSC']);
    expect(expected).toContain('sca:finalised');
    const notified = await waitForResource(payment.paymentId, expected.length);
    expect(statusesOf(notified)).toEqual(expected);
    for (const notification of notified) {
      expect(notification.signatureProblem).toBeUndefined();
      expect(notification.headers['x-request-id']).toBe(notification.body.notificationId);
    }
    const self = `${server.config.publicUrl}${payment.path}`;
    const executed = notified.find(({ body }) => body.transactionStatus === 'ACSC')!;
    expect(executed.body).toEqual({
      notificationId: expect.any(String),
      resourceType: 'payment',
      resourceId: payment.paymentId,
      transactionStatus: 'ACSC',
      changedAt: expect.any(String),
      _links: { self: { href: self }, status: { href: `${self}/status` } },
    });
    const finalised = notified.find(({ body }) => body.scaStatus === 'finalised')!;
    const authorisationId = finalised.body.authorisationId as string;
    expect(finalised.body._links.scaStatus).toEqual({ href: `${self}/authorisations/${authorisationId}` });
    // Nothing more: each change once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notifiedOf(payment.paymentId)).toHaveLength(expected.length);
  });

  it.each([
    ['bulk-payments', bulkBody],
    ['periodic-payments', periodicBody],
  ] as const)(
    '%s are notified as single payments are: Support true, and the subscription is kept with the payment',
    async (service, body) => {
      const { client, psu } = await notifiedTpp();
      const response = await client.post<any>(`/v1/${service}/${NDCT}`, body(psu.account), {
        headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri(service) },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.headers['aspsp-notification-support']).toBe('true');
      const paymentId = response.body.paymentId as string;
      await walk(response.body._links.scaRedirect.href as string);
      const expected = await auditedChanges(server.database.db, paymentId);
      expect(expected).toContain('sca:finalised');
      const notified = await waitForResource(paymentId, expected.length);
      expect(statusesOf(notified)).toEqual(expected);
      expect(notified[0]!.body._links.self.href).toBe(`${server.config.publicUrl}/v1/${service}/${NDCT}/${paymentId}`);
    },
  );

  it('ASPSP-Notification-Content is what the TPP preferred: status=LAST sends only the final status', async () => {
    const { client, psu } = await notifiedTpp();
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri('last'), 'tpp-notification-content-preferred': 'status=LAST' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['aspsp-notification-support']).toBe('true');
    expect(response.headers['aspsp-notification-content']).toBe('status=LAST');
    const paymentId = response.body.paymentId as string;
    await walk(response.body._links.scaRedirect.href as string);
    await runBatch(client);
    expect(statusesOf(await waitForResource(paymentId, 1))).toEqual(['ACSC']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statusesOf(notifiedOf(paymentId))).toEqual(['ACSC']);
  });

  it.each([
    ['status=SCA, process', 'status=SCA,PROCESS'],
    ['STATUS=last,SCA,last', 'status=SCA,LAST'],
  ])('TPP-Notification-Content-Preferred %j is answered %j', async (preferred, answered) => {
    const { client, psu } = await notifiedTpp();
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri(), 'tpp-notification-content-preferred': preferred },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['aspsp-notification-content']).toBe(answered);
  });

  it.each(['status=EVERYTHING', 'SCA,PROCESS', 'status='])(
    'a malformed TPP-Notification-Content-Preferred %j is 400 FORMAT_ERROR and creates nothing',
    async (preferred) => {
      const { client, psu } = await notifiedTpp();
      const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
        headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri(), 'tpp-notification-content-preferred': preferred },
      });
      expectError(response, 400, 'FORMAT_ERROR', 'TPP-Notification-Content-Preferred');
      expect(await paymentsOfDebtor(server, psu.account.bban)).toEqual([]);
    },
  );

  it('a retry with the same X-Request-ID gets the same notification headers; with another URI it is another request (409)', async () => {
    const { client, psu } = await notifiedTpp();
    const requestId = randomUUID();
    const body = ndctBody(psu.account);
    const send = (uri: string) =>
      client.post<any>(`/v1/payments/${NDCT}`, body, {
        headers: { ...psu.headers, 'x-request-id': requestId, 'tpp-notification-uri': uri },
      });
    const first = await send(receiver.uri('replayed'));
    const again = await send(receiver.uri('replayed'));
    expect(first.status, first.text).toBe(201);
    expect(again.status, again.text).toBe(201);
    expect(again.body.paymentId).toBe(first.body.paymentId);
    expect(again.headers['aspsp-notification-support']).toBe('true');
    expect(again.headers['aspsp-notification-content']).toBe('status=SCA,PROCESS,LAST');
    expectError(await send(receiver.uri('other')), 409, 'REQUEST_ID_REUSED', 'X-Request-ID');
  });

  it('a URI whose host the TPP does not hold: Support false, no Content, and nothing is ever sent', async () => {
    const { client, psu } = await notifiedTpp(['tpp.example']);
    for (const uri of [
      receiver.uri('elsewhere'),
      'https://evil.example/notify',
      'https://tpp.example.evil.example/x',
      'ftp://tpp.example/x',
    ]) {
      const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account, { remittanceInformationUnstructured: uri }), {
        headers: { ...psu.headers, 'tpp-notification-uri': uri },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.headers['aspsp-notification-support'], uri).toBe('false');
      expect(response.headers['aspsp-notification-content']).toBeUndefined();
      const paymentId = response.body.paymentId as string;
      await walk(response.body._links.scaRedirect.href as string);
      expect(await notificationRepository.ofResource(server.database.db, 'payment', paymentId)).toEqual([]);
      expect(notifiedOf(paymentId)).toEqual([]);
    }
  });

  it('a URI under the domain of the TPP certificate (subdomain, https) is accepted; none sent: no header in the answer', async () => {
    const { client, psu } = await notifiedTpp(['tpp.example']);
    const accepted = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
      headers: { ...psu.headers, 'tpp-notification-uri': 'https://hooks.tpp.example/xs2a/notifications' },
    });
    expect(accepted.headers['aspsp-notification-support']).toBe('true');
    const without = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account, { endToEndIdentification: 'plain' }), {
      headers: psu.headers,
    });
    expect(without.status).toBe(201);
    expect(without.headers['aspsp-notification-support']).toBeUndefined();
  });

  it("a URI under the domain of the TPP's registered contact is not accepted: the TPP registers it itself, it proves nothing", async () => {
    const { orgId, client, psu } = await notifiedTpp([]);
    const saved = await client.put<any>(`/v1/tpps/${orgId}/contact-information`, { email: 'psd2@contact.example' });
    expect(saved.status, saved.text).toBe(200);
    const after = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account, { endToEndIdentification: 'after' }), {
      headers: { ...psu.headers, 'tpp-notification-uri': 'https://hooks.contact.example/notify' },
    });
    expect(after.status, after.text).toBe(201);
    expect(after.headers['aspsp-notification-support']).toBe('false');
  });

  it('the endpoint down: notifications wait and are retried; once it is back each change arrives once, in order', async () => {
    const { client, psu } = await notifiedTpp();
    await receiver.down();
    try {
      const payment = await createPayment(client, 'payments', NDCT, ndctBody(psu.account), {
        ...psu.headers,
        'tpp-notification-uri': receiver.uri('retried'),
      });
      await walk(payment.links['scaRedirect']!.href);
      // Attempts are made and fail while it is down; nothing is lost.
      const until = Date.now() + 10_000;
      let rows = await notificationRepository.ofResource(server.database.db, 'payment', payment.paymentId);
      while (!rows.some((row) => row.attempts >= 2) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        rows = await notificationRepository.ofResource(server.database.db, 'payment', payment.paymentId);
      }
      expect(rows.some((row) => row.attempts >= 2)).toBe(true);
      expect(rows.every((row) => row.state === 'pending')).toBe(true);
      // Only the first of the resource is tried: a later one waits for it.
      expect(rows.slice(1).every((row) => row.attempts === 0)).toBe(true);
      expect(notifiedOf(payment.paymentId)).toEqual([]);

      await receiver.up();
      const expected = await auditedChanges(server.database.db, payment.paymentId);
      const notified = await waitForResource(payment.paymentId, expected.length);
      expect(statusesOf(notified)).toEqual(expected);
      expect(new Set(notified.map(({ body }) => body.notificationId as string)).size).toBe(expected.length);
      expect(notified.every((notification) => notification.signatureProblem === undefined)).toBe(true);
      // The last one is recorded as delivered just after the endpoint answered it.
      const recorded = Date.now() + 5_000;
      let delivered = await notificationRepository.ofResource(server.database.db, 'payment', payment.paymentId);
      while (delivered.some((row) => row.state !== 'delivered') && Date.now() < recorded) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        delivered = await notificationRepository.ofResource(server.database.db, 'payment', payment.paymentId);
      }
      expect(delivered.map((row) => row.state)).toEqual(expected.map(() => 'delivered'));
    } finally {
      await receiver.up().catch(() => undefined);
    }
  });

  it('a signing basket: its SCA and its status (derived from its payments) are notified', async () => {
    const { client, psu } = await notifiedTpp();
    const first = await explicitPayment(client, NDCT, ndctBody(psu.account), psu.headers);
    const second = await explicitPayment(client, NDCT, ndctBody(psu.account, { endToEndIdentification: 'second' }), psu.headers);
    const basket = await createBasket(client, [first.paymentId, second.paymentId], {
      ...psu.headers,
      'tpp-notification-uri': receiver.uri('basket'),
    });
    expect(basket.response.headers['aspsp-notification-support']).toBe('true');
    await walk(basket.links['scaRedirect']!.href);
    const scaChanges = (await auditedChanges(server.database.db, basket.basketId)).filter((status) => status.startsWith('sca:'));
    const notified = await waitForResource(basket.basketId, scaChanges.length + 1);
    // The payments move (and with them the basket) in the transaction that finalises its SCA.
    expect(statusesOf(notified).filter((status) => status.startsWith('sca:'))).toEqual(scaChanges);
    expect(statusesOf(notified).filter((status) => !status.startsWith('sca:'))).toEqual(['ACTC']);
    const outbox = await notificationRepository.ofResource(server.database.db, 'signing-basket', basket.basketId);
    expect(notified.map(({ body }) => body.notificationId as string)).toEqual(outbox.map((row) => row.notificationId));
    expect(notified.every(({ body }) => body.resourceType === 'signingBasket')).toBe(true);
    expect(notified.every((notification) => notification.signatureProblem === undefined)).toBe(true);
    // Executing its payments leaves the basket ACTC: nothing more for it.
    await runBatch(client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notifiedOf(basket.basketId)).toHaveLength(scaChanges.length + 1);
  });

  it('a consent: its SCA, valid, and terminatedByTpp when the TPP deletes it', async () => {
    const { client, psu } = await notifiedTpp();
    const response = await client.post<any>('/v1/consents', consentBody(detailedAccess(psu.account)), {
      headers: { ...psu.headers, 'tpp-notification-uri': receiver.uri('consent') },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['aspsp-notification-support']).toBe('true');
    const consentId = response.body.consentId as string;
    await walk(response.body._links.scaRedirect.href as string);
    expect((await client.delete<any>(`/v1/consents/${consentId}`)).status).toBe(204);
    const expected = await auditedChanges(server.database.db, consentId);
    expect(expected.filter((status) => !status.startsWith('sca:'))).toEqual(['valid', 'terminatedByTpp']);
    const notified = await waitForResource(consentId, expected.length);
    expect(statusesOf(notified)).toEqual(expected);
    expect(notified.at(-1)!.body).toMatchObject({ resourceType: 'consent', consentStatus: 'terminatedByTpp' });
  });
});

describe.each(DIALECTS)('status notifications in production mode (%s)', (dialect) => {
  let sealDir: string;
  let seal: BankSeal;
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    sealDir = mkdtempSync(join(tmpdir(), 'xs2a-bank-seal-'));
    seal = await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: sealDir, bankName: 'Fjordbanken' });
    on = await startTestServer({
      dialect,
      env: {
        ...PRODUCTION_ENV,
        XS2A_NOTIFICATIONS: 'true',
        XS2A_NOTIFICATION_SEAL_KEY_FILE: join(sealDir, 'notification-seal', 'seal-private-key.pem'),
        XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE: join(sealDir, 'notification-seal', 'seal-certificate.pem'),
      },
    });
    off = await startTestServer({ dialect, env: PRODUCTION_ENV });
  });
  afterAll(async () => {
    await on.close();
    await off.close();
    rmSync(sealDir, { recursive: true, force: true });
  });

  const PSU = { 'psu-id': IN_MEMORY_BANK_ENV.IN_MEMORY_BANK_PSU_ID };
  const debtor = { bban: IN_MEMORY_BANK_ENV.IN_MEMORY_BANK_BBAN };

  it("signs with the configured seal and publishes its certificate; plain http is refused even to the TPP's own loopback host", async () => {
    expect(await (await fetch(`${on.baseUrl}/notification-seal-certificate`)).text()).toBe(seal.certificatePem);
    const { client } = await on.newTpp('PSDNO-FSA-900000001', ['PSP_PI'], ['127.0.0.1', 'tpp.example']);
    const answer = async (uri: string) => {
      const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(debtor, { remittanceInformationUnstructured: uri }), {
        headers: { ...PSU, 'tpp-notification-uri': uri },
      });
      expect(response.status, response.text).toBe(201);
      return response.headers['aspsp-notification-support'];
    };
    expect(await answer('http://127.0.0.1:9099/notifications')).toBe('false');
    expect(await answer('https://hooks.tpp.example/notifications')).toBe('true');
  });

  it('with notifications off (the production default), a TPP-Notification-URI is ignored: no ASPSP-Notification-* header', async () => {
    const { client } = await off.newTpp('PSDNO-FSA-900000002', ['PSP_PI'], ['tpp.example']);
    const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(debtor), {
      headers: { ...PSU, 'tpp-notification-uri': 'https://hooks.tpp.example/notifications' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['aspsp-notification-support']).toBeUndefined();
    expect((await fetch(`${off.baseUrl}/notification-seal-certificate`)).status).toBe(404);
  });
});
