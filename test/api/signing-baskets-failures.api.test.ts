/**
 * Signing baskets when things go wrong underneath (issue 6):
 * - the bank's core system failing during a basket creation answers 500 SYSTEM_ERROR with an id
 *   and no message, and changes nothing: the payments can be put in a basket afterwards;
 * - two baskets created at the same moment with the same payment: exactly one gets it, the other
 *   is 409 REFERENCE_STATUS_INVALID and leaves its other payments free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreBanking } from '../../src/bank/core-banking.port.js';
import { createBasket, explicitPayment, postBasket } from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('signing baskets when things fail (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let bankDown = false;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      coreBanking: (sandbox): CoreBanking => ({
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
});
