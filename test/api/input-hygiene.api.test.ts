/**
 * Bad input is a 4xx, never a 500, and changes nothing (docs/design.md §4, §5):
 * - no text in any JSON body, value or property name, may hold a lone UTF-16 surrogate, a control
 *   character (other than tab, line feed, carriage return), a bidirectional override or an
 *   invisible formatting character: 400 FORMAT_ERROR naming the field; bytes that are not UTF-8
 *   are refused, not replaced;
 * - a redirect URI is an absolute https URI with a host, written as one (`https:/evil.example`
 *   is refused);
 * - every answer carries `X-Content-Type-Options: nosniff`.
 * The sweep is a property: every string field of a valid body of every creating operation, with
 * each class of character put in, is refused with its path, and the business tables stay as
 * they were. Runs on every dialect.
 */
import { generateKeyPairSync } from 'node:crypto';
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  bulkBody,
  crossBorderBody,
  expectError,
  NDCT,
  ndctBody,
  periodicBody,
  privatePsu,
  sctBody,
  type Psu,
} from '../support/payments.js';
import { createBasket, EXPLICIT, explicitPayment } from '../support/baskets.js';
import { consentBody, createConsent, detailedAccess } from '../support/consents.js';
import { createCustomer, identityNumber } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** One character of each refused class. */
const BAD = {
  'lone surrogate': '\uD800',
  'control character': '\u0007',
  'bidi override': '\u202E',
  'zero-width space': '\u200B',
} as const;

/** Tables whose rows are what the API does; the X-Request-ID record is bookkeeping and may grow. */
const BUSINESS_TABLES = [
  'payment',
  'signing_basket',
  'authorisation',
  'sandbox_customer',
  'sandbox_account',
  'sandbox_agreement',
  'sandbox_engagement',
  'sandbox_transaction',
  'sandbox_card_account',
  'ledger_transaction',
  'ledger_entry',
  'tpp_contact',
  'sandbox_key_binding',
] as const;

/** Every string leaf of a JSON value, with its path as the API names it (`a.b[0].c`). */
function stringLeaves(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([name, item]) => stringLeaves(item, path ? `${path}.${name}` : name));
  }
  return [];
}

/** A deep copy of `value` with `text` put into the middle of the string at `path`. */
function spliced(value: unknown, path: string, text: string): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const steps = path.match(/[^.[\]]+/g) ?? [];
  let holder: any = copy;
  for (const step of steps.slice(0, -1)) holder = holder[step];
  const last = steps.at(-1)!;
  const original = String(holder[last]);
  const middle = Math.floor(original.length / 2);
  holder[last] = original.slice(0, middle) + text + original.slice(middle);
  return copy;
}

describe.each(DIALECTS)('input hygiene (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function businessRows(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of BUSINESS_TABLES) {
      const row = await server.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  }

  it('refuses a lone surrogate in the certificate desk name with 400 (it was a 500), binding nothing', async () => {
    const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const before = await businessRows();
    // JSON's \u escape carries the lone surrogate through any UTF-8 transport.
    const body = Buffer.from(
      `{"publicKey":${JSON.stringify(publicKey)},"organizationIdentifier":"PSDNO-FSA-919191919","name":"Evil \\ud800 AS","roles":["PSP_PI"]}`,
    );
    const response = await server.anonymous.post<any>('/sandbox/tpp-certificates', body);
    expectError(response, 400, 'FORMAT_ERROR', 'name');
    expect(response.body.tppMessages[0].text).toContain('lone UTF-16 surrogate');
    expect(await businessRows()).toEqual(before);
  });

  it('refuses a body that is not UTF-8 (400 path body), instead of replacing the bytes', async () => {
    const body = Buffer.concat([Buffer.from('{"email":"a'), Buffer.from([0xc3, 0x28]), Buffer.from('@tpp.example"}')]);
    const response = await server.client.put<any>('/v1/tpps/NO-FSA-123456789/contact-information', body);
    expectError(response, 400, 'FORMAT_ERROR', 'body');
    expect(response.body.tppMessages[0].text).toContain('UTF-8');
  });

  it('refuses a bidi override in a property name, naming it', async () => {
    const response = await server.client.post<any>(
      `/v1/payments/${NDCT}`,
      { ...ndctBody(psu.account), 'creditor\u202EName': 'x' },
      {
        headers: psu.headers,
      },
    );
    expectError(response, 400, 'FORMAT_ERROR', 'creditor\u202EName');
  });

  it('refuses a payment naming instructedAmount twice (JSON.parse would keep the last amount), creating nothing', async () => {
    const before = await businessRows();
    const { instructedAmount, ...rest } = ndctBody(psu.account);
    // Written by hand: a JavaScript object cannot hold a name twice.
    const body = Buffer.from(
      `{"instructedAmount":${JSON.stringify(instructedAmount)},${JSON.stringify(rest).slice(1, -1)},` +
        `"instructedAmount":{"currency":"NOK","amount":"9999.00"}}`,
    );
    const response = await server.client.post<any>(`/v1/payments/${NDCT}`, body, { headers: psu.headers });
    expectError(response, 400, 'FORMAT_ERROR', 'instructedAmount');
    expect(response.body.tppMessages[0].text).toContain('instructedAmount is given twice');
    expect(await businessRows()).toEqual(before);
  });

  it('refuses a member given twice deep in a consent body, naming its path', async () => {
    const bban = psu.account.bban;
    const body = Buffer.from(
      `{"access":{"accounts":[{"bban":"${bban}","bban":"${bban}"}]},"recurringIndicator":false,"validUntil":"2099-01-01","frequencyPerDay":1}`,
    );
    const response = await server.client.post<any>('/v1/consents', body, { headers: psu.headers });
    expectError(response, 400, 'FORMAT_ERROR', 'access.accounts[0].bban');
  });

  it('refuses a body naming the empty name twice at its top, naming the body', async () => {
    const response = await server.client.post<any>('/v1/consents', Buffer.from('{"":1,"":2}'), { headers: psu.headers });
    expectError(response, 400, 'FORMAT_ERROR', 'body');
    expect(response.body.tppMessages[0].text).toContain('a member named "" is given twice');
  });

  it.each(['https:/evil.example/cb', 'https:evil.example/cb', 'https:\\\\evil.example/cb'])(
    'refuses TPP-Redirect-URI %s with 400 naming the header, creating nothing',
    async (uri) => {
      const before = await businessRows();
      const response = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), {
        headers: { ...psu.headers, 'tpp-redirect-uri': uri },
      });
      expectError(response, 400, 'FORMAT_ERROR', 'TPP-Redirect-URI');
      expect(await businessRows()).toEqual(before);
    },
  );

  it('puts X-Content-Type-Options: nosniff on every answer: 201, 4xx, 401, 404, the PSU page, the OpenAPI document', async () => {
    const createdPayment = await server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), { headers: psu.headers });
    const answers = [
      createdPayment,
      await server.client.post(`/v1/payments/${NDCT}`, {}, { headers: psu.headers }),
      await server.anonymous.get('/v1/sandbox/customers'),
      await server.client.get('/v1/no-such-thing'),
      await server.client.get('/openapi.json'),
      await server.client.get('/health/live'),
    ];
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
    const page = await httpRequest(createdPayment.body._links.scaRedirect.href);
    await page.body.text();
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  describe('operations that take no body', () => {
    const statusOf = async (path: string) => (await server.client.get<any>(`${path}/status`)).body;
    /** Each operation, a fresh target of it (a DELETE removes it), and how to read that target's state. */
    const operations: [string, string, () => Promise<string>, (path: string) => Promise<unknown>][] = [
      ['POST', 'sandbox psu-page-links', async () => '/v1/sandbox/psu-page-links', async () => undefined],
      ['POST', 'sandbox batch-runs', async () => '/v1/sandbox/batch-runs', async () => undefined],
      [
        'DELETE',
        'a payment (cancellation)',
        async () => (await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers)).path,
        statusOf,
      ],
      [
        'DELETE',
        'a signing basket',
        async () => {
          const payment = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
          return (await createBasket(server.client, [payment.paymentId], { ...psu.headers, ...EXPLICIT })).path;
        },
        statusOf,
      ],
      [
        'DELETE',
        'a consent',
        async () => `/v1/consents/${(await createConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers)).consentId}`,
        statusOf,
      ],
      [
        'DELETE',
        'a sandbox customer',
        async () => `/v1/sandbox/customers/${(await createCustomer(server.client)).customerId}`,
        async (path) => (await server.client.get<any>(path)).status,
      ],
    ];

    it('every /v1 operation of a method with a body declares its body (NoBody when it takes none), so none is taken unread', async () => {
      const document = (await server.client.get<any>('/openapi.json')).body;
      const undeclared = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method, operation]) => ['post', 'put', 'patch', 'delete'].includes(method) && !operation.requestBody)
          .map(([method]) => `${method.toUpperCase()} ${path}`)
          .filter((operation) => operation.includes(' /v1/')),
      );
      expect(undeclared).toEqual([]);
    });

    it.each(operations)('%s %s takes no body, an empty one or {}', async (method, _, target) => {
      for (const [body, headers] of [
        [undefined, {}],
        [Buffer.alloc(0), { 'content-type': 'application/json' }],
        [Buffer.from('{}'), {}],
      ] as const) {
        const response = await server.client.call<any>(method, await target(), { body, headers: { ...psu.headers, ...headers } });
        expect(response.status, response.text).toBeLessThan(300);
      }
    });

    it.each(operations)('%s %s refuses any other body with 400, changing nothing', async (method, _, target, stateOf) => {
      const path = await target();
      const before = { rows: await businessRows(), state: await stateOf(path) };
      for (const [text, at] of [
        ['null', 'body'],
        ['[1,2,3]', 'body'],
        ['"x"', 'body'],
        ['{"x":1}', 'x'],
        ['{"psuData":{"password":"hunter2"}}', 'psuData'],
      ]) {
        const response = await server.client.call<any>(method, path, { body: Buffer.from(text!), headers: psu.headers });
        expect({ text, status: response.status, code: response.body.code, path: response.body.tppMessages?.[0]?.path }).toEqual({
          text,
          status: 400,
          code: 'FORMAT_ERROR',
          path: at,
        });
      }
      expect({ rows: await businessRows(), state: await stateOf(path) }).toEqual(before);
    });
  });

  describe('the sweep: every string field of every creating operation', () => {
    const customerNumber = identityNumber();
    const operations: [string, string, () => unknown][] = [
      [
        'POST',
        `/v1/payments/${NDCT}`,
        () => ndctBody(psu.account, { creditorAddress: { streetName: 'Gate', townName: 'Oslo', country: 'NO' } }),
      ],
      ['POST', '/v1/payments/norwegian-cross-border-credit-transfers', () => crossBorderBody(psu.account)],
      ['POST', '/v1/payments/sepa-credit-transfers', () => sctBody(psu.account)],
      ['POST', `/v1/bulk-payments/${NDCT}`, () => bulkBody(psu.account)],
      ['POST', `/v1/periodic-payments/${NDCT}`, () => periodicBody(psu.account)],
      ['POST', '/v1/sandbox/customers', () => ({ customerNumber, customerType: 'PRIVATE', customerName: 'Kari Nordmann' })],
      ['POST', '/v1/sandbox/accounts', () => ({ customerNumber: psu.customerNumber, name: 'Brukskonto', product: 'Brukskonto' })],
      ['PUT', '/v1/tpps/NO-FSA-123456789/contact-information', () => ({ email: 'psd2@tpp.example' })],
    ];

    it.each(operations)(
      '%s %s: each class of character in each field is 400 naming the field, and nothing changes',
      async (method, path, body) => {
        const valid = body();
        const leaves = stringLeaves(valid);
        expect(leaves.length).toBeGreaterThan(0);
        const before = await businessRows();
        for (const leaf of leaves) {
          for (const [name, character] of Object.entries(BAD)) {
            // JSON.stringify writes a lone surrogate as a \u escape: valid UTF-8 carrying it.
            const response = await server.client.call<any>(method, path, { body: spliced(valid, leaf, character), headers: psu.headers });
            const answer = response.body;
            expect({ leaf, name, status: response.status, code: answer.code, path: answer.tppMessages?.[0]?.path }).toEqual({
              leaf,
              name,
              status: 400,
              code: 'FORMAT_ERROR',
              path: leaf,
            });
          }
        }
        expect(await businessRows()).toEqual(before);
      },
    );
  });
});
