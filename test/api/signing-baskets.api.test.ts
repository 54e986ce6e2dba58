/**
 * Signing baskets, through the real server with signed requests:
 * - a TPP creates payments with explicit authorisation, puts 1..10 of them in a basket, and the
 *   PSU approves them with one SCA; each payment moves by its own rules, the basket shows the
 *   worst case (RJCT < RCVD < PATC < ACTC);
 * - bodies are checked against the Berlin Group schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { basketStatusOf, createBasket, explicitPayment } from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import { crossBorderBody, NCBCT, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { OK_URI, paymentStatusOf, walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('signing baskets (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  it('three NDCT and one NCBCT payment approved once in a basket are each ACTC, and so is the basket', async () => {
    const payments = [
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NDCT, ndctBody(psu.account), psu.headers),
      await explicitPayment(server.client, NCBCT, crossBorderBody(psu.account), psu.headers),
    ];
    const basket = await createBasket(
      server.client,
      payments.map((payment) => payment.paymentId),
      { ...psu.headers, 'tpp-redirect-uri': OK_URI },
    );
    expectBerlinGroupSchema('signingBasketResponse-201', basket.response.body);
    expect(basket.response.body.transactionStatus).toBe('RCVD');
    expect(Object.keys(basket.links).sort()).toEqual(['scaRedirect', 'scaStatus', 'self', 'status']);
    expect(basket.response.headers['aspsp-sca-approach']).toBe('REDIRECT');
    expect(await basketStatusOf(server.client, basket.path)).toBe('RCVD');

    const journey = await walk(basket.links['scaRedirect']!.href, { psuId: psu.customerNumber });
    expect(journey.redirectedTo).toBe(OK_URI);
    for (const payment of payments) {
      expect(await paymentStatusOf(server.client, payment.path)).toMatchObject({ transactionStatus: 'ACTC' });
    }
    expect(await basketStatusOf(server.client, basket.path)).toBe('ACTC');
    const read = await server.client.get<any>(basket.path);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema('signingBasketResponse-200', read.body);
    expect(read.body.payments).toEqual(payments.map((payment) => payment.paymentId));
  });

  it('a payment whose debtor account the PSU may no longer use is RJCT at approval, the others ACTC, the basket RJCT', async () => {
    const owner = await createCustomer(server.client, 'CORPORATE', 'Kurvfirma AS');
    const first = await createAccount(server.client, owner.customerNumber);
    const second = await createAccount(server.client, owner.customerNumber);
    const approver = await createCustomer(server.client);
    const agreement = await server.client.post<any>('/v1/sandbox/agreements', {
      owner: owner.customerNumber,
      engagements: [first, second].map((account) => ({
        customer: approver.customerNumber,
        account: { bban: account.bban },
        roles: ['REGISTER', 'VIEW'],
      })),
    });
    expect(agreement.status, agreement.text).toBe(201);
    const headers = { 'psu-id': approver.customerNumber, 'psu-corporate-id': agreement.body.organisationNumber as string };
    const good = await explicitPayment(server.client, NDCT, ndctBody(first), headers);
    const doomed = await explicitPayment(server.client, NDCT, ndctBody(second), headers);
    const basket = await createBasket(server.client, [good.paymentId, doomed.paymentId], headers);
    const engagement = (agreement.body.engagements as { engagementId?: string; id?: string; account: { bban: string } }[]).find(
      (candidate) => candidate.account.bban === second.bban,
    )!;
    const withdrawn = await server.client.delete<any>(
      `/v1/sandbox/agreements/${agreement.body.agreementId ?? agreement.body.id}/engagements/${engagement.engagementId ?? engagement.id}`,
    );
    expect(withdrawn.status, withdrawn.text).toBe(204);
    const journey = await walk(basket.links['scaRedirect']!.href, { psuId: approver.customerNumber });
    expect(journey.lastPage).toContain('You have approved 1 of 2 payments.');
    expect(await paymentStatusOf(server.client, good.path)).toMatchObject({ transactionStatus: 'ACTC' });
    expect(await paymentStatusOf(server.client, doomed.path)).toEqual({
      transactionStatus: 'RJCT',
      psuMessage: 'Not approved in its signing basket: You may not approve payments from this account',
    });
    expect(await basketStatusOf(server.client, basket.path)).toBe('RJCT');
  });
});
