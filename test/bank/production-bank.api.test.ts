/**
 * A bank's own adapter plugged in: the app started in production mode with the small in-memory
 * adapter (test/support/in-memory-core-banking.ts) as `coreBanking` and a test PSU authenticator
 * over it, so no sandbox core banking, ledger or batch schedule is behind the API. A payment runs
 * from initiation through SCA to executed:
 * - a bank that answers at once: approved on its date, the server submits it right after the
 *   approval and the status is ACSC, the debtor debited once;
 * - a bank that decides later: the submission is accepted (ACSP), and the outcome the bank then
 *   reports in its feed moves the payment to ACSC (or RJCT with the bank's reason), applied by
 *   the server's feed poller from its stored cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankAccount, RequestingTpp } from '../../src/bank/core-banking.port.js';
import type { PsuAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import { createInMemoryCoreBanking, type InMemoryCoreBanking } from '../support/in-memory-core-banking.js';
import { ndctBody, NDCT } from '../support/payments.js';
import { identityNumber } from '../support/sandbox.js';
import { createPayment, paymentStatusOf, startAuthorisation, walk } from '../support/sca.js';
import { PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/server-process.js';

const TPP: RequestingTpp = { tppId: 'PSDNO-FSA-123456789' };
const CODE = '123456';

/** The bank's authenticator, as a bank would give it: its customers, one code. */
function authenticatorOf(customers: Set<string>): PsuAuthenticator {
  return {
    kind: 'in-page-code',
    isCustomer: async (_scope, psuId) => customers.has(psuId),
    verifyOneTimeCode: async (_scope, psuId, code) => customers.has(psuId) && code === CODE,
    offersAppConfirmation: false,
    confirmedInApp: async () => false,
  };
}

describe.each([
  ['answers at once', false],
  ['decides later', true],
] as const)('production mode with a bank that %s', (_name, decidesLater) => {
  let bank: InMemoryCoreBanking;
  let server: TestServer;
  let psu: string;
  let account: BankAccount;

  beforeAll(async () => {
    bank = createInMemoryCoreBanking({ decidesLater });
    psu = identityNumber();
    const seed = bank.seed(TPP);
    await seed.customer({ customerNumber: psu, name: 'Kari Nordmann', type: 'PRIVATE' });
    account = await seed.account({ owner: psu, currency: 'NOK', closingBooked: { minor: 100_000n, currency: 'NOK' } });
    server = await startTestServer({ env: PRODUCTION_ENV, bank: bank.bank, psuAuthenticator: authenticatorOf(new Set([psu])) });
  });
  afterAll(() => server?.close());

  it('runs a payment from initiation through SCA to executed', async () => {
    const headers = { 'psu-id': psu };
    const payment = await createPayment(server.client, 'payments', NDCT, ndctBody(account), headers);
    const { scaRedirect } = await startAuthorisation(server.client, payment.path, headers);
    await walk(scaRedirect, { codes: [CODE] });
    if (decidesLater) {
      expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'ACSP' });
      expect((await bank.bank.balances(TPP, account.id)).closingBooked.minor).toBe(100_000n);
      expect(await bank.settleAccepted()).toBe(1);
      await until('the feed poller to apply the outcome', async () => {
        const status = await paymentStatusOf(server.client, payment.path);
        return status.transactionStatus === 'ACSC' ? status : undefined;
      });
    }
    expect(await paymentStatusOf(server.client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect((await bank.bank.balances(TPP, account.id)).closingBooked.minor).toBe(100_000n - 10_033n);
    const moves = await server.database.db
      .selectFrom('audit_event')
      .select('details')
      .where('resource_id', '=', payment.paymentId)
      .where('action', '=', 'payment.status-changed')
      .orderBy('id')
      .execute();
    const changes = moves.map((row) => {
      const details = (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as { from: string; to: string };
      return `${details.from}>${details.to}`;
    });
    expect(changes).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
    // Executed once, reported once.
    const feed = await bank.bank.outcomesSince(undefined, 100);
    expect(feed.outcomes.filter((outcome) => outcome.paymentId === payment.paymentId)).toHaveLength(1);
  });

  if (decidesLater) {
    it('a rejection the bank reports later is RJCT with its reason', async () => {
      const headers = { 'psu-id': psu };
      const big = ndctBody(account, { instructedAmount: { currency: 'NOK', amount: '999999.00' } });
      const payment = await createPayment(server.client, 'payments', NDCT, big, headers);
      const { scaRedirect } = await startAuthorisation(server.client, payment.path, headers);
      await walk(scaRedirect, { codes: [CODE] });
      expect((await paymentStatusOf(server.client, payment.path)).transactionStatus).toBe('ACSP');
      await bank.settleAccepted();
      const status = await until('the rejection to be applied', async () => {
        const read = await paymentStatusOf(server.client, payment.path);
        return read.transactionStatus === 'RJCT' ? read : undefined;
      });
      expect(status.psuMessage).toMatch(/Insufficient funds/);
    });
  }
});
