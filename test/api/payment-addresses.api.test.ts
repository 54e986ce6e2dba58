/**
 * Addresses in both spellings (docs/design.md §2): every product and service takes `creditorAddress` in
 * the bank documentation's names (`street`, `buildingNumber`, `postalCode`, `city` / `townName`,
 * `country`) and in the Berlin Group's (`streetName`, `buildingNumber`, `postCode`, `townName`,
 * `country`), mixed as the TPP likes. A part given under both names with different values is a
 * 400 naming the field and stores nothing; the same value twice is accepted. The GET answers the
 * names the TPP sent, exactly. NCBCT and CBCT need the town (`city` or `townName`).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  bulkItem,
  CBCT,
  created,
  expectError,
  initiate,
  NCBCT,
  NDCT,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  PRODUCTS,
  singleBody,
  wire,
  type Body,
  type Product,
  type Psu,
  type Service,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const READ_SCHEMAS: Record<Service, string> = {
  payments: 'paymentInitiationWithStatusResponse',
  'bulk-payments': 'bulkPaymentInitiationWithStatusResponse',
  'periodic-payments': 'periodicPaymentInitiationWithStatusResponse',
};

/** Every payment kind that carries a creditorAddress: the five single products, bulk (each item) and periodic. */
const KINDS: [Service, Product][] = [
  ...PRODUCTS.map((product): [Service, Product] => ['payments', product]),
  ['bulk-payments', NDCT],
  ['periodic-payments', NDCT],
];

type Address = Record<string, string>;

/** One address in the spellings a TPP may use. */
const SPELLINGS: Record<string, Address> = {
  "the bank documentation's (street, postalCode, city)": {
    street: 'Kungsgatan',
    buildingNumber: '56',
    postalCode: '11122',
    city: 'Stockholm',
    country: 'SE',
  },
  "the periodic sample's (street, postalCode, townName)": {
    street: 'Kungsgatan',
    buildingNumber: '56',
    postalCode: '11122',
    townName: 'Stockholm',
    country: 'SE',
  },
  "the Berlin Group's (streetName, postCode, townName)": {
    streetName: 'Kungsgatan',
    buildingNumber: '56',
    postCode: '11122',
    townName: 'Stockholm',
    country: 'SE',
  },
};

const EVERY_KIND_AND_SPELLING = KINDS.flatMap(([service, product]) =>
  Object.entries(SPELLINGS).map(([spelling, address]): [Service, Product, string, Address] => [service, product, spelling, address]),
);

/** Both names of each part with different values, the field refused (its Berlin Group name), and the other name in the message. */
const CONFLICTS: [Address, string, string][] = [
  [{ street: 'Storgata', streetName: 'Kirkegata', townName: 'Oslo', country: 'NO' }, 'streetName', 'street'],
  [{ postalCode: '0155', postCode: '0150', city: 'Oslo', country: 'NO' }, 'postCode', 'postalCode'],
  [{ city: 'Oslo', townName: 'Bergen', country: 'NO' }, 'townName', 'city'],
];

describe.each(DIALECTS)('payment addresses in both spellings (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  /** A valid body of the kind with `address` as creditorAddress (in the second payment of a bulk). */
  function bodyWith(service: Service, product: Product, address: Address): Body {
    if (service === 'bulk-payments') {
      return bulkBody(psu.account, { payments: [bulkItem(), bulkItem({ creditorAddress: address })] });
    }
    if (service === 'periodic-payments') return periodicBody(psu.account, { creditorAddress: address });
    return singleBody(product, psu.account, { creditorAddress: address });
  }

  /** Where the creditorAddress of `bodyWith` is in error paths. */
  const addressPath = (service: Service) => (service === 'bulk-payments' ? 'payments[1].creditorAddress' : 'creditorAddress');

  /** Creates the payment and checks that its GET answers the body exactly as sent, in the Berlin Group shape. */
  async function createAndReadBack(service: Service, product: Product, body: Body): Promise<Body> {
    const { path, response } = await created(initiate(server.client, service, product, body, { headers: psu.headers }));
    expectBerlinGroupSchema('paymentInitiationRequestResponse-201', response.body);
    const read = await server.client.get<any>(path);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema(READ_SCHEMAS[service], read.body);
    // A Straks payment answers the fee the bank charges for it (the sandbox's default NOK 5.00).
    const extra =
      service === 'periodic-payments'
        ? { nextExecutionDates: expect.any(Array) }
        : product === 'instant-norwegian-domestic-credit-transfers-straks'
          ? { transactionFees: { currency: 'NOK', amount: '5.00' }, transactionFeeIndicator: true }
          : {};
    expect(read.body).toEqual({ ...wire(body), transactionStatus: 'RCVD', ...extra });
    return read.body as Body;
  }

  /** Sends the body, expects the refusal, and that the request stored no payment. */
  async function expectRefused(service: Service, product: Product, body: Body, path: string): Promise<any> {
    const requestId = randomUUID();
    const response = await initiate(server.client, service, product, body, { headers: psu.headers, requestId });
    expectError(response, 400, 'FORMAT_ERROR', path);
    expectBerlinGroupSchema('Error400_NG_PIS', { tppMessages: response.body.tppMessages });
    expect(response.body.message).toContain(path);
    expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    return response.body;
  }

  it.each(EVERY_KIND_AND_SPELLING)(
    '/v1/%s/%s accepts creditorAddress in %s names, and its GET answers them as sent',
    async (service, product, _, address) => {
      const read = await createAndReadBack(service, product, bodyWith(service, product, address));
      const echoed = service === 'bulk-payments' ? (read['payments'] as Body[])[1]!['creditorAddress'] : read['creditorAddress'];
      expect(echoed).toEqual(address);
    },
  );

  it.each(KINDS)('/v1/%s/%s accepts every part under both names with the same values, and answers both names', async (service, product) => {
    const address = {
      street: 'Kungsgatan',
      streetName: 'Kungsgatan',
      buildingNumber: '56',
      postalCode: '11122',
      postCode: '11122',
      city: 'Stockholm',
      townName: 'Stockholm',
      country: 'SE',
    };
    await createAndReadBack(service, product, bodyWith(service, product, address));
  });

  it.each(KINDS)(
    '/v1/%s/%s refuses postalCode and postCode with different values, naming the field; nothing stored',
    async (service, product) => {
      const address = { street: 'Kungsgatan', postalCode: '11122', postCode: '11123', city: 'Stockholm', country: 'SE' };
      const path = `${addressPath(service)}.postCode`;
      const refusal = await expectRefused(service, product, bodyWith(service, product, address), path);
      expect(refusal.message).toContain('postalCode');
    },
  );

  it.each(CONFLICTS)(
    'refuses %j at creditorAddress.%s (the other name, %s, in the message); nothing stored',
    async (address, field, other) => {
      const refusal = await expectRefused('payments', NDCT, bodyWith('payments', NDCT, address), `creditorAddress.${field}`);
      expect(refusal.message).toContain(other);
    },
  );

  it('refuses a conflict also where the part differs only in case: what the bank stores must mean one thing', async () => {
    await expectRefused(
      'payments',
      CBCT,
      bodyWith('payments', CBCT, { city: 'Stockholm', townName: 'STOCKHOLM', country: 'SE' }),
      'creditorAddress.townName',
    );
  });

  // §4.7 of the bank's documentation, with a sandbox debtor and dates from today: the address in
  // street, postalCode and townName, refused before this change, is created and read back as sent.
  it("accepts the requirement's periodic NDCT example body (street, postalCode, townName) with 201", async () => {
    const debtor = await privatePsu(server.client);
    const body: Body = {
      instructedAmount: { amount: '100.23', currency: 'NOK' },
      creditorName: 'Company 123',
      creditorAccount: { bban: '95360573002', iban: 'NO0995360573002', currency: 'NOK' },
      creditorAddress: { street: 'Street', buildingNumber: '56', postalCode: '7014', townName: 'Trondheim', country: 'NO' },
      debtorAccount: { bban: debtor.account.bban, iban: debtor.account.iban, currency: 'NOK' },
      ultimateDebtor: 'Company CBA',
      remittanceInformationUnstructured: 'Kredittrente',
      startDate: osloDay(7),
      executionRule: 'following',
      endDate: osloDay(7 + 730),
      frequency: 'Monthly',
      dayOfExecution: '12',
    };
    const { path } = await created(initiate(server.client, 'periodic-payments', NDCT, body, { headers: debtor.headers }));
    const read = await server.client.get<any>(path);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema('periodicPaymentInitiationWithStatusResponse', read.body);
    expect(read.body.creditorAddress).toEqual(body['creditorAddress']);
  });

  it.each<Product>([NCBCT, CBCT])('accepts a Berlin Group %s body (streetName, postCode, townName) with 201', async (product) => {
    const body: Body = {
      debtorAccount: { iban: psu.account.iban },
      instructedAmount: { currency: 'EUR', amount: '250.00' },
      creditorAccount: { iban: 'DE89370400440532013000' },
      creditorAgent: 'COBADEFFXXX',
      creditorName: 'Firma GmbH',
      creditorAddress: { streetName: 'Hauptstraße', buildingNumber: '1', postCode: '10115', townName: 'Berlin', country: 'DE' },
      remittanceInformationUnstructured: `Rechnung ${randomUUID().slice(0, 8)}`,
    };
    await createAndReadBack('payments', product, body);
  });

  it.each<[Product, Address, string]>([
    [NCBCT, { street: 'Kungsgatan', buildingNumber: '56', postalCode: '11122', country: 'SE' }, 'creditorAddress.city'],
    [CBCT, { street: 'Kungsgatan', country: 'SE' }, 'creditorAddress.city'],
    [NCBCT, { country: 'SE' }, 'creditorAddress.city'],
    [NCBCT, { streetName: 'Kungsgatan', buildingNumber: '56', postCode: '11122', country: 'SE' }, 'creditorAddress.townName'],
    [CBCT, { streetName: 'Kungsgatan', country: 'SE' }, 'creditorAddress.townName'],
  ])('refuses %s with creditorAddress %j (no town), naming %s; nothing stored', async (product, address, path) => {
    const refusal = await expectRefused('payments', product, bodyWith('payments', product, address), path);
    expect(refusal.message).toMatch(/city or townName/);
  });

  it.each<Product>([NCBCT, CBCT])('accepts %s with only the town, under either name', async (product) => {
    await createAndReadBack('payments', product, bodyWith('payments', product, { city: 'Stockholm', country: 'SE' }));
    await createAndReadBack('payments', product, bodyWith('payments', product, { townName: 'Stockholm', country: 'SE' }));
  });

  it('still refuses a country code not in ISO 3166, whichever names the address uses', async () => {
    await expectRefused('payments', NCBCT, bodyWith('payments', NCBCT, { townName: 'Nowhere', country: 'XX' }), 'creditorAddress.country');
    await expectRefused(
      'bulk-payments',
      NDCT,
      bodyWith('bulk-payments', NDCT, { city: 'Nowhere', country: 'XX' }),
      'payments[1].creditorAddress.country',
    );
  });

  // The same limit for both names of a part: street 70, postal code 16, town 35, building number 16.
  it.each([
    ['street', 70],
    ['streetName', 70],
    ['postalCode', 16],
    ['postCode', 16],
    ['city', 35],
    ['townName', 35],
    ['buildingNumber', 16],
  ] as const)('takes %s up to %i characters and refuses one more, naming it', async (field, limit) => {
    await createAndReadBack('payments', NDCT, bodyWith('payments', NDCT, { [field]: 'A'.repeat(limit), country: 'NO' }));
    await expectRefused(
      'payments',
      NDCT,
      bodyWith('payments', NDCT, { [field]: 'A'.repeat(limit + 1), country: 'NO' }),
      `creditorAddress.${field}`,
    );
  });

  it('refuses a misspelt address field (postNumber) instead of ignoring it', async () => {
    await expectRefused('payments', NDCT, bodyWith('payments', NDCT, { postNumber: '0155', country: 'NO' }), 'creditorAddress.postNumber');
  });

  it('reads a name in another letter case (PostCode, TOWNNAME) as the defined one', async () => {
    const response = await initiate(
      server.client,
      'payments',
      NDCT,
      bodyWith('payments', NDCT, { PostCode: '0155', TOWNNAME: 'Oslo', country: 'NO' }),
      {
        headers: psu.headers,
      },
    );
    expect(response.status, response.text).toBe(201);
  });

  // The Berlin Group 1.3.12 payment bodies have no debtorAddress (only creditorAddress), so none
  // of this bank's products has one: it is refused as an unknown field, never silently dropped.
  it('refuses debtorAddress, which no Berlin Group payment body defines, naming it; nothing stored', async () => {
    const debtorAddress = { streetName: 'Storgata', townName: 'Oslo', country: 'NO' };
    await expectRefused('payments', NDCT, singleBody(NDCT, psu.account, { debtorAddress }), 'debtorAddress');
  });

  it('documents both spellings in /openapi.json for every initiation body', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: any }> } } }>;
    };
    for (const [service, product] of KINDS) {
      const operation = document.paths[`/v1/${service}/${product}`]?.post;
      expect(operation, `${service}/${product}`).toBeDefined();
      const schema = operation!.requestBody.content['application/json']!.schema;
      const address =
        service === 'bulk-payments' ? schema.properties.payments.items.properties.creditorAddress : schema.properties.creditorAddress;
      expect(Object.keys(address.properties).sort(), `${service}/${product}`).toEqual([
        'buildingNumber',
        'city',
        'country',
        'postCode',
        'postalCode',
        'street',
        'streetName',
        'townName',
      ]);
      expect(address.additionalProperties).toBe(false);
      expect(address.required).toEqual(['country']);
    }
  });
});
