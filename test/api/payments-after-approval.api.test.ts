/**
 * What a TPP sees once a payment has moved past RCVD. The SCA and batch-run issues move payments
 * there through the API; here the status is moved with the one transition function, as they will.
 * - DELETE of an approved payment (ACTC, PATC, ACCP): 202 with `_links.startAuthorisation`, the
 *   status unchanged; PDNG and final statuses: 405 CANCELLATION_INVALID;
 * - the status resource shows `fundsAvailable` once a funds check has happened, and `psuMessage`
 *   with the reason of a rejection;
 * - a payment rejected or cancelled no longer blocks an equal one (logical duplicates are live only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transitionPayment, type StatusChange } from '../../src/modules/payments/payment-transition.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { TransactionStatus } from '../../src/modules/payments/payment-status.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ORG = 'PSDNO-FSA-123456789';

describe.each(DIALECTS)('payments after approval (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function create(body = ndctBody(psu.account)) {
    const response = await server.client.post<any>(`/v1/payments/${NDCT}`, body, { headers: psu.headers });
    expect(response.status).toBe(201);
    return { id: response.body.paymentId as string, path: new URL(response.headers.location as string).pathname, body };
  }

  /** Moves a payment along `steps` with the transition function, as SCA and batch runs do. */
  async function move(id: string, steps: readonly TransactionStatus[], last: Partial<StatusChange> = {}) {
    for (const [index, to] of steps.entries()) {
      const payment = await paymentRepository.find(server.database.db, ORG, 'payments', id);
      if (!payment) throw new Error(`payment ${id} not found`);
      await transitionPayment(server.database.db, payment, {
        to,
        actor: { type: 'system', id: 'test' },
        at: new Date().toISOString(),
        ...(index === steps.length - 1 ? last : {}),
      });
    }
  }

  it.each([
    ['ACTC', ['ACTC']],
    ['PATC', ['PATC']],
    ['ACCP', ['ACTC', 'ACCP']],
  ] as const)('DELETE of a %s payment: 202 with startAuthorisation, status unchanged', async (status, steps) => {
    const payment = await create();
    await move(payment.id, steps);
    const response = await server.client.delete<any>(payment.path);
    expect(response.status).toBe(202);
    expectBerlinGroupSchema('paymentInitiationCancelResponse-202', response.body);
    const self = `${server.config.publicUrl}${payment.path}`;
    expect(response.body).toEqual({
      transactionStatus: status,
      _links: {
        self: { href: self },
        status: { href: `${self}/status` },
        startAuthorisation: { href: `${self}/cancellation-authorisations` },
      },
    });
    expect((await server.client.get<any>(`${payment.path}/status`)).body.transactionStatus).toBe(status);
  });

  it.each([
    ['PDNG', ['PDNG'], 'PDNG'],
    ['ACSC', ['ACTC', 'ACSP', 'ACSC'], 'final'],
    ['RJCT', ['RJCT'], 'final'],
  ] as const)('DELETE of a %s payment: 405 CANCELLATION_INVALID with Allow: GET, HEAD, nothing changes', async (status, steps, why) => {
    const payment = await create();
    await move(payment.id, steps);
    const response = await server.client.delete<any>(payment.path);
    expect(response.status).toBe(405);
    expect(response.body.code).toBe('CANCELLATION_INVALID');
    expect(response.headers['allow']).toBe('GET, HEAD');
    expect(response.body.message).toContain(why);
    expect((await server.client.get<any>(`${payment.path}/status`)).body.transactionStatus).toBe(status);
  });

  it('the status shows fundsAvailable once funds were checked, and the reason of a rejection', async () => {
    const payment = await create();
    const before = await server.client.get<any>(`${payment.path}/status`);
    expect(before.body).toEqual({ transactionStatus: 'RCVD' });
    await move(payment.id, ['ACTC', 'ACCP'], { fundsAvailable: false });
    const lacking = await server.client.get<any>(`${payment.path}/status`);
    expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', lacking.body);
    expect(lacking.body).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
    await move(payment.id, ['RJCT'], { reason: 'Not enough funds by the last batch run of the day' });
    const rejected = await server.client.get<any>(`${payment.path}/status`);
    expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', rejected.body);
    expect(rejected.body).toEqual({
      transactionStatus: 'RJCT',
      fundsAvailable: false,
      psuMessage: 'Not enough funds by the last batch run of the day',
    });
  });

  it("a bank's rejection reason longer than 500 characters is read cut to the Berlin Group's psuMessage length", async () => {
    const payment = await create();
    const reason = `Not executed: ${'the bank explains at length '.repeat(40)}`;
    await move(payment.id, ['ACTC', 'RJCT'], { reason });
    const rejected = await server.client.get<any>(`${payment.path}/status`);
    expect(rejected.status, rejected.text).toBe(200);
    // psuMessageText: maxLength 500.
    expectBerlinGroupSchema('paymentInitiationStatusResponse-200_json', rejected.body);
    expect(rejected.body.psuMessage).toMatch(/^Not executed: the bank explains at length .*…$/);
    expect(reason.startsWith(rejected.body.psuMessage.slice(0, -1))).toBe(true);
  });

  it('an equal payment is refused while the first is live and accepted once it is rejected', async () => {
    const first = await create();
    const again = await server.client.post<any>(`/v1/payments/${NDCT}`, first.body, { headers: psu.headers });
    expect(again.status).toBe(400);
    expect(again.body.tppMessages[0].text).toContain(first.id);
    await move(first.id, ['ACTC']);
    expect((await server.client.post<any>(`/v1/payments/${NDCT}`, first.body, { headers: psu.headers })).status).toBe(400);
    await move(first.id, ['RJCT']);
    expect((await server.client.post<any>(`/v1/payments/${NDCT}`, first.body, { headers: psu.headers })).status).toBe(201);
  });
});
