/**
 * No duplicate payments (docs/design.md §2): a POST repeated with the same X-Request-ID and body gets the
 * stored answer and creates nothing more, with another body it is 409 REQUEST_ID_REUSED, and
 * concurrent repeats create exactly one payment. A payment equal to a live one of the same TPP
 * (debtor, creditor, amount, date, remittance) is refused unless allowLogicalDuplicate=true; a
 * cancelled one no longer counts. Periodic payments have no such rule.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  created,
  expectError,
  initiate,
  NDCT,
  ndctBody,
  paymentsOfDebtor,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  SCT,
  sctBody,
  type Body,
  type Psu,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('payment retries and duplicates (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  /** Each test its own PSU and account, so counting the payments of the debtor counts this test's. */
  const freshPsu = () => privatePsu(server.client);
  const post = (psu: Psu, body: Body, options: { requestId?: string; query?: string } = {}) =>
    initiate(server.client, 'payments', NDCT, body, { headers: psu.headers, ...options });

  describe('X-Request-ID', () => {
    it('answers the same id and body again with the same 201 body and Location, creating one payment', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      const requestId = randomUUID();
      const first = await post(psu, body, { requestId });
      expect(first.status, first.text).toBe(201);
      const second = await post(psu, body, { requestId });
      expect(second.status, second.text).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(second.headers.location).toBe(first.headers.location);
      expect(second.headers['aspsp-sca-approach']).toBe('REDIRECT');
      expect(await paymentsOfRequest(server, requestId)).toEqual([first.body.paymentId]);

      // A fresh id without allowLogicalDuplicate is a logical duplicate; with it, a second payment.
      expectError(await post(psu, body), 400, 'PAYMENT_FAILED');
      const third = await created(post(psu, body, { query: 'allowLogicalDuplicate=true' }));
      expect(third.paymentId).not.toBe(first.body.paymentId);
      expect((await paymentsOfDebtor(server, psu.account.bban)).sort()).toEqual([first.body.paymentId, third.paymentId].sort());
    });

    it('refuses the same id with another body with 409 REQUEST_ID_REUSED, creating nothing', async () => {
      const psu = await freshPsu();
      const requestId = randomUUID();
      const first = await created(post(psu, ndctBody(psu.account), { requestId }));
      const other = await post(psu, ndctBody(psu.account, { instructedAmount: { currency: 'NOK', amount: '999.00' } }), { requestId });
      expectError(other, 409, 'REQUEST_ID_REUSED', 'X-Request-ID');
      expect(await paymentsOfDebtor(server, psu.account.bban)).toEqual([first.paymentId]);
    });

    it('refuses the same id on another product (another path: a replay) with 400 FORMAT_ERROR, creating nothing', async () => {
      const psu = await freshPsu();
      const requestId = randomUUID();
      const first = await created(post(psu, ndctBody(psu.account), { requestId }));
      const other = await initiate(server.client, 'payments', SCT, sctBody(psu.account), { headers: psu.headers, requestId });
      expectError(other, 400, 'FORMAT_ERROR', 'X-Request-ID');
      expect(await paymentsOfDebtor(server, psu.account.bban)).toEqual([first.paymentId]);
    });

    it.each([
      ['an NDCT', 'payments', ''],
      ['an NDCT with allowLogicalDuplicate=true', 'payments', 'allowLogicalDuplicate=true'],
      ['a bulk', 'bulk-payments', ''],
      ['a periodic payment', 'periodic-payments', ''],
    ] as const)('creates exactly one payment from 10 parallel posts of %s with one X-Request-ID', async (_, service, query) => {
      const psu = await freshPsu();
      const body =
        service === 'payments' ? ndctBody(psu.account) : service === 'bulk-payments' ? bulkBody(psu.account) : periodicBody(psu.account);
      const requestId = randomUUID();
      const send = () => initiate(server.client, service, NDCT, body, { headers: { ...psu.headers, 'x-request-id': requestId }, query });
      const answers = await Promise.all(Array.from({ length: 10 }, send));
      for (const answer of answers) {
        // Each answer is the one payment's 201, or "still in progress"; never a duplicate refusal or a 500.
        expect([201, 409], answer.text).toContain(answer.status);
        if (answer.status === 409) expect(answer.body.code).toBe('REQUEST_IN_PROGRESS');
      }
      const ids = new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.body.paymentId as string));
      expect(ids.size).toBe(1);
      expect(await paymentsOfRequest(server, requestId)).toEqual([...ids]);
      expect(await paymentsOfDebtor(server, psu.account.bban)).toEqual([...ids]);
      // Once settled, a retry gets the one answer.
      const retry = await send();
      expect(retry.status).toBe(201);
      expect(retry.body.paymentId).toBe([...ids][0]);
    });

    it('creates one payment from 10 parallel posts of one body under different ids (the duplicate rule holds under load)', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(psu, body)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
      for (const answer of answers.filter((a) => a.status === 400)) expect(answer.body.code).toBe('PAYMENT_FAILED');
      expect(await paymentsOfDebtor(server, psu.account.bban)).toHaveLength(1);
    });

    it('accepts a corrected request with the X-Request-ID of a refused one', async () => {
      const psu = await freshPsu();
      const requestId = randomUUID();
      const refused = await post(psu, ndctBody(psu.account, { instructedAmount: { currency: 'NOK', amount: '1.234' } }), { requestId });
      expectError(refused, 400, 'FORMAT_ERROR', 'instructedAmount.amount');
      const corrected = await created(post(psu, ndctBody(psu.account), { requestId }));
      expect(await paymentsOfRequest(server, requestId)).toEqual([corrected.paymentId]);
    });

    it('accepts the same X-Request-ID from another TPP as a different request', async () => {
      const psu = await freshPsu();
      const requestId = randomUUID();
      const mine = await created(post(psu, ndctBody(psu.account), { requestId }));
      const other = await server.newTpp('PSDNO-FSA-019283746');
      const theirPsu = await privatePsu(other.client);
      const theirs = await created(
        initiate(other.client, 'payments', NDCT, ndctBody(theirPsu.account), { headers: theirPsu.headers, requestId }),
      );
      expect(theirs.paymentId).not.toBe(mine.paymentId);
    });
  });

  describe('logical duplicates', () => {
    it('refuses an equal payment under a fresh X-Request-ID with 400 PAYMENT_FAILED naming the first paymentId', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account, { requestedExecutionDate: osloDay(5) });
      const first = await created(post(psu, body));
      const duplicate = await post(psu, body);
      expectError(duplicate, 400, 'PAYMENT_FAILED');
      expect(duplicate.body.message).toContain(first.paymentId);
      expect(duplicate.body.tppMessages[0].text).toContain('allowLogicalDuplicate');
      expect(await paymentsOfDebtor(server, psu.account.bban)).toEqual([first.paymentId]);
    });

    it('accepts it with ?allowLogicalDuplicate=true, and refuses ?allowLogicalDuplicate=maybe', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      await created(post(psu, body));
      expectError(await post(psu, body, { query: 'allowLogicalDuplicate=maybe' }), 400, 'FORMAT_ERROR', 'allowLogicalDuplicate');
      await created(post(psu, body, { query: 'allowLogicalDuplicate=true' }));
      expectError(await post(psu, body, { query: 'allowLogicalDuplicate=false' }), 400, 'PAYMENT_FAILED');
    });

    it.each([
      ['another amount', { instructedAmount: { currency: 'NOK', amount: '100.34' } }],
      ['another date', { requestedExecutionDate: osloDay(6) }],
      ['another message', { remittanceInformationUnstructured: 'Kredittrente 2' }],
      [
        'a KID instead of the message',
        { remittanceInformationUnstructured: undefined, remittanceInformationStructured: { reference: '12344' } },
      ],
    ])('accepts a payment that differs only in %s', async (_, change) => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      await created(post(psu, body));
      await created(post(psu, { ...body, ...change }));
    });

    it('takes the creditor by bban and by the same account as iban as equal', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account, { creditorAccount: { bban: '86011117947' } });
      await created(post(psu, body));
      expectError(await post(psu, { ...body, creditorAccount: { iban: 'NO9386011117947' } }), 400, 'PAYMENT_FAILED');
    });

    it('accepts an equal payment again once the first is cancelled', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      const first = await created(post(psu, body));
      expect((await server.client.delete(first.path)).status).toBe(204);
      const again = await created(post(psu, body));
      expect(again.paymentId).not.toBe(first.paymentId);
    });

    it('does not count an equal payment of another TPP', async () => {
      const psu = await freshPsu();
      const body = ndctBody(psu.account);
      await created(post(psu, body));
      const other = await server.newTpp('PSDNO-FSA-019283747');
      const theirPsu = await privatePsu(other.client);
      const theirBody = { ...body, debtorAccount: { bban: theirPsu.account.bban } };
      await created(initiate(other.client, 'payments', NDCT, theirBody, { headers: theirPsu.headers }));
    });

    it('applies the same rule to bulk payments, with allowLogicalDuplicate and after cancellation', async () => {
      const psu = await freshPsu();
      const body = bulkBody(psu.account);
      const bulk = (query?: string) => initiate(server.client, 'bulk-payments', NDCT, body, { headers: psu.headers, query });
      const first = await created(bulk());
      const duplicate = await bulk();
      expectError(duplicate, 400, 'PAYMENT_FAILED');
      expect(duplicate.body.message).toContain(first.paymentId);
      const allowed = await created(bulk('allowLogicalDuplicate=true'));
      expect((await server.client.delete(first.path)).status).toBe(204);
      expect((await server.client.delete(allowed.path)).status).toBe(204);
      await created(bulk());
    });

    it('accepts two equal periodic payments', async () => {
      const psu = await freshPsu();
      const body = periodicBody(psu.account);
      const first = await created(initiate(server.client, 'periodic-payments', NDCT, body, { headers: psu.headers }));
      const second = await created(initiate(server.client, 'periodic-payments', NDCT, body, { headers: psu.headers }));
      expect(second.paymentId).not.toBe(first.paymentId);
    });
  });
});
