/**
 * The authorisation sub-resource every resource needing SCA shares, as the TPP sees it, on each of
 * its parents: a payment's `authorisations`, an approved payment's `cancellation-authorisations`
 * and a signing basket's `authorisations`:
 * - `POST` answers 201 startScaprocessResponse, Location and `_links.scaStatus` below the parent;
 * - `GET` lists `{authorisationIds}`, `GET …/{authorisationId}` reads `{scaStatus}`;
 * - an authorisation is read under its own parent and sub-resource only (elsewhere 404), and an
 *   unknown parent is 404 RESOURCE_UNKNOWN on each operation;
 * - there is no `PUT …/{authorisationId}` (the PSU gives its data on the bank's pages): 405 with Allow;
 * - a start takes no body, an empty one or `{}`; any other body is 400, and the Berlin Group's
 *   embedded-SCA members (psuData, …) are refused as such: this bank authorises by redirect only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBasket, EXPLICIT, explicitPayment } from '../support/baskets.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { consentBody, createConsent, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { createPayment, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A parent with one of its sub-resources, and where the same authorisation id must be unknown. */
interface Parent {
  /** The parent's path, e.g. /v1/payments/{product}/{id}. */
  readonly path: string;
  readonly segment: 'authorisations' | 'cancellation-authorisations';
  /** Another sub-resource (of this or another parent), where this parent's authorisations are not. */
  readonly elsewhere: string;
  /** The parent's path with an id no resource has, and the parameter the 404 names. */
  readonly unknown: { readonly path: string; readonly parameter: string };
}

describe.each(DIALECTS)('the shared authorisation sub-resource (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  const parents: Record<string, Parent> = {};
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);

    const waiting = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    parents['payment'] = {
      path: waiting.path,
      segment: 'authorisations',
      elsewhere: `${waiting.path}/cancellation-authorisations`,
      unknown: { path: `/v1/payments/${NDCT}/no-such-payment`, parameter: 'paymentId' },
    };

    const approved = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    await walk(approved.links['scaRedirect']!.href);
    parents['payment cancellation'] = {
      path: approved.path,
      segment: 'cancellation-authorisations',
      elsewhere: `${approved.path}/authorisations`,
      unknown: { path: `/v1/payments/${NDCT}/no-such-payment`, parameter: 'paymentId' },
    };

    const inBasket = await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers);
    const basket = await createBasket(server.client, [inBasket.paymentId], { ...psu.headers, ...EXPLICIT });
    parents['signing basket'] = {
      path: basket.path,
      segment: 'authorisations',
      elsewhere: `${inBasket.path}/authorisations`,
      unknown: { path: '/v1/signing-baskets/no-such-basket', parameter: 'basketId' },
    };
  });
  afterAll(() => server.close());

  describe.each(['payment', 'payment cancellation', 'signing basket'])('of a %s', (name) => {
    const parent = () => parents[name]!;

    it('starts one (201 below the parent), lists it alone and reads its scaStatus', async () => {
      const { path, segment } = parent();
      const started = await server.client.post<any>(`${path}/${segment}`, undefined, { headers: psu.headers });
      expect(started.status, started.text).toBe(201);
      const id = started.body.authorisationId as string;
      const href = `${server.config.publicUrl}${path}/${segment}/${id}`;
      expect(started.body).toEqual({
        scaStatus: 'received',
        authorisationId: id,
        _links: { scaRedirect: { href: `${server.config.publicUrl}/sca/${id}` }, scaStatus: { href } },
      });
      expect(started.headers['location']).toBe(href);
      expect(started.headers['aspsp-sca-approach']).toBe('REDIRECT');

      const listed = await server.client.get<any>(`${path}/${segment}`);
      expect([listed.status, listed.body]).toEqual([200, { authorisationIds: [id] }]);
      const read = await server.client.get<any>(`${path}/${segment}/${id}`);
      expect([read.status, read.body]).toEqual([200, { scaStatus: 'received' }]);

      expectError(await server.client.get<any>(`${parent().elsewhere}/${id}`), 404, 'RESOURCE_UNKNOWN', 'authorisationId');
    });

    it('answers 405 with Allow to PUT …/{authorisationId}: the PSU gives its data on the bank pages', async () => {
      const { path, segment } = parent();
      const started = await server.client.post<any>(`${path}/${segment}`, undefined, { headers: psu.headers });
      expect(started.status, started.text).toBe(201);
      const id = started.body.authorisationId as string;
      const response = await server.client.put<any>(
        `${path}/${segment}/${id}`,
        { psuData: { password: 'secret' } },
        { headers: psu.headers },
      );
      expectError(response, 405, 'SERVICE_INVALID');
      const allow = String(response.headers['allow']).split(/,\s*/);
      expect(allow).toContain('GET');
      expect(allow).not.toContain('PUT');
    });

    it('answers each operation on an unknown parent with 404 RESOURCE_UNKNOWN', async () => {
      const { segment, unknown } = parent();
      const base = `${unknown.path}/${segment}`;
      expectError(await server.client.post<any>(base, undefined, { headers: psu.headers }), 404, 'RESOURCE_UNKNOWN', unknown.parameter);
      expectError(await server.client.get<any>(base), 404, 'RESOURCE_UNKNOWN', unknown.parameter);
      expectError(await server.client.get<any>(`${base}/no-such-authorisation`), 404, 'RESOURCE_UNKNOWN', unknown.parameter);
    });
  });

  describe.each(['payment', 'payment cancellation', 'signing basket', 'consent'])('the body of a start on a %s', (name) => {
    /** The start's path: the parents above, and a consent created for explicit authorisation. */
    let start = '';
    beforeAll(async () => {
      if (name !== 'consent') {
        start = `${parents[name]!.path}/${parents[name]!.segment}`;
        return;
      }
      const consent = await createConsent(server.client, consentBody(detailedAccess(psu.account)), { ...psu.headers, ...EXPLICIT });
      start = `/v1/consents/${consent.consentId}/authorisations`;
    });
    const authorisationIds = async (): Promise<string[]> => (await server.client.get<any>(start)).body.authorisationIds as string[];

    it.each([
      ['none', undefined, {}],
      ['an empty body sent as JSON', Buffer.alloc(0), { 'content-type': 'application/json' }],
      ['{}', Buffer.from('{}'), {}],
    ])('takes %s (201)', async (_, body, headers) => {
      const started = await server.client.post<any>(start, body, { headers: { ...psu.headers, ...headers } });
      expect(started.status, started.text).toBe(201);
      expectBerlinGroupSchema('startScaprocessResponse', started.body);
    });

    it.each(['null', '[1,2,3]', '"x"', '1'])('refuses the body %s as not an object (400 path body), starting nothing', async (text) => {
      const before = await authorisationIds();
      const response = await server.client.post<any>(start, Buffer.from(text), { headers: psu.headers });
      expectError(response, 400, 'FORMAT_ERROR', 'body');
      expect(await authorisationIds()).toEqual(before);
    });

    it('refuses a member the operation does not define, naming it', async () => {
      const response = await server.client.post<any>(start, { foo: { bar: [1] } }, { headers: psu.headers });
      expectError(response, 400, 'FORMAT_ERROR', 'foo');
      expect(response.body.tppMessages[0].text).toContain('is not a field of this request');
    });

    it.each([
      ['psuData', { psuData: { password: 'hunter2' } }],
      ['authenticationMethodId', { authenticationMethodId: 'SMS_OTP' }],
      ['scaAuthenticationData', { scaAuthenticationData: '123456' }],
    ])('refuses %s (embedded SCA): this bank authorises by redirect only, starting nothing', async (member, body) => {
      const before = await authorisationIds();
      const response = await server.client.post<any>(start, body, { headers: psu.headers });
      expectError(response, 400, 'FORMAT_ERROR', member);
      expect(response.body.tppMessages[0].text).toContain('authorises by redirect only');
      expect(response.body.tppMessages[0].text).not.toContain('hunter2');
      expect(await authorisationIds()).toEqual(before);
    });
  });
});
