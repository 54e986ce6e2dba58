/**
 * The details of a payment's transaction read while a batch run books it: the bank did not have it
 * booked when asked, and by the time the payment is looked up as pending it is executed. The id is
 * the same pending and booked (docs/design.md §2b), so the read answers the booked transaction,
 * never 404 for a transaction the account has.
 */
import { describe, expect, it } from 'vitest';
import { approvedConsent, consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { wrappedCoreBanking } from '../support/wrapped-core-banking.js';
import { approvedPayment, runBatch, tppOnBankDay, useTestServer } from '../support/execution.js';
import { expectError, NDCT, ndctBody } from '../support/payments.js';
import { walk } from '../support/sca.js';

const PSU_PRESENT = { 'psu-ip-address': '192.0.2.10' };

describe.each(DIALECTS)('transaction details while the transaction is booked (%s)', (dialect) => {
  /** A transaction id whose first look-up at the bank finds it not booked, then runs this (a batch run) before answering. */
  let bookMeanwhile: { transactionId: string; run: () => Promise<unknown> } | undefined;
  const server = useTestServer({
    dialect,
    coreBanking: (sandbox) =>
      wrappedCoreBanking(sandbox, {
        transaction:
          (transaction) =>
          async (...args) => {
            const found = await transaction(...args);
            const armed = bookMeanwhile;
            if (armed && armed.transactionId === args[2]) {
              bookMeanwhile = undefined;
              expect(found).toBeUndefined();
              await armed.run();
            }
            return found;
          },
      }),
  });

  it('answers the booked transaction under the id it had while pending, not 404', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const payment = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(psu.account, { endToEndIdentification: 'E2E-meanwhile' }),
      psu.headers,
    );
    const consentId = await approvedConsent(client, consentBody(detailedAccess(psu.account)), { 'psu-id': psu.customerNumber }, (link) =>
      walk(link),
    );
    const list = await client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
    const resourceId = list.body.accounts.find((entry: any) => entry.bban === psu.account.bban).resourceId as string;
    const read = (path: string) =>
      client.get<any>(`/v1/accounts/${resourceId}/transactions${path}`, { headers: { 'consent-id': consentId, ...PSU_PRESENT } });

    let executed = 0;
    bookMeanwhile = {
      transactionId: payment.paymentId,
      run: async () => {
        executed = (await runBatch(client)).counts.executed;
      },
    };
    const details = await read(`/${payment.paymentId}`);
    expect(bookMeanwhile, 'the bank was asked for the transaction').toBeUndefined();
    expect(executed).toBe(1);
    expect(details.status, details.text).toBe(200);
    expect(details.body.transactionsDetails).toMatchObject({
      transactionId: payment.paymentId,
      endToEndId: 'E2E-meanwhile',
      transactionAmount: { currency: 'NOK', amount: '-100.33' },
      bankTransactionCode: 'PMNT-ICDT-DMCT',
    });
    expect(details.body.transactionsDetails.valueDate).toBeDefined();

    // An id that is neither booked nor pending is still 404.
    expectError(await read('/no-such-transaction'), 404, 'RESOURCE_UNKNOWN', 'transactionId');
  });
});
