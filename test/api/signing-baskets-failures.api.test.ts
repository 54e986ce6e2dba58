/**
 * Signing baskets when things go wrong underneath:
 * - the bank's core system failing during a basket creation answers 500 SYSTEM_ERROR with an id
 *   and no message, and changes nothing: the payments can be put in a basket afterwards;
 * - two baskets created at the same moment with the same payment: exactly one gets it, the other
 *   is 409 REFERENCE_STATUS_INVALID and leaves its other payments free; also when they list shared
 *   payments in opposite orders (no deadlock, no 500);
 * - the same creation sent twice at once with one X-Request-ID: both answer the one basket;
 * - a DELETE racing the PSU's approval: never a 500, and either the basket is deleted with its
 *   payments untouched, or it is approved and the DELETE is 409;
 * - a payment's own authorisation started while a basket takes the payment: either refused (409),
 *   or started first and then ended by the basket; never left open beside the basket;
 * - ids with control characters (a NUL) are 400 FORMAT_ERROR, in the body and in paths.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import { createBasket, explicitPayment, postBasket } from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { decide, enterCode, expectSeeOther, identify, paymentStatusOf } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('signing baskets when things fail (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let bankDown = false;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      coreBanking: (sandbox): SandboxCoreBanking => ({
        ...sandbox,
        findAccount: async (scope, reference) => {
          if (bankDown) throw new Error('core banking timed out');
          return sandbox.findAccount(scope, reference);
        },
      }),
    });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const payment = () => explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);

  it('a failing core system: 500 SYSTEM_ERROR without a message, and nothing changes', async () => {
    const payments = [await payment(), await payment()];
    bankDown = true;
    const failed = await postBasket(server.client, { paymentIds: payments.map((p) => p.paymentId) }, psu.headers);
    bankDown = false;
    expect(failed.status, failed.text).toBe(500);
    expect(failed.body).toMatchObject({ status: 500, code: 'SYSTEM_ERROR', tppMessages: [{ category: 'ERROR', code: 'SYSTEM_ERROR' }] });
    expect(failed.body).not.toHaveProperty('message');
    expect(await server.database.db.selectFrom('signing_basket').select('id').execute()).toEqual([]);
    const basket = await createBasket(
      server.client,
      payments.map((p) => p.paymentId),
      psu.headers,
    );
    expect(basket.response.body.transactionStatus).toBe('RCVD');
  });

  it('two baskets at once with a shared payment: one 201, one 409, and the loser leaves its other payment free', async () => {
    const [shared, first, second] = [await payment(), await payment(), await payment()];
    const answers = await Promise.all([
      postBasket(server.client, { paymentIds: [shared.paymentId, first.paymentId] }, psu.headers),
      postBasket(server.client, { paymentIds: [shared.paymentId, second.paymentId] }, psu.headers),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.status === 409)!;
    expectError(loser, 409, 'REFERENCE_STATUS_INVALID', 'paymentIds');
    const loserOther = answers[0].status === 409 ? first : second;
    const rows = await server.database.db
      .selectFrom('payment')
      .select(['id', 'basket_id'])
      .where('id', '=', loserOther.paymentId)
      .execute();
    expect(rows).toEqual([{ id: loserOther.paymentId, basket_id: null }]);
    await createBasket(server.client, [loserOther.paymentId], psu.headers);
  });

  it('two baskets listing shared payments in opposite orders at once: one 201, one 409, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b, x, y] = [await payment(), await payment(), await payment(), await payment()];
      const answers = await Promise.all([
        postBasket(server.client, { paymentIds: [a.paymentId, x.paymentId, b.paymentId] }, psu.headers),
        postBasket(server.client, { paymentIds: [b.paymentId, y.paymentId, a.paymentId] }, psu.headers),
      ]);
      expect(answers.map((answer) => answer.status).sort(), answers.map((answer) => answer.text).join('\n')).toEqual([201, 409]);
    }
  });

  it('one creation sent twice at once with the same X-Request-ID: both answers name the one basket', async () => {
    for (let round = 0; round < 5; round++) {
      const payments = [await payment(), await payment()];
      const headers = { ...psu.headers, 'x-request-id': randomUUID() };
      const body = { paymentIds: payments.map((p) => p.paymentId) };
      const answers = await Promise.all([postBasket(server.client, body, headers), postBasket(server.client, body, headers)]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(201);
      expect(answers[0].body.basketId).toBe(answers[1].body.basketId);
    }
  });

  it('a DELETE racing the approval: no 500; deleted with the payments RCVD, or approved with the DELETE refused', async () => {
    for (let round = 0; round < 6; round++) {
      const payments = [await payment(), await payment()];
      const basket = await createBasket(
        server.client,
        payments.map((p) => p.paymentId),
        psu.headers,
      );
      const link = basket.links['scaRedirect']!.href;
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const [decided, deleted] = await Promise.all([decide(link, 'approve'), server.client.delete<any>(basket.path)]);
      expect(decided.status).toBeLessThan(500);
      expect([204, 409], deleted.text).toContain(deleted.status);
      const statuses = await Promise.all(payments.map(async (p) => (await paymentStatusOf(server.client, p.path)).transactionStatus));
      const read = await server.client.get<any>(basket.path);
      if (deleted.status === 204) {
        expect(statuses).toEqual(['RCVD', 'RCVD']);
        expect(read.body.transactionStatus).toBe('CANC');
      } else {
        expectError(deleted, 409, 'REFERENCE_STATUS_INVALID');
        expect(statuses).toEqual(['ACTC', 'ACTC']);
        expect(read.body.transactionStatus).toBe('ACTC');
      }
    }
  });

  it('ids with a control character are 400 FORMAT_ERROR in the body and in paths, never a query', async () => {
    expectError(await postBasket(server.client, { paymentIds: ['a\u0000b'] }, psu.headers), 400, 'FORMAT_ERROR', 'paymentIds[0]');
    expectError(await server.client.get<any>('/v1/signing-baskets/a%00b'), 400, 'FORMAT_ERROR', 'basketId');
    expectError(await server.client.delete<any>('/v1/signing-baskets/a%00b'), 400, 'FORMAT_ERROR', 'basketId');
    expectError(await server.client.get<any>(`/v1/payments/${NDCT}/a%00b/status`), 400, 'FORMAT_ERROR', 'paymentId');
  });

  it("a payment's own authorisation racing a basket: refused, or ended by the basket; never open beside it", async () => {
    for (let round = 0; round < 6; round++) {
      const target = await payment();
      const [started, basket] = await Promise.all([
        server.client.post<any>(`${target.path}/authorisations`, undefined, { headers: psu.headers }),
        postBasket(server.client, { paymentIds: [target.paymentId] }, psu.headers),
      ]);
      expect(basket.status, basket.text).toBe(201);
      if (started.status === 201) {
        const own = await server.client.get<any>(started.body._links.scaStatus.href.replace(/^https?:\/\/[^/]+/, ''));
        expect(own.body.scaStatus).toBe('failed');
      } else {
        expectError(started, 409, 'REFERENCE_STATUS_INVALID');
      }
    }
  });
});
