/**
 * What a real TPP's tooling sends is served (the Norwegian bank's own public collection, run
 * through a signing proxy, sends all of these):
 * - member names that differ from the Berlin Group names only in letter case (`StartDate`,
 *   `InstructionIdentification`) are read as the defined names; the same member under both
 *   spellings is refused, naming the extra one;
 * - `instructionIdentification`, a Berlin Group field, is kept and read back;
 * - a GET that carries a body (Postman keeps one) is verified against the Digest of the bytes
 *   sent, and the body means nothing.
 */
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/client/request-signer.js';
import {
  bulkBody,
  bulkItem,
  created,
  expectError,
  initiate,
  NDCT,
  ndctBody,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  type Psu,
} from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('member names in another letter case', () => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer();
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it('creates a periodic payment sent with StartDate and reads it back as startDate', async () => {
    const { startDate, ...rest } = periodicBody(psu.account);
    const payment = await created(
      initiate(server.client, 'periodic-payments', NDCT, { ...rest, StartDate: startDate }, { headers: psu.headers }),
    );
    const read = await server.client.get<any>(payment.path);
    expect(read.status, read.text).toBe(200);
    expect(read.body.startDate).toBe(startDate);
    expect(read.body).not.toHaveProperty('StartDate');
  });

  it('creates a bulk whose items carry InstructionIdentification, kept as instructionIdentification', async () => {
    const body = bulkBody(psu.account, {
      payments: [bulkItem({ InstructionIdentification: 'instr-1' }), bulkItem({ instructionIdentification: 'instr-2' })],
    });
    const payment = await created(initiate(server.client, 'bulk-payments', NDCT, body, { headers: psu.headers }));
    const read = await server.client.get<any>(payment.path);
    expect(read.status, read.text).toBe(200);
    expect(read.body.payments.map((item: any) => item.instructionIdentification)).toEqual(['instr-1', 'instr-2']);
  });

  it('reads nested names in another case too (debtorAccount.BBAN, instructedAmount.Amount)', async () => {
    const body = ndctBody(psu.account, {
      debtorAccount: { BBAN: psu.account.bban },
      instructedAmount: { Currency: 'NOK', Amount: '12.00' },
    });
    const payment = await created(initiate(server.client, 'payments', NDCT, body, { headers: psu.headers }));
    const read = await server.client.get<any>(payment.path);
    expect(read.body).toMatchObject({ debtorAccount: { bban: psu.account.bban }, instructedAmount: { currency: 'NOK', amount: '12.00' } });
  });

  it('refuses a member given under both spellings (400 FORMAT_ERROR naming the extra one) and stores nothing', async () => {
    const body = periodicBody(psu.account);
    const requestId = crypto.randomUUID();
    const response = await initiate(
      server.client,
      'periodic-payments',
      NDCT,
      { ...body, StartDate: body.startDate },
      {
        headers: psu.headers,
        requestId,
      },
    );
    expectError(response, 400, 'FORMAT_ERROR', 'StartDate');
    expect(await paymentsOfRequest(server, requestId)).toEqual([]);
  });

  it('still refuses a name that is no field in any letter case', async () => {
    const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account, { StartDat: '2030-01-01' }), {
      headers: psu.headers,
    });
    expectError(response, 400, 'FORMAT_ERROR', 'StartDat');
  });

  it('refuses an instructionIdentification longer than 35', async () => {
    const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account, { instructionIdentification: 'x'.repeat(36) }), {
      headers: psu.headers,
    });
    expectError(response, 400, 'FORMAT_ERROR', 'instructionIdentification');
  });
});

describe('a GET with a body', () => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer();
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it('is served when its Digest covers the body sent; the body (not even JSON) is ignored', async () => {
    const payment = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const response = await server.client.call<any>('GET', `${payment.path}/status`, { body: Buffer.from('{ "paymentIds": {{x}} }') });
    expect(response.status, response.text).toBe(200);
    expect(response.body.transactionStatus).toBe('RCVD');
  });

  it('is refused (401) when the Digest is of another body than the one sent', async () => {
    const payment = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const { credentials } = await server.newTpp('PSDNO-FSA-720000001');
    const path = `${payment.path}/status`;
    const headers = signRequest(
      { method: 'GET', path, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') },
      credentials,
    );
    const response = await httpRequest(`${server.baseUrl}${path}`, { method: 'GET', headers, body: '{"other":1}' });
    expect(response.statusCode).toBe(401);
    expect(await response.body.json()).toMatchObject({ code: 'SIGNATURE_INVALID' });
  });
});
