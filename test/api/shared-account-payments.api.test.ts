/**
 * At a real bank TPPs share the PSU's account: the payments one TPP's PSU approved and the server
 * holds until they are due (the bank does not know of them yet) are the account's for every TPP
 * that reads it under a consent (docs/design.md §2b):
 * - its pending lines, with the payment's id as the transaction id, and their details;
 * - what they take off expected and interimAvailable;
 * - the funds check, which counts them as spent;
 * while the payment itself stays the initiating TPP's (another TPP's read of it is 404).
 * The bank here is the sandbox's, with every TPP's question asked of the first TPP's sandbox bank,
 * as a real bank that does not keep one per TPP answers.
 */
import type { CoreBanking } from '../../src/bank/core-banking.port.js';
import type { PsuAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import type { SandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/iso-date.js';
import { approvedConsent, consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { approvedPayment, fundsAvailable, nextBankDay, realToday, setBalance, useTestServer } from '../support/execution.js';
import { NDCT, ndctBody } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { SANDBOX_CODE, walk } from '../support/sca.js';

const INITIATOR = 'PSDNO-FSA-778000001';
const READER = 'PSDNO-FSA-778000002';

/** The sandbox bank of `owner` for every TPP: the port's calls name the TPP first, and here they all name `owner`. */
function oneBankForAll(sandbox: SandboxCoreBanking, owner: string): CoreBanking {
  const asOwner = (argument: unknown) =>
    typeof argument === 'object' && argument !== null && typeof (argument as { tppId?: unknown }).tppId === 'string'
      ? { ...argument, tppId: owner }
      : argument;
  return new Proxy(sandbox, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (first: unknown, ...rest: unknown[]) => (value as (...args: unknown[]) => unknown).call(target, asOwner(first), ...rest);
    },
  });
}

/** The bank's login for every TPP alike: any customer number, the sandbox's code. */
const ANY_PSU: PsuAuthenticator = {
  kind: 'in-page-code',
  isCustomer: async () => true,
  verifyOneTimeCode: async (_scope, _psuId, code) => code === SANDBOX_CODE,
  offersAppConfirmation: false,
  confirmedInApp: async () => false,
};

describe.each(DIALECTS)("another TPP's held payments on a shared account (%s)", (dialect) => {
  const server = useTestServer({ dialect, coreBanking: (sandbox) => oneBankForAll(sandbox, INITIATOR), psuAuthenticator: ANY_PSU });

  it("shows them as pending lines, takes them off expected and counts them in the funds check, the payment staying the initiator's", async () => {
    const initiator = (await server.newTpp(INITIATOR, ['PSP_PI', 'PSP_AI', 'PSP_IC'])).client;
    const reader = (await server.newTpp(READER, ['PSP_PI', 'PSP_AI', 'PSP_IC'])).client;
    const payer = await createCustomer(initiator, 'PRIVATE', 'Kari Nordmann');
    const account = await createAccount(initiator, payer.customerNumber);
    await setBalance(initiator, account.resourceId, '1000.00');
    // Dated after the next bank day: held (PDNG) whatever batch run comes meanwhile.
    const dueOn = nextBankDay(addDays(nextBankDay(realToday()), 1));
    const held = await approvedPayment(
      initiator,
      'payments',
      NDCT,
      ndctBody(account, { instructedAmount: { currency: 'NOK', amount: '300.00' }, requestedExecutionDate: dueOn }),
      { 'psu-id': payer.customerNumber },
    );
    expect((await initiator.get<any>(`${held.path}/status`)).body.transactionStatus).toBe('PDNG');

    const consentId = await approvedConsent(
      reader,
      consentBody(detailedAccess({ bban: account.bban })),
      { 'psu-id': payer.customerNumber },
      (link) => walk(link),
    );
    const headers = { 'consent-id': consentId, 'psu-ip-address': '192.0.2.10' };
    const list = await reader.get<any>('/v1/accounts', { headers });
    expect(list.status, list.text).toBe(200);
    const resourceId = list.body.accounts[0].resourceId as string;

    const pending = await reader.get<any>(`/v1/accounts/${resourceId}/transactions?bookingStatus=pending`, { headers });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.transactions.pending).toEqual([
      expect.objectContaining({
        transactionId: held.paymentId,
        transactionAmount: { currency: 'NOK', amount: '-300.00' },
        bookingDate: dueOn,
      }),
    ]);
    const details = await reader.get<any>(`/v1/accounts/${resourceId}/transactions/${held.paymentId}`, { headers });
    expect(details.status, details.text).toBe(200);
    expect(details.body.transactionsDetails.transactionAmount).toEqual({ currency: 'NOK', amount: '-300.00' });

    const balances = await reader.get<any>(`/v1/accounts/${resourceId}/balances`, { headers });
    expect(balances.status, balances.text).toBe(200);
    const amounts = Object.fromEntries(balances.body.balances.map((balance: any) => [balance.balanceType, balance.balanceAmount.amount]));
    expect(amounts).toEqual({ closingBooked: '1000.00', expected: '700.00', interimAvailable: '700.00' });

    const confirm = (amount: string) => fundsAvailable(reader, account, amount);
    expect([await confirm('700.00'), await confirm('700.01')]).toEqual([true, false]);

    expect((await reader.get<any>(held.path)).status).toBe(404);
  });
});
