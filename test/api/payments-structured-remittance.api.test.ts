/**
 * The deprecated `remittanceInformationStructured` (docs/design.md §2): a payment of any service may
 * carry its KID there or in `remittanceInformationStructuredArray`, never in both (400 FORMAT_ERROR,
 * nothing created); it is stored and answered on GET in the array only; the same KID in either
 * field is the same payment for the logical-duplicate rule; the served OpenAPI document marks the
 * single field deprecated.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  bulkItem,
  created,
  crossBorderBody,
  expectError,
  INDCTS,
  initiate,
  NDCT,
  NCBCT,
  ndctBody,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  SCT,
  sctBody,
  type Body,
  type Psu,
  type Service,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const KID = { reference: '1234567890128', referenceType: 'SCOR' };
const SINGLE = { remittanceInformationUnstructured: undefined, remittanceInformationStructured: KID };
const ARRAY = { remittanceInformationUnstructured: undefined, remittanceInformationStructuredArray: [KID] };

describe.each(DIALECTS)('structured remittance (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let euro: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
    euro = await privatePsu(server.client, 'EUR');
  });
  afterAll(() => server.close());

  /** Each service and product, with a valid body carrying `remittance` where its transfers carry it. */
  const KINDS: [string, Service, string, (remittance: Body) => Body][] = [
    ['NDCT', 'payments', NDCT, (r) => ndctBody(psu.account, r)],
    ['INDCTS', 'payments', INDCTS, (r) => ndctBody(psu.account, r)],
    ['NCBCT', 'payments', NCBCT, (r) => crossBorderBody(psu.account, r)],
    ['SCT', 'payments', SCT, (r) => sctBody(euro.account, r)],
    ['bulk NDCT', 'bulk-payments', NDCT, (r) => bulkBody(psu.account, { payments: [bulkItem(r), bulkItem()] })],
    ['periodic NDCT', 'periodic-payments', NDCT, (r) => periodicBody(psu.account, r)],
  ];
  const headersOf = (product: string) => (product === SCT ? euro.headers : psu.headers);
  /** The transfer of a GET answer that carries the remittance: the body, or a bulk's first payment. */
  const transferOf = (service: Service, body: any) => (service === 'bulk-payments' ? body.payments[0] : body);

  it.each(KINDS)(
    '%s: a KID sent in remittanceInformationStructured is answered in remittanceInformationStructuredArray',
    async (_name, service, product, body) => {
      const payment = await created(initiate(server.client, service, product, body(SINGLE), { headers: headersOf(product) }));
      const read = await server.client.get<any>(payment.path);
      expect(read.status, read.text).toBe(200);
      const transfer = transferOf(service, read.body);
      expect(transfer).not.toHaveProperty('remittanceInformationStructured');
      expect(transfer.remittanceInformationStructuredArray).toEqual([KID]);
      if (service === 'payments') expectBerlinGroupSchema('paymentInitiationWithStatusResponse', read.body);
      if (service === 'bulk-payments') expect(read.body.payments[1]).not.toHaveProperty('remittanceInformationStructuredArray');
    },
  );

  it.each(KINDS)('%s: the array is answered as sent', async (_name, service, product, body) => {
    const payment = await created(initiate(server.client, service, product, body(ARRAY), { headers: headersOf(product) }));
    const transfer = transferOf(service, (await server.client.get<any>(payment.path)).body);
    expect(transfer).not.toHaveProperty('remittanceInformationStructured');
    expect(transfer.remittanceInformationStructuredArray).toEqual([KID]);
  });

  it.each(KINDS)(
    '%s: both at once are refused with 400 FORMAT_ERROR naming the array, and nothing is created',
    async (_name, service, product, body) => {
      const requestId = randomUUID();
      const response = await initiate(server.client, service, product, body({ ...SINGLE, ...ARRAY }), {
        headers: headersOf(product),
        requestId,
      });
      expectError(
        response,
        400,
        'FORMAT_ERROR',
        `${service === 'bulk-payments' ? 'payments[0].' : ''}remittanceInformationStructuredArray`,
      );
      expect(response.body.tppMessages[0].text).toContain('replaces (deprecated)');
      expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    },
  );

  it.each(KINDS)('%s: a KID failing MOD10 and MOD11 is refused in either field', async (_name, service, product, body) => {
    const bad = { reference: '12345', referenceType: 'SCOR' };
    const prefix = service === 'bulk-payments' ? 'payments[0].' : '';
    const single = await initiate(server.client, service, product, body({ ...SINGLE, remittanceInformationStructured: bad }), {
      headers: headersOf(product),
    });
    expectError(single, 400, 'FORMAT_ERROR', `${prefix}remittanceInformationStructured.reference`);
    const array = await initiate(server.client, service, product, body({ ...ARRAY, remittanceInformationStructuredArray: [bad] }), {
      headers: headersOf(product),
    });
    expectError(array, 400, 'FORMAT_ERROR', `${prefix}remittanceInformationStructuredArray[0].reference`);
  });

  it('the same KID in either field is the same payment: the second is a logical duplicate', async () => {
    const first = ndctBody(psu.account, SINGLE);
    await created(initiate(server.client, 'payments', NDCT, first, { headers: psu.headers }));
    const again = { ...first, remittanceInformationStructured: undefined, remittanceInformationStructuredArray: [KID] };
    expectError(await initiate(server.client, 'payments', NDCT, again, { headers: psu.headers }), 400, 'PAYMENT_FAILED');
    await created(initiate(server.client, 'payments', NDCT, again, { headers: psu.headers, query: 'allowLogicalDuplicate=true' }));
  });

  it('a payment stored by an earlier server with its KID in the single field is still the same payment', async () => {
    const first = ndctBody(psu.account, { remittanceInformationUnstructured: undefined, remittanceInformationStructured: KID });
    const { paymentId } = await created(initiate(server.client, 'payments', NDCT, first, { headers: psu.headers }));
    // The fingerprint as the server stored it before both fields were read as the array.
    const creditor = (first['creditorAccount'] as { bban: string }).bban;
    const earlier = createHash('sha256')
      .update(JSON.stringify(['payments', NDCT, psu.account.bban, creditor, '100.33', 'NOK', osloDay(), [null, KID.reference, null]]))
      .digest('base64url');
    await server.database.db.updateTable('payment').set({ logical_key: earlier }).where('id', '=', paymentId).execute();
    const again = { ...first, remittanceInformationStructured: undefined, remittanceInformationStructuredArray: [KID] };
    expectError(await initiate(server.client, 'payments', NDCT, again, { headers: psu.headers }), 400, 'PAYMENT_FAILED');
  });

  it('marks remittanceInformationStructured deprecated in /openapi.json for every initiation body, the array not', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: any }> } } }>;
    };
    for (const [name, service, product] of KINDS) {
      const schema = document.paths[`/v1/${service}/${product}`]?.post?.requestBody.content['application/json']?.schema;
      expect(schema, name).toBeDefined();
      const transfer = service === 'bulk-payments' ? (schema.payments ?? schema.properties.payments.items) : schema;
      expect(transfer.properties.remittanceInformationStructured.deprecated, name).toBe(true);
      expect(transfer.properties.remittanceInformationStructuredArray.deprecated, name).toBeUndefined();
    }
  });
});
