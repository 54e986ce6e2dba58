/**
 * What the balances of an account say (docs/design.md §2b) while payments move: closingBooked is
 * the booked balance at the end of the previous bank day, whatever was booked since; expected is
 * the booked balance less the approved payments not executed yet (the very lines the transaction
 * list shows as pending: a bulk's each, another currency at the rate table's value, no standing
 * order); interimAvailable is expected plus the credit line, and the funds check counts those
 * payments as spent too.
 */
import { describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { rollToBankDay } from '../../src/domain/bank-calendar.js';
import { addDays } from '../../src/domain/iso-date.js';
import { formatAmount } from '../../src/domain/money.js';
import { convertMinor } from '../../src/domain/regulatory-reporting.js';
import { approvedConsent, consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  fundsAvailable,
  nextBankDay,
  osloDateTime,
  runBatch,
  setBalance,
  setClock,
  useTestServer,
} from '../support/execution.js';
import { bulkBody, crossBorderBody, NCBCT, NDCT, ndctBody, periodicBody } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { startAuthorisation, walk } from '../support/sca.js';

let nextTpp = 1;

/** An account's balances through a consent, by type: [amount, referenceDate]. */
async function balancesRead(client: TppClient, psuId: string, bban: string) {
  const consentId = await approvedConsent(client, consentBody(detailedAccess({ bban })), { 'psu-id': psuId }, (link) => walk(link));
  const headers = { 'consent-id': consentId, 'psu-ip-address': '192.0.2.10' };
  const list = await client.get<any>('/v1/accounts', { headers });
  expect(list.status, list.text).toBe(200);
  const resourceId = list.body.accounts.find((account: any) => account.bban === bban).resourceId as string;
  return {
    async balances(): Promise<Record<string, [string, string | undefined]>> {
      const response = await client.get<any>(`/v1/accounts/${resourceId}/balances`, { headers });
      expect(response.status, response.text).toBe(200);
      return Object.fromEntries(
        response.body.balances.map((balance: any) => [balance.balanceType, [balance.balanceAmount.amount, balance.referenceDate]]),
      );
    },
    async lines(status: 'booked' | 'pending'): Promise<{ id: string; amount: string; bookingDate: string }[]> {
      const response = await client.get<any>(`/v1/accounts/${resourceId}/transactions?bookingStatus=${status}`, { headers });
      expect(response.status, response.text).toBe(200);
      return response.body.transactions[status].map((line: any) => ({
        id: line.transactionId,
        amount: line.transactionAmount.amount,
        bookingDate: line.bookingDate,
      }));
    },
  };
}

describe.each(DIALECTS)('balances while payments wait and are booked (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  it('takes approved payments not yet executed off expected, interimAvailable and the funds check; closingBooked keeps to its referenceDate', async () => {
    const { client } = await server.newTpp(`PSDNO-FSA-${766_000_000 + nextTpp++}`, ['PSP_PI', 'PSP_AI', 'PSP_IC']);
    const day = nextBankDay();
    const previousBankDay = rollToBankDay(addDays(day, -1), 'preceding');
    await setClock(client, osloDateTime(day, '10:00'));
    const payer = await createCustomer(client, 'PRIVATE', 'Kari Nordmann');
    const account = await createAccount(client, payer.customerNumber, { creditLimit: { currency: 'NOK', amount: '10000.00' } });
    await setBalance(client, account.resourceId, '18822.55');
    const payee = await createCustomer(client, 'PRIVATE', 'Ola Hansen');
    const creditor = await createAccount(client, payee.customerNumber);
    const headers = { 'psu-id': payer.customerNumber };

    const due = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(account, { instructedAmount: { currency: 'NOK', amount: '20000.00' }, creditorAccount: { bban: creditor.bban } }),
      headers,
    );
    const later = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(account, { instructedAmount: { currency: 'NOK', amount: '77.00' }, requestedExecutionDate: nextBankDay(day) }),
      headers,
    );
    const cancelled = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(account, { instructedAmount: { currency: 'NOK', amount: '500.00' } }),
      headers,
    );
    expect((await client.delete<any>(cancelled.path)).status).toBe(202);
    await walk((await startAuthorisation(client, cancelled.path, headers, 'cancellation-authorisations')).scaRedirect);
    const statusOf = async (path: string) => (await client.get<any>(`${path}/status`)).body.transactionStatus as string;
    expect([await statusOf(due.path), await statusOf(later.path), await statusOf(cancelled.path)]).toEqual(['ACTC', 'PDNG', 'CANC']);

    const payerReads = await balancesRead(client, payer.customerNumber, account.bban);
    const payeeReads = await balancesRead(client, payee.customerNumber, creditor.bban);
    const pending = await payerReads.lines('pending');
    expect(pending.map((line) => [line.id, line.amount]).sort()).toEqual(
      [
        [due.paymentId, '-20000.00'],
        [later.paymentId, '-77.00'],
      ].sort(),
    );
    // 18 822.55 booked, less the two pending lines; the credit line on top of that.
    expect(await payerReads.balances()).toEqual({
      closingBooked: ['18822.55', previousBankDay],
      expected: ['-1254.45', undefined],
      interimAvailable: ['8745.55', undefined],
    });
    const confirm = (amount: string) => fundsAvailable(client, account, amount);
    expect([await confirm('8745.55'), await confirm('8745.56'), await confirm('10000.00')]).toEqual([true, false, false]);
    // The creditor's list shows no pending line for the payment coming in, and its balances count none.
    expect(await payeeReads.lines('pending')).toEqual([]);
    expect(await payeeReads.balances()).toEqual({
      closingBooked: ['0.00', previousBankDay],
      expected: ['0.00', undefined],
      interimAvailable: ['0.00', undefined],
    });

    // Booked today: in expected as before (booked now, no longer pending), not in yesterday's closingBooked.
    await runBatch(client);
    expect(await statusOf(due.path)).toBe('ACSC');
    expect(await payerReads.lines('booked')).toContainEqual({ id: due.paymentId, amount: '-20000.00', bookingDate: day });
    expect((await payerReads.lines('pending')).map((line) => line.id)).toEqual([later.paymentId]);
    expect(await payerReads.balances()).toEqual({
      closingBooked: ['18822.55', previousBankDay],
      expected: ['-1254.45', undefined],
      interimAvailable: ['8745.55', undefined],
    });
    expect([await confirm('8745.55'), await confirm('8745.56')]).toEqual([true, false]);
    expect(await payeeReads.balances()).toEqual({
      closingBooked: ['0.00', previousBankDay],
      expected: ['20000.00', undefined],
      interimAvailable: ['20000.00', undefined],
    });
  });

  it("counts each of a bulk's payments and a payment in another currency at the rate table's value, and no standing order", async () => {
    const { client } = await server.newTpp(`PSDNO-FSA-${766_000_000 + nextTpp++}`, ['PSP_PI', 'PSP_AI']);
    const day = nextBankDay();
    await setClock(client, osloDateTime(day, '10:00'));
    const payer = await createCustomer(client, 'PRIVATE', 'Kari Nordmann');
    const account = await createAccount(client, payer.customerNumber);
    await setBalance(client, account.resourceId, '5000.00');
    const headers = { 'psu-id': payer.customerNumber };
    const bulk = await approvedPayment(client, 'bulk-payments', NDCT, bulkBody(account, { requestedExecutionDate: day }), headers);
    const abroad = await approvedPayment(client, 'payments', NCBCT, crossBorderBody(account), headers);
    await approvedPayment(client, 'periodic-payments', NDCT, periodicBody(account, { startDate: nextBankDay(day) }), headers);

    const reads = await balancesRead(client, payer.customerNumber, account.bban);
    const pending = await reads.lines('pending');
    expect(pending.map((line) => line.id).sort()).toEqual([`${bulk.paymentId}-1`, `${bulk.paymentId}-2`, abroad.paymentId].sort());
    const sek = convertMinor({ minor: 10_033n, currency: 'SEK' }, 'NOK', server.config.nokRates)!;
    const expected = formatAmount({ minor: 500_000n - 25_000n - 1_250n - sek, currency: 'NOK' });
    expect(await reads.balances()).toMatchObject({
      closingBooked: ['5000.00', expect.any(String)],
      expected: [expected, undefined],
      interimAvailable: [expected, undefined],
    });
  });
});
