/**
 * Optional Berlin Group body members (psd2-api 1.3.12), through the real server with signed
 * requests. A member the standard defines is taken where the bank can honour it (checked, stored
 * and answered like its siblings), and refused as a Berlin Group field the bank does not support
 * where it cannot (400 PARAMETER_NOT_SUPPORTED, or the basket's REFERENCE_MIX_INVALID); only a
 * name the standard does not define is refused as a misspelling.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { createBasket, explicitPayment, postBasket } from '../support/baskets.js';
import { consentBody } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  bulkItem,
  CBCT,
  created,
  expectError,
  INDCTS,
  initiate,
  NCBCT,
  NDCT,
  ndctBody,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  PRODUCTS,
  SCT,
  singleBody,
  wire,
  type Body,
  type Product,
  type Psu,
  type Service,
} from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const READ_SCHEMAS: Record<Service, string> = {
  payments: 'paymentInitiationWithStatusResponse',
  'bulk-payments': 'bulkPaymentInitiationWithStatusResponse',
  'periodic-payments': 'periodicPaymentInitiationWithStatusResponse',
};

const message = (lines: string[]) => ({ remittanceInformationUnstructured: undefined, remittanceInformationUnstructuredArray: lines });

describe.each(DIALECTS)('Berlin Group body members (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  /** Creates the payment (201, Berlin Group shaped) and answers its GET (200, Berlin Group shaped). */
  async function createAndRead(service: Service, product: string, body: Body): Promise<Record<string, unknown>> {
    const made = await created(initiate(server.client, service, product, body, { headers: psu.headers }));
    expectBerlinGroupSchema('paymentInitiationRequestResponse-201', made.response.body);
    const read = await server.client.get<any>(made.path);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema(READ_SCHEMAS[service], read.body);
    return read.body as Record<string, unknown>;
  }

  async function refused(service: Service, product: string, body: Body, code: string, path: string) {
    const requestId = randomUUID();
    const response = await initiate(server.client, service, product, body, { headers: psu.headers, requestId });
    expectError(response, 400, code, path);
    expectBerlinGroupSchema('Error400_NG_PIS', { tppMessages: response.body.tppMessages });
    expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    return response.body.tppMessages[0].text as string;
  }

  describe('taken and echoed', () => {
    it('a bulk with debtorName, and items with debtorName, creditorAgent, creditorAgentName and chargeBearer', async () => {
      const extra = { debtorName: 'Kari Nordmann', creditorAgent: 'DNBANOKKXXX', creditorAgentName: 'DNB Bank ASA', chargeBearer: 'SLEV' };
      const body = bulkBody(psu.account, { debtorName: 'Kari Nordmann', payments: [bulkItem(extra), bulkItem()] });
      const read = await createAndRead('bulk-payments', NDCT, body);
      expect(read).toEqual({ ...wire(body), transactionStatus: 'RCVD' });
    });

    it('a periodic payment with creditorAgent, creditorAgentName, chargeBearer and debtorName', async () => {
      const body = periodicBody(psu.account, {
        creditorAgent: 'DNBANOKK',
        creditorAgentName: 'DNB Bank ASA',
        chargeBearer: 'SHAR',
        debtorName: 'Kari Nordmann',
      });
      const read = await createAndRead('periodic-payments', NDCT, body);
      expect(read).toEqual({ ...wire(body), transactionStatus: 'RCVD', nextExecutionDates: expect.any(Array) });
    });

    it.each(PRODUCTS)('a %s payment with debtorName and creditorAgentName', async (product) => {
      const body = singleBody(product, psu.account, { debtorName: 'Kari Nordmann', creditorAgentName: 'Bank' });
      const read = await createAndRead('payments', product, body);
      expect(read).toMatchObject({ debtorName: 'Kari Nordmann', creditorAgentName: 'Bank' });
    });

    it.each([NDCT, INDCTS, SCT, NCBCT, CBCT] as Product[])('a %s payment with chargeBearer SLEV', async (product) => {
      const read = await createAndRead('payments', product, singleBody(product, psu.account, { chargeBearer: 'SLEV' }));
      expect(read['chargeBearer']).toBe('SLEV');
    });

    it.each([NCBCT, CBCT] as Product[])(
      'a %s payment with chargeBearer DEBT (the cross-border products let the debtor pay all)',
      async (product) => {
        const read = await createAndRead('payments', product, singleBody(product, psu.account, { chargeBearer: 'DEBT' }));
        expect(read['chargeBearer']).toBe('DEBT');
      },
    );

    it.each(PRODUCTS)(
      'a %s payment whose message is a remittanceInformationUnstructuredArray of one, answered as the message',
      async (product) => {
        const read = await createAndRead('payments', product, singleBody(product, psu.account, message(['Faktura 42'])));
        expect(read['remittanceInformationUnstructured']).toBe('Faktura 42');
        expect(read).not.toHaveProperty('remittanceInformationUnstructuredArray');
      },
    );

    it('a bulk item and a periodic payment whose message is an array of one', async () => {
      const bulk = await createAndRead('bulk-payments', NDCT, bulkBody(psu.account, { payments: [bulkItem(message(['Faktura 7']))] }));
      expect((bulk['payments'] as Body[])[0]).toMatchObject({ remittanceInformationUnstructured: 'Faktura 7' });
      const periodic = await createAndRead('periodic-payments', NDCT, periodicBody(psu.account, message(['Husleie'])));
      expect(periodic['remittanceInformationUnstructured']).toBe('Husleie');
    });

    it('an empty remittanceInformationUnstructuredArray as no message (a KID beside it is no conflict)', async () => {
      const body = ndctBody(psu.account, {
        ...message([]),
        remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }],
      });
      const read = await createAndRead('payments', NDCT, body);
      expect(read).not.toHaveProperty('remittanceInformationUnstructured');
      expect(read).not.toHaveProperty('remittanceInformationUnstructuredArray');
    });
  });

  describe('refused with what the bank does not do', () => {
    it('a bulk with requestedExecutionTime is a Berlin Group field the bank does not support', async () => {
      const text = await refused(
        'bulk-payments',
        NDCT,
        bulkBody(psu.account, { requestedExecutionTime: '2030-01-01T10:00:00Z' }),
        'PARAMETER_NOT_SUPPORTED',
        'requestedExecutionTime',
      );
      expect(text).toBe(
        'The bank does not offer this optional Berlin Group parameter: requestedExecutionTime is a Berlin Group field this bank does not support: ' +
          'the bank executes a bulk in its batch runs of the requested day: send requestedExecutionDate',
      );
    });

    it.each([
      ['payments', 'creditorId'],
      ['periodic-payments', 'creditorId'],
      ['payments', 'CreditorID'],
    ] as const)('a %s body with %s (a direct-debit field) is a Berlin Group field the bank does not support', async (service, name) => {
      const body =
        service === 'payments' ? ndctBody(psu.account, { [name]: 'DE98ZZZ09999999999' }) : periodicBody(psu.account, { [name]: 'X' });
      const text = await refused(service, NDCT, body, 'PARAMETER_NOT_SUPPORTED', name);
      expect(text).toContain(`${name} is a Berlin Group field this bank does not support: a creditor identifier`);
    });

    it('an account reference by msisdn, in a bulk item too', async () => {
      const text = await refused(
        'payments',
        NDCT,
        ndctBody(psu.account, { creditorAccount: { msisdn: '+4791234567' } }),
        'PARAMETER_NOT_SUPPORTED',
        'creditorAccount.msisdn',
      );
      expect(text).toContain('a payment names its accounts by bban or iban');
      await refused(
        'bulk-payments',
        NDCT,
        bulkBody(psu.account, { payments: [bulkItem(), bulkItem({ creditorAccount: { pan: '4925000000007788' } })] }),
        'PARAMETER_NOT_SUPPORTED',
        'payments[1].creditorAccount.pan',
      );
    });

    it.each([NDCT, INDCTS, SCT] as Product[])('a %s payment with chargeBearer DEBT or CRED', async (product) => {
      for (const chargeBearer of ['DEBT', 'CRED']) {
        const text = await refused(
          'payments',
          product,
          singleBody(product, psu.account, { chargeBearer }),
          'PARAMETER_NOT_SUPPORTED',
          'chargeBearer',
        );
        expect(text).toContain(`chargeBearer is ${chargeBearer}, which this product does not offer`);
      }
    });

    it('a message in two entries, or in the array and the plain field at once', async () => {
      const text = await refused(
        'payments',
        NDCT,
        ndctBody(psu.account, message(['Faktura 1', 'Faktura 2'])),
        'FORMAT_ERROR',
        'remittanceInformationUnstructuredArray',
      );
      expect(text).toContain('has 2 entries: a payment carries one message of at most 140 characters');
      await refused(
        'payments',
        NDCT,
        ndctBody(psu.account, { remittanceInformationUnstructuredArray: ['Faktura 1'] }),
        'FORMAT_ERROR',
        'remittanceInformationUnstructuredArray',
      );
      await refused(
        'payments',
        NDCT,
        ndctBody(psu.account, { ...message(['Faktura 1']), remittanceInformationStructuredArray: [{ reference: '12344' }] }),
        'FORMAT_ERROR',
        'remittanceInformationStructuredArray',
      );
    });

    it('a domestic creditorAgent that is not a BIC', async () => {
      await refused('payments', NDCT, ndctBody(psu.account, { creditorAgent: 'DNB' }), 'FORMAT_ERROR', 'creditorAgent');
    });
  });

  describe('a name no Berlin Group body defines', () => {
    it.each([
      ['payments', ndctBody, 'creditorNmae'],
      ['payments', ndctBody, 'requestedExecutionTime'],
      ['bulk-payments', bulkBody, 'debtorAddress'],
    ] as const)('in a %s body (%s… %s) is still refused as a misspelling', async (service, build, name) => {
      const text = await refused(service, NDCT, build(psu.account, { [name]: 'x' }), 'FORMAT_ERROR', name);
      expect(text).toBe(`The request is not well formed: ${name} is not a field of this request (check its spelling)`);
    });

    it('in a bulk item', async () => {
      const text = await refused(
        'bulk-payments',
        NDCT,
        bulkBody(psu.account, { payments: [bulkItem({ creditorId: 'x' }), bulkItem({ chargeBearr: 'SLEV' })] }),
        'FORMAT_ERROR',
        'payments[0].creditorId',
      );
      expect(text).toContain('check its spelling');
    });
  });

  describe('consents', () => {
    it.each([
      [{ allPsd2: 'allAccounts', restrictedTo: ['CACC'] }, 'access.restrictedTo'],
      [{ accounts: [{ msisdn: '+4791234567' }] }, 'access.accounts[0].msisdn'],
    ])('refuse a Berlin Group member the bank does not take (%j) as one', async (access, path) => {
      const response = await server.client.post<any>('/v1/consents', consentBody(access));
      expectError(response, 400, 'PARAMETER_NOT_SUPPORTED', path);
      expect(response.body.message).toContain(`${path} is a Berlin Group field this bank does not support`);
    });
  });

  describe('signing baskets', () => {
    it('take consentIds empty as no consents', async () => {
      const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
      const response = await postBasket(server.client, { paymentIds: [payment.paymentId], consentIds: [] }, psu.headers);
      expect(response.status, response.text).toBe(201);
      expectBerlinGroupSchema('signingBasketResponse-201', response.body);
    });

    it('refuse consent ids with 400 REFERENCE_MIX_INVALID: a basket holds payments only', async () => {
      const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
      const response = await postBasket(server.client, { paymentIds: [payment.paymentId], consentIds: ['consent-1'] }, psu.headers);
      expectError(response, 400, 'REFERENCE_MIX_INVALID', 'consentIds');
      expect(response.body.message).toContain('consentIds');
      expect(response.body.message).toContain('holds payments only');
      // The payment is still free for a basket.
      await createBasket(server.client, [payment.paymentId], psu.headers);
    });

    it('still refuse a misspelt member as one', async () => {
      const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
      const response = await postBasket(server.client, { paymentIds: [payment.paymentId], consentId: [] }, psu.headers);
      expectError(response, 400, 'FORMAT_ERROR', 'consentId');
      expect(response.body.message).toContain('check its spelling');
    });
  });
});
