/**
 * Safe retries (docs/design.md §2): a POST repeated by the same TPP with the same X-Request-ID gets the
 * stored original answer when the body is identical and 409 REQUEST_ID_REUSED when it differs; a
 * refused or failed attempt releases the id; ids are per TPP; concurrent duplicates create one
 * resource. The route under test is registered in the signed /v1 scope and writes one audit row
 * per resource it creates, so the tests can count what was really done. Runs on every dialect.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, type SigningCredentials } from '../../src/client/request-signer.js';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { AppError } from '../../src/errors/app-error.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ORDERS = '/v1/test/orders';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface OrderBody {
  amount: string;
  /** The route refuses the order with 400 (a business refusal after the claim). */
  reject?: boolean;
  /** The route fails with a bug (500) after the claim. */
  explode?: boolean;
  /** The route takes this long before creating the order (to make retries overlap). */
  delayMs?: number;
}

describe.each(DIALECTS)('safe retries of POST (%s)', (dialect) => {
  let server: TestServer;

  /** POST /v1/test/orders: 201 with a new order id and a Location, one audit row per order. */
  async function orderRoutes(v1: FastifyInstance): Promise<void> {
    v1.post(
      '/test/orders',
      {
        schema: {
          // An API route takes only the query names it declares (a target of its own: ?channel=mobile).
          querystring: Type.Object({ channel: Type.Optional(Type.String()) }),
          body: Type.Object(
            {
              amount: Type.String({ pattern: '^[0-9]+\\.[0-9]{2}$' }),
              reject: Type.Optional(Type.Boolean()),
              explode: Type.Optional(Type.Boolean()),
              delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
            },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const body = request.body as OrderBody;
        if (body.delayMs) await sleep(body.delayMs);
        if (body.reject) throw new AppError('FORMAT_ERROR', { detail: 'the order is refused', path: 'reject' });
        if (body.explode) throw new Error('the order desk fell over');
        const orderId = randomUUID();
        const tppId = request.ctx.tpp?.id ?? '';
        await auditRepository.append(
          server.database.db,
          {
            actor: { type: 'tpp', id: tppId },
            requestId: request.ctx.requestId,
            action: 'test.order.created',
            resource: { type: 'test-order', id: orderId },
            details: { amount: body.amount },
          },
          new Date().toISOString(),
        );
        return reply
          .code(201)
          .header('location', `${server.config.publicUrl}/v1/test/orders/${orderId}`)
          .send({ orderId, amount: body.amount, tpp: tppId });
      },
    );
  }

  /** The default TPP's own credentials (a second certificate of PSDNO-FSA-123456789), for hand-made requests. */
  let credentials: SigningCredentials;

  beforeAll(async () => {
    server = await startTestServer({ dialect, extraV1Routes: orderRoutes });
    credentials = (await server.newTpp('PSDNO-FSA-123456789')).credentials;
  });
  afterAll(() => server.close());

  /** The orders created under one X-Request-ID (by any TPP). */
  async function ordersFor(requestId: string) {
    return server.database.db
      .selectFrom('audit_event')
      .select(['actor_id', 'resource_id'])
      .where('action', '=', 'test.order.created')
      .where('request_id', '=', requestId)
      .execute();
  }

  function post(client: TppClient, requestId: string, body: OrderBody, path = ORDERS): Promise<TppResponse<any>> {
    return client.post(path, body, { headers: { 'x-request-id': requestId } });
  }

  function expect409(response: TppResponse<any>, code: 'REQUEST_ID_REUSED' | 'REQUEST_IN_PROGRESS'): void {
    expect(response.status).toBe(409);
    expect(Object.keys(response.body).sort()).toEqual(['code', 'id', 'message', 'status', 'system', 'tppMessages']);
    expect(response.body).toMatchObject({ id: expect.stringMatching(UUID), system: 'nordic-xs2a', status: 409, code });
    expect(response.body.tppMessages).toEqual([{ category: 'ERROR', code, path: 'X-Request-ID', text: response.body.message }]);
    expectBerlinGroupSchema('Error409_NG_PIS', response.body);
  }

  it('answers a repeated identical POST with the stored original answer and creates one order', async () => {
    const requestId = randomUUID();
    const first = await post(server.client, requestId, { amount: '100.00' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ orderId: expect.stringMatching(UUID), amount: '100.00', tpp: 'PSDNO-FSA-123456789' });
    expect(first.headers['location']).toBe(`${server.config.publicUrl}/v1/test/orders/${first.body.orderId}`);

    for (let retry = 0; retry < 2; retry++) {
      const again = await post(server.client, requestId, { amount: '100.00' });
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(again.headers['location']).toBe(first.headers['location']);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.headers['x-request-id']).toBe(requestId);
    }
    expect(await ordersFor(requestId)).toEqual([{ actor_id: 'PSDNO-FSA-123456789', resource_id: first.body.orderId }]);
  });

  it('treats the same body under a new X-Request-ID as a new order', async () => {
    const first = await post(server.client, randomUUID(), { amount: '7.00' });
    const second = await post(server.client, randomUUID(), { amount: '7.00' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.orderId).not.toBe(first.body.orderId);
  });

  it('refuses the same X-Request-ID with a different body with 409 REQUEST_ID_REUSED, and creates nothing', async () => {
    const requestId = randomUUID();
    const first = await post(server.client, requestId, { amount: '200.00' });
    expect(first.status).toBe(201);
    const other = await post(server.client, requestId, { amount: '999.00' });
    expect409(other, 'REQUEST_ID_REUSED');
    expect(other.headers['location']).toBeUndefined();
    expect(await ordersFor(requestId)).toHaveLength(1);
    // The conflict does not disturb the stored answer.
    const replay = await post(server.client, requestId, { amount: '200.00' });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
  });

  it('refuses the same X-Request-ID and body sent to another target with 409 REQUEST_ID_REUSED', async () => {
    const requestId = randomUUID();
    expect((await post(server.client, requestId, { amount: '300.00' })).status).toBe(201);
    const elsewhere = await post(server.client, requestId, { amount: '300.00' }, `${ORDERS}?channel=mobile`);
    expect409(elsewhere, 'REQUEST_ID_REUSED');
    expect(await ordersFor(requestId)).toHaveLength(1);
  });

  it('releases the X-Request-ID of a refused attempt, so a corrected retry succeeds', async () => {
    const requestId = randomUUID();
    const refused = await post(server.client, requestId, { amount: '400.00', reject: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ code: 'FORMAT_ERROR', path: 'reject' }] });
    expect(await ordersFor(requestId)).toHaveLength(0);
    const corrected = await post(server.client, requestId, { amount: '400.00' });
    expect(corrected.status).toBe(201);
    expect(await ordersFor(requestId)).toEqual([{ actor_id: 'PSDNO-FSA-123456789', resource_id: corrected.body.orderId }]);
  });

  it('does not store a refusal: the same refused body is refused again, not replayed as if it succeeded', async () => {
    const requestId = randomUUID();
    expect((await post(server.client, requestId, { amount: '410.00', reject: true })).status).toBe(400);
    const again = await post(server.client, requestId, { amount: '410.00', reject: true });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('FORMAT_ERROR');
  });

  it('releases the X-Request-ID of a schema-invalid attempt', async () => {
    const requestId = randomUUID();
    const invalid = await post(server.client, requestId, { amount: '4.5' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.tppMessages[0]).toMatchObject({ code: 'FORMAT_ERROR', path: 'amount' });
    expect((await post(server.client, requestId, { amount: '4.50' })).status).toBe(201);
  });

  it('releases the X-Request-ID of an attempt that failed with a 500', async () => {
    const requestId = randomUUID();
    const failed = await post(server.client, requestId, { amount: '420.00', explode: true });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'SYSTEM_ERROR' });
    const retry = await post(server.client, requestId, { amount: '420.00' });
    expect(retry.status).toBe(201);
    expect(await ordersFor(requestId)).toHaveLength(1);
  });

  it('completes the order of a client that gave up waiting, and answers its retry from the store', async () => {
    const requestId = randomUUID();
    const body = Buffer.from(JSON.stringify({ amount: '430.00', delayMs: 300 }));
    const headers = signRequest(
      { method: 'POST', path: ORDERS, headers: { 'content-type': 'application/json', 'x-request-id': requestId }, body },
      credentials,
    );
    const controller = new AbortController();
    const abandoned = httpRequest(new URL(ORDERS, server.baseUrl), { method: 'POST', headers, body, signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await sleep(50);
    controller.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    await sleep(500);
    const retry = await post(server.client, requestId, { amount: '430.00', delayMs: 300 });
    expect(retry.status).toBe(201);
    const orders = await ordersFor(requestId);
    expect(orders).toEqual([{ actor_id: 'PSDNO-FSA-123456789', resource_id: retry.body.orderId }]);
  });

  it('keeps X-Request-IDs apart per TPP: another TPP may use the same one', async () => {
    const requestId = randomUUID();
    const other = await server.newTpp('PSDNO-FSA-918273645');
    const mine = await post(server.client, requestId, { amount: '500.00' });
    const theirs = await post(other.client, requestId, { amount: '500.00' });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.orderId).not.toBe(mine.body.orderId);
    expect(theirs.body.tpp).toBe('PSDNO-FSA-918273645');
    // ... and each gets its own answer back on retry, never the other's.
    const theirRetry = await post(other.client, requestId, { amount: '500.00' });
    expect(theirRetry.text).toBe(theirs.text);
    const myRetry = await post(server.client, requestId, { amount: '500.00' });
    expect(myRetry.text).toBe(mine.text);
    const orders = await ordersFor(requestId);
    expect(orders.map((order) => order.actor_id).sort()).toEqual(['PSDNO-FSA-123456789', 'PSDNO-FSA-918273645']);
  });

  it('creates exactly one order from 20 concurrent identical POSTs; the others get the answer or 409 REQUEST_IN_PROGRESS', async () => {
    const requestId = randomUUID();
    const body = { amount: '600.00', delayMs: 150 };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(server.client, requestId, body)));
    const created = answers.filter((answer) => answer.status === 201);
    const busy = answers.filter((answer) => answer.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of created) {
      expect(answer.text).toBe(created[0]?.text);
      expect(answer.headers['location']).toBe(created[0]?.headers['location']);
    }
    for (const answer of busy) {
      expect409(answer, 'REQUEST_IN_PROGRESS');
    }
    const orders = await ordersFor(requestId);
    expect(orders).toHaveLength(1);
    expect(orders[0]?.resource_id).toBe(created[0]?.body.orderId);
    // Once the first has finished, a late retry gets the stored answer.
    const late = await post(server.client, requestId, body);
    expect(late.status).toBe(201);
    expect(late.text).toBe(created[0]?.text);
  });

  it('creates one order from concurrent identical POSTs that do not wait in the handler', async () => {
    const requestId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(server.client, requestId, { amount: '650.00' })));
    expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
    expect(await ordersFor(requestId)).toHaveLength(1);
  });
});
