/**
 * What an authorisation does to its payment:
 * - approved by a PSU with the right (a private account's owner): ACTC, or PDNG when
 *   requestedExecutionDate is after today in Oslo; periodic payments always ACTC;
 * - rejected, three wrong codes, another PSU than the TPP named, a PSU without the right, or an
 *   expired link: the authorisation fails and the payment is RJCT with psuMessage "SCA failed: …";
 * - expiry (XS2A_SCA_EXPIRY_SECONDS, 900 by default) is applied when the payment, its status or the
 *   authorisation is read, when the page is opened, and by a sweep every 15 s;
 * - a cancellation authorisation approved cancels the payment (CANC); one that fails leaves it as it was.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { bulkBody, NDCT, ndctBody, periodicBody, privatePsu, type Body, type Psu, type Service } from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import {
  alertOf,
  CLOCK_ENV,
  continueHrefOf,
  createPayment,
  csrfOf,
  decide,
  enterCode,
  expectSeeOther,
  identify,
  idOfLink,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  postPage,
  scaMoves,
  scaStatusOf,
  startAuthorisation,
  storedPaymentStatus,
  storedScaStatus,
  testClock,
  walk,
  type TestClock,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };
const EXPIRED = 'The link expired before the approval was finished';

describe.each(DIALECTS)('SCA effects on payments (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let stranger: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
    stranger = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function payment(service: Service = 'payments', body: Body = ndctBody(psu.account), headers: Record<string, string> = psu.headers) {
    const created = await createPayment(server.client, service, NDCT, body, { ...URIS, ...headers });
    const link = created.links['scaRedirect']!.href;
    return { ...created, link, scaStatus: created.links['scaStatus']!.href };
  }

  async function expectStatus(path: string, expected: { transactionStatus: string; psuMessage?: string }) {
    const response = await server.client.get<any>(`${path}/status`);
    expect(response.status, response.text).toBe(200);
    expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', response.body);
    expect(response.body).toEqual(expected);
  }

  describe('approval', () => {
    it("the owner's approval of a payment due today makes it ACTC", async () => {
      const { link, path, scaStatus } = await payment('payments', ndctBody(psu.account, { requestedExecutionDate: osloDay(0) }));
      expect((await walk(link)).redirectedTo).toBe(OK_URI);
      await expectStatus(path, { transactionStatus: 'ACTC' });
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'finalised' });
    });

    it("the owner's approval of a payment without requestedExecutionDate makes it ACTC", async () => {
      const { link, path } = await payment();
      await walk(link);
      await expectStatus(path, { transactionStatus: 'ACTC' });
    });

    it('a payment due on a later date is PDNG once approved', async () => {
      const { link, path } = await payment('payments', ndctBody(psu.account, { requestedExecutionDate: osloDay(4) }));
      await walk(link);
      await expectStatus(path, { transactionStatus: 'PDNG' });
    });

    it('without a redirect URI the outcome page of a PDNG approval tells when it will be paid', async () => {
      const created = await createPayment(
        server.client,
        'payments',
        NDCT,
        ndctBody(psu.account, { requestedExecutionDate: osloDay(4) }),
        psu.headers,
      );
      const journey = await walk(created.links['scaRedirect']!.href);
      expect(journey.redirectedTo).toBeUndefined();
      expect(journey.lastPage).toContain('You have approved it. It will be paid on');
      await expectStatus(created.path, { transactionStatus: 'PDNG' });
    });

    it('a bulk payment is PDNG once approved when due later, ACTC when due today', async () => {
      const later = await payment('bulk-payments', bulkBody(psu.account, { requestedExecutionDate: osloDay(3) }));
      await walk(later.link);
      await expectStatus(later.path, { transactionStatus: 'PDNG' });
      const today = await payment('bulk-payments', bulkBody(psu.account, { requestedExecutionDate: osloDay(0) }));
      await walk(today.link);
      await expectStatus(today.path, { transactionStatus: 'ACTC' });
    });

    it('a periodic payment is ACTC once approved, although it starts later', async () => {
      const { link, path } = await payment('periodic-payments', periodicBody(psu.account, { startDate: osloDay(10) }));
      await walk(link);
      // The sandbox says it will not execute it; the TPP still sees it approved.
      await expectStatus(path, {
        transactionStatus: 'ACTC',
        psuMessage: 'Registered. The sandbox does not execute periodic payments: batch runs leave them as they are.',
      });
    });

    it("the TPP's DELETE while the PSU is on the confirmation page ends the authorisation: the approval posted from that page approves nothing and says why", async () => {
      const { link, path, scaStatus } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const confirmation = await openPage(link);
      expect((await server.client.delete<any>(path)).status).toBe(204);
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: 'The app cancelled the payment' });
      const answer = await postPage(`${link}/decision`, { csrf: csrfOf(confirmation.text), decision: 'approve' });
      expect(answer.status).toBe(200);
      expect(alertOf(answer.text)).toBe('The app cancelled the payment');
      expect(continueHrefOf(answer.text)).toBe(NOK_URI);
      await expectStatus(path, { transactionStatus: 'CANC', psuMessage: 'Cancelled by the TPP before the PSU approved it' });
    });
  });

  describe('failures reject the payment', () => {
    it('the PSU rejects: RJCT with psuMessage "SCA failed: The customer rejected it"', async () => {
      const { link, path, scaStatus } = await payment();
      expect((await walk(link, { decision: 'reject' })).redirectedTo).toBe(NOK_URI);
      await expectStatus(path, { transactionStatus: 'RJCT', psuMessage: 'SCA failed: The customer rejected it' });
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: 'The customer rejected it' });
    });

    it('three wrong codes: RJCT with psuMessage "SCA failed: The one-time code was wrong 3 times"', async () => {
      const { link, path } = await payment();
      const journey = await walk(link, { codes: ['000000'] });
      expect(journey.redirectedTo).toBeUndefined();
      expect(journey.steps).toEqual(['identify', 'code', 'code', 'code']);
      await expectStatus(path, { transactionStatus: 'RJCT', psuMessage: 'SCA failed: The one-time code was wrong 3 times' });
    });

    it('another PSU than the TPP named: the outcome page explains it, and the payment is RJCT', async () => {
      const { link, path, scaStatus } = await payment();
      const answer = await identify(link, stranger.customerNumber);
      expect(answer.status).toBe(200);
      const reason = 'Someone other than the customer the app named tried to approve it';
      expect(alertOf(answer.text)).toBe(reason);
      expect(continueHrefOf(answer.text)).toBe(NOK_URI);
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: reason });
      await expectStatus(path, { transactionStatus: 'RJCT', psuMessage: `SCA failed: ${reason}` });
    });

    it('a PSU without the right on the debtor account (no PSU named): the outcome page explains it, and the payment is RJCT', async () => {
      const { link, path, scaStatus } = await payment('payments', ndctBody(psu.account), {});
      expectSeeOther(await identify(link, stranger.customerNumber));
      expectSeeOther(await enterCode(link));
      const answer = await decide(link, 'approve');
      expect(answer.status).toBe(200);
      const reason = 'You may not approve payments from this account';
      expect(alertOf(answer.text)).toBe(reason);
      expect(continueHrefOf(answer.text)).toBe(NOK_URI);
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: reason });
      await expectStatus(path, { transactionStatus: 'RJCT', psuMessage: `SCA failed: ${reason}` });
    });

    it('the owner may approve when the TPP named no PSU', async () => {
      const { link, path } = await payment('payments', ndctBody(psu.account), {});
      await walk(link, { psuId: psu.customerNumber });
      await expectStatus(path, { transactionStatus: 'ACTC' });
    });

    it('one rejected authorisation of several rejects the payment; the others can no longer approve it', async () => {
      const { link, path } = await payment();
      const second = await startAuthorisation(server.client, path);
      await walk(link, { decision: 'reject' });
      await expectStatus(path, { transactionStatus: 'RJCT', psuMessage: 'SCA failed: The customer rejected it' });
      await walk(second.scaRedirect);
      expect(await scaStatusOf(server.client, second.scaStatus)).toMatchObject({ scaStatus: 'failed' });
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('RJCT');
    });
  });

  describe('cancellation authorisations', () => {
    async function approvedPayment() {
      const created = await payment();
      await walk(created.link);
      expect((await paymentStatusOf(server.client, created.path)).transactionStatus).toBe('ACTC');
      return created;
    }

    it('DELETE of an ACTC payment asks for a cancellation authorisation; its approval cancels the payment (CANC)', async () => {
      const { path } = await approvedPayment();
      const deleted = await server.client.delete<any>(path);
      expect(deleted.status).toBe(202);
      expect(deleted.body._links.startAuthorisation.href).toBe(`${server.config.publicUrl}${path}/cancellation-authorisations`);
      const started = await startAuthorisation(server.client, path, URIS, 'cancellation-authorisations');
      const page = await openPage(started.scaRedirect);
      expect(page.text).toContain('Cancel payment');
      expectSeeOther(await identify(started.scaRedirect, psu.customerNumber));
      expectSeeOther(await enterCode(started.scaRedirect));
      const confirmation = await openPage(started.scaRedirect);
      expect(confirmation.text).toContain('>Cancel the payment</button>');
      expect(confirmation.text).toContain('>Keep the payment</button>');
      expect(expectSeeOther(await decide(started.scaRedirect, 'approve'))).toBe(OK_URI);
      expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({ scaStatus: 'finalised' });
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('CANC');
    });

    it('a rejected cancellation authorisation leaves the payment ACTC', async () => {
      const { path } = await approvedPayment();
      const started = await startAuthorisation(server.client, path, URIS, 'cancellation-authorisations');
      expect((await walk(started.scaRedirect, { psuId: psu.customerNumber, decision: 'reject' })).redirectedTo).toBe(NOK_URI);
      expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: 'The customer rejected it' });
      await expectStatus(path, { transactionStatus: 'ACTC' });
    });

    it('a cancellation authorisation failed by three wrong codes leaves the payment ACTC', async () => {
      const { path } = await approvedPayment();
      const started = await startAuthorisation(server.client, path, {}, 'cancellation-authorisations');
      await walk(started.scaRedirect, { psuId: psu.customerNumber, codes: ['000000'] });
      expect((await scaStatusOf(server.client, started.scaStatus)).scaStatus).toBe('failed');
      await expectStatus(path, { transactionStatus: 'ACTC' });
    });

    it('a cancellation approved by a PSU without the right fails and leaves the payment ACTC', async () => {
      const { path } = await approvedPayment();
      const started = await startAuthorisation(server.client, path, {}, 'cancellation-authorisations');
      const journey = await walk(started.scaRedirect, { psuId: stranger.customerNumber });
      expect(alertOf(journey.lastPage)).toBe('You may not cancel payments from this account');
      expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({
        scaStatus: 'failed',
        psuMessage: 'You may not cancel payments from this account',
      });
      await expectStatus(path, { transactionStatus: 'ACTC' });
    });

    it('the approved payment authorisation stays finalised when the payment is cancelled', async () => {
      const { path, scaStatus } = await approvedPayment();
      const started = await startAuthorisation(server.client, path, {}, 'cancellation-authorisations');
      await walk(started.scaRedirect, { psuId: psu.customerNumber });
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('CANC');
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'finalised' });
    });
  });
});

describe.each(DIALECTS)('SCA expiry (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  let psu: Psu;
  beforeAll(async () => {
    clock = testClock();
    server = await startTestServer({ dialect, now: clock.now, env: CLOCK_ENV });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function payment(headers: Record<string, string> = URIS) {
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), { ...psu.headers, ...headers });
    const link = created.links['scaRedirect']!.href;
    return { ...created, link, id: idOfLink(link), scaStatus: created.links['scaStatus']!.href };
  }

  it('a link is still usable 899 s after it was handed out (XS2A_SCA_EXPIRY_SECONDS defaults to 900)', async () => {
    const { link, path } = await payment();
    clock.advance(899);
    expectSeeOther(await identify(link, psu.customerNumber));
    expectSeeOther(await enterCode(link));
    expect(expectSeeOther(await decide(link, 'approve'))).toBe(OK_URI);
    expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('ACTC');
  });

  it('opening the page after 900 s shows the expiry with the way back; the authorisation failed and the payment is RJCT', async () => {
    const { link, path, id, scaStatus, paymentId } = await payment();
    clock.advance(901);
    const page = await openPage(link);
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe(EXPIRED);
    expect(continueHrefOf(page.text)).toBe(NOK_URI);
    expect(await storedScaStatus(server, id)).toBe('failed');
    expect(await storedPaymentStatus(server, paymentId)).toBe('RJCT');
    expect(await scaStatusOf(server.client, scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
    expect(await paymentStatusOf(server.client, path)).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${EXPIRED}` });
    expect(await scaMoves(server, id)).toEqual([
      {
        from: 'received',
        to: 'failed',
        actorType: 'system',
        actorId: 'sca-link-expiry',
        reason: JSON.stringify({ en: EXPIRED, nb: 'Lenken utløp før godkjenningen var fullført' }),
      },
    ]);
  });

  it('reading the payment status after expiry fails the authorisation and answers RJCT', async () => {
    const { path, id, paymentId } = await payment();
    clock.advance(901);
    expect(await storedPaymentStatus(server, paymentId)).toBe('RCVD');
    expect(await paymentStatusOf(server.client, path)).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${EXPIRED}` });
    expect(await storedScaStatus(server, id)).toBe('failed');
  });

  it('reading the payment itself after expiry answers RJCT', async () => {
    const { path, paymentId } = await payment();
    clock.advance(901);
    const read = await server.client.get<any>(path);
    expect(read.status).toBe(200);
    expect(read.body.transactionStatus).toBe('RJCT');
    expect(await storedPaymentStatus(server, paymentId)).toBe('RJCT');
  });

  it('reading the authorisation after expiry answers failed with the reason in the asked language, and rejects the payment', async () => {
    const { scaStatus, paymentId } = await payment();
    clock.advance(901);
    expect(await scaStatusOf(server.client, scaStatus, 'nb')).toEqual({
      scaStatus: 'failed',
      psuMessage: 'Lenken utløp før godkjenningen var fullført',
    });
    expect(await storedPaymentStatus(server, paymentId)).toBe('RJCT');
  });

  it('a PSU half-way (identified) when the link expires: the code post shows the expiry page (not a 409), and the payment is RJCT', async () => {
    const { link, path, id } = await payment();
    expectSeeOther(await identify(link, psu.customerNumber));
    const page = await openPage(link);
    clock.advance(901);
    const answer = await postPage(`${link}/code`, { csrf: csrfOf(page.text), code: '123456' });
    expect(answer.status, answer.text).toBe(200);
    expect(alertOf(answer.text)).toBe(EXPIRED);
    expect(continueHrefOf(answer.text)).toBe(NOK_URI);
    expect(await storedScaStatus(server, id)).toBe('failed');
    expect(await paymentStatusOf(server.client, path)).toEqual({ transactionStatus: 'RJCT', psuMessage: `SCA failed: ${EXPIRED}` });
  });

  it('an expired cancellation authorisation fails and leaves the payment ACTC', async () => {
    const { link, path } = await payment();
    await walk(link);
    const started = await startAuthorisation(server.client, path, {}, 'cancellation-authorisations');
    clock.advance(901);
    expect(await scaStatusOf(server.client, started.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
    expect(await paymentStatusOf(server.client, path)).toEqual({ transactionStatus: 'ACTC' });
  });

  it('an approved payment is not touched when an unused second authorisation of it expires', async () => {
    const { link, path } = await payment();
    const spare = await startAuthorisation(server.client, path);
    await walk(link);
    clock.advance(901);
    expect(await scaStatusOf(server.client, spare.scaStatus)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
    expect(await paymentStatusOf(server.client, path)).toEqual({ transactionStatus: 'ACTC' });
  });
});

describe.each(DIALECTS)('SCA expiry with XS2A_SCA_EXPIRY_SECONDS (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  let psu: Psu;
  beforeAll(async () => {
    clock = testClock();
    server = await startTestServer({ dialect, now: clock.now, env: { ...CLOCK_ENV, XS2A_SCA_EXPIRY_SECONDS: '60' } });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it('a link expires after the configured seconds', async () => {
    const early = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    clock.advance(59);
    expect(await scaStatusOf(server.client, early.links['scaStatus']!.href)).toEqual({ scaStatus: 'received' });
    clock.advance(2);
    expect(await scaStatusOf(server.client, early.links['scaStatus']!.href)).toEqual({ scaStatus: 'failed', psuMessage: EXPIRED });
  });
});

describe.each(DIALECTS)('SCA expiry sweep (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  let psu: Psu;
  beforeAll(async () => {
    // Only the sweep's interval is faked: requests, sockets and the database keep real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    clock = testClock();
    server = await startTestServer({ dialect, now: clock.now, env: CLOCK_ENV });
    psu = await privatePsu(server.client);
  });
  afterAll(async () => {
    await server.close();
    vi.useRealTimers();
  });

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 250; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('fails expired authorisations nobody reads again every 15 s, and rejects their payments', async () => {
    const overdue = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const overdueId = idOfLink(overdue.links['scaRedirect']!.href);
    clock.advance(600);
    const fresh = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const freshId = idOfLink(fresh.links['scaRedirect']!.href);
    clock.advance(301);
    vi.advanceTimersByTime(14_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storedScaStatus(server, overdueId)).toBe('received');
    vi.advanceTimersByTime(1_000);
    await eventually(async () => (await storedPaymentStatus(server, overdue.paymentId)) === 'RJCT');
    expect(await storedScaStatus(server, overdueId)).toBe('failed');
    expect(await storedPaymentStatus(server, overdue.paymentId)).toBe('RJCT');
    expect(await storedScaStatus(server, freshId)).toBe('received');
    expect(await storedPaymentStatus(server, fresh.paymentId)).toBe('RCVD');
  });
});
