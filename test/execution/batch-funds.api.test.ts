/**
 * Payments lacking funds and bulk payments in batch runs (docs/design.md §3/§6). Each test has a
 * TPP of its own and moves its sandbox clock to a known time, with the default batch times
 * (05:35, 09:30, 11:30, 13:35, 15:35 Europe/Oslo), so nothing depends on the real time of day:
 * - the funds check is on interimAvailable: an amount equal to it is paid, one above is not;
 * - lacking funds before the day's last run: ACCP with fundsAvailable false, retried by every later
 *   run of the same bank day, and executed (ACCP→ACSP→ACSC) once the funds arrive;
 * - still lacking at the day's last run (the TPP's clock at or after the last batch time of a bank
 *   day; lastRunOfDay true): RJCT with a psuMessage naming insufficient funds;
 * - an ACCP payment whose day has passed is rejected by the next run if still lacking funds;
 * - on a weekend or holiday no run is the day's last: a payment lacking funds then waits for the
 *   next bank day, and is rejected only at that day's last run;
 * - bulk payments: executed payment by payment in order, each its own ledger posting; all paid:
 *   ACSC; some lacking funds: PART with a psuMessage naming the payments (1-based) not executed,
 *   grouped by reason and within the Berlin Group's 500 characters;
 *   none paid: ACCP, then RJCT at the last run, or ACSC once funds arrive;
 * - a bulk with batchBookingPreferred true executes all or none: one payment lacking funds keeps
 *   every one unbooked (ACCP, then RJCT at the last run saying none was executed), never PART, and
 *   the money it did not take pays a later payment of the same run.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  balanceOf,
  freshTpp,
  fundedPsu,
  inBankAccount,
  ledgerOfPayment,
  nextBankDay,
  nextNonBankDay,
  NO_COUNTS,
  nok,
  osloDateTime,
  paymentMoves,
  readClock,
  runBatch,
  setBalance,
  setClock,
  statusOf,
  tppOnBankDay,
  useTestServer,
  type FundedPsu,
} from '../support/execution.js';
import { bulkBody, bulkItem, NDCT, ndctBody } from '../support/payments.js';

const INSUFFICIENT = /insufficient funds/i;

describe.each(DIALECTS)('batch runs and funds (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  describe('a single payment', () => {
    it('an amount equal to interimAvailable is paid, leaving 0.00', async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '100.33');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await balanceOf(client, psu.accountId)).toEqual({ closingBooked: '0.00', expected: '0.00', interimAvailable: '0.00' });
    });

    it('lacking funds before the last run: ACCP with fundsAvailable false, retried, executed once the funds arrive', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '100.32');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);

      const first = await runBatch(client);
      expect(first).toMatchObject({ today: day, lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP']);

      // Retried in vain: still awaiting funds, and no new status move.
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP']);
      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '100.32', interimAvailable: '100.32' });

      await setBalance(client, psu.accountId, '1000.00');
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP', 'ACCP>ACSP', 'ACSP>ACSC']);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '899.67', interimAvailable: '899.67' });
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      expect(posting!.bookingDate).toBe(day);
    });

    it('still lacking funds at the day last run: RJCT with a psuMessage naming insufficient funds', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '50.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });

      await setClock(client, osloDateTime(day, '16:00'));
      const last = await runBatch(client);
      expect(last).toMatchObject({ today: day, lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
      const status = await statusOf(client, payment.path);
      expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
      expect(status.psuMessage).toMatch(INSUFFICIENT);
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP', 'ACCP>RJCT']);
      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '50.00' });
      // Final: funds arriving later change nothing.
      await setBalance(client, psu.accountId, '1000.00');
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
    });

    it('lacking funds when first taken by the day last run: rejected at once', async () => {
      const { client, psu } = await tppOnBankDay(server, '16:00', '50.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
      expect((await statusOf(client, payment.path)).psuMessage).toMatch(INSUFFICIENT);
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>RJCT']);
    });

    it('with funds, the day last run executes as any other', async () => {
      const { client, psu } = await tppOnBankDay(server, '16:00', '1000.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, executed: 1 } });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    });

    it('the last run is the last batch time: at 15:34 one run is left and nothing is rejected; at 15:35 it is the last', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '15:34', '50.00');
      expect(await readClock(client)).toMatchObject({ today: day, batchRunsLeftToday: 1 });
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('ACCP');

      await setClock(client, osloDateTime(day, '15:35'));
      expect(await readClock(client)).toMatchObject({ today: day, batchRunsLeftToday: 0 });
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
    });

    it('an ACCP payment whose day has passed is rejected by the next run, even with runs left that day', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '50.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });

      const next = nextBankDay(day);
      await setClock(client, osloDateTime(next, '10:00'));
      expect(await runBatch(client)).toMatchObject({ today: next, lastRunOfDay: false, counts: { ...NO_COUNTS, rejected: 1 } });
      const status = await statusOf(client, payment.path);
      expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
      expect(status.psuMessage).toMatch(INSUFFICIENT);
    });

    it('an ACCP payment whose funds arrive on a later run of its day is executed, not rejected', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '09:00', '50.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      await setClock(client, osloDateTime(day, '14:00'));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      await setBalance(client, psu.accountId, '200.00');
      await setClock(client, osloDateTime(day, '16:00'));
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, executed: 1 } });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '99.67' });
    });

    it('on a weekend or holiday no run is the last: lacking funds waits for the next bank day and its last run', async () => {
      const { client } = await freshTpp(server);
      const offDay = nextNonBankDay();
      const bankDay = nextBankDay(offDay);
      await setClock(client, osloDateTime(offDay, '16:00'));
      const psu = await fundedPsu(client, '50.00');
      const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect(await runBatch(client)).toMatchObject({ today: offDay, lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });

      // The next bank day is the day it waits on: not passed at that day's first runs.
      await setClock(client, osloDateTime(bankDay, '10:00'));
      expect(await runBatch(client)).toMatchObject({ today: bankDay, lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });

      await setClock(client, osloDateTime(bankDay, '16:00'));
      expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
    });

    it('payments from one account are checked one after the other: the first takes the funds, the second waits', async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const first = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, nok('600.00')), psu.headers);
      const second = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, nok('600.00')), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1, awaitingFunds: 1 });
      const statuses = [(await statusOf(client, first.path)).transactionStatus, (await statusOf(client, second.path)).transactionStatus];
      expect(statuses.sort()).toEqual(['ACCP', 'ACSC']);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '400.00', interimAvailable: '400.00' });
    });
  });

  describe('a bulk payment', () => {
    /** Executed payment by payment unless `batchBookingPreferred` (then all or none). */
    function bulk(
      psu: FundedPsu,
      day: string,
      amounts: readonly string[],
      creditors: readonly ({ bban: string } | undefined)[] = [],
      batchBookingPreferred = false,
    ) {
      return bulkBody(psu.account, {
        batchBookingPreferred,
        requestedExecutionDate: day,
        payments: amounts.map((amount, index) =>
          bulkItem({ ...nok(amount), ...(creditors[index] ? { creditorAccount: creditors[index] } : {}) }),
        ),
      });
    }

    it('all funded: each payment its own posting, in order; ACSC with fundsAvailable true', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const creditor = await inBankAccount(client);
      const payment = await approvedPayment(
        client,
        'bulk-payments',
        NDCT,
        bulk(psu, day, ['250.00', '12.50', '100.00'], [undefined, undefined, { bban: creditor.bban }]),
        psu.headers,
      );
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACTC' });
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
      const postings = await ledgerOfPayment(server, payment.paymentId);
      expect(postings.map((posting) => [posting.idempotencyKey, posting.bookingDate, posting.legs[0]])).toEqual([
        [`payment:${payment.paymentId}:1`, day, { accountId: psu.accountId, currency: 'NOK', amountMinor: '-25000' }],
        [`payment:${payment.paymentId}:2`, day, { accountId: psu.accountId, currency: 'NOK', amountMinor: '-1250' }],
        [`payment:${payment.paymentId}:3`, day, { accountId: psu.accountId, currency: 'NOK', amountMinor: '-10000' }],
      ]);
      expect(postings[2]!.legs[1]).toEqual({ accountId: creditor.accountId, currency: 'NOK', amountMinor: '10000' });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '637.50', interimAvailable: '637.50' });
      expect(await balanceOf(client, creditor.accountId)).toMatchObject({ closingBooked: '100.00' });
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(3);
    });

    it('some lacking funds: executed in order, PART with a psuMessage naming the payments not executed', async () => {
      // In order: 500 paid (100 left), 200 lacks funds, 50 paid. Any other order would fail another one.
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '600.00');
      const payment = await approvedPayment(client, 'bulk-payments', NDCT, bulk(psu, day, ['500.00', '200.00', '50.00']), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, partiallyExecuted: 1 });
      expect(await statusOf(client, payment.path)).toEqual({
        transactionStatus: 'PART',
        fundsAvailable: false,
        psuMessage: '2 of 3 payments executed; not executed: payment 2 (insufficient funds)',
      });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>PART']);
      expect((await ledgerOfPayment(server, payment.paymentId)).map((posting) => posting.idempotencyKey)).toEqual([
        `payment:${payment.paymentId}:1`,
        `payment:${payment.paymentId}:3`,
      ]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '50.00', interimAvailable: '50.00' });
      // PART is final: funds arriving later do not pay the rest.
      await setBalance(client, psu.accountId, '1000.00');
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('PART');
      expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(2);
    });

    it('several lacking funds are all named', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '100.00');
      const payment = await approvedPayment(
        client,
        'bulk-payments',
        NDCT,
        bulk(psu, day, ['500.00', '60.00', '70.00', '40.00']),
        psu.headers,
      );
      await runBatch(client);
      expect(await statusOf(client, payment.path)).toEqual({
        transactionStatus: 'PART',
        fundsAvailable: false,
        psuMessage: '2 of 4 payments executed; not executed: payments 1, 3 (insufficient funds)',
      });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '0.00' });
    });

    it('275 of 300 lacking funds: the psuMessage stays within the Berlin Group 500 characters, grouping them by reason', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '25.00');
      const payment = await approvedPayment(client, 'bulk-payments', NDCT, bulk(psu, day, Array<string>(300).fill('1.00')), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, partiallyExecuted: 1 });
      // statusOf checks the answer against the Berlin Group schema (psuMessageText: maxLength 500).
      expect(await statusOf(client, payment.path)).toEqual({
        transactionStatus: 'PART',
        fundsAvailable: false,
        psuMessage: '25 of 300 payments executed; not executed: payments 26-300 (insufficient funds)',
      });
    });

    it('none funded: ACCP with fundsAvailable false, then RJCT at the day last run', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '10.00');
      const payment = await approvedPayment(client, 'bulk-payments', NDCT, bulk(psu, day, ['250.00', '12.50']), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
      await setClock(client, osloDateTime(day, '16:00'));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, rejected: 1 });
      const status = await statusOf(client, payment.path);
      expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
      expect(status.psuMessage).toMatch(INSUFFICIENT);
      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '10.00' });
    });

    describe('with batchBookingPreferred true (all or none)', () => {
      it('all funded: ACSC, each payment its own posting', async () => {
        const { client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
        const payment = await approvedPayment(
          client,
          'bulk-payments',
          NDCT,
          bulk(psu, day, ['500.00', '200.00', '50.00'], [], true),
          psu.headers,
        );
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
        expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
        expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(3);
        expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '250.00' });
      });

      it('one lacking funds: no payment booked, ACCP, then RJCT at the day last run naming why; never PART', async () => {
        // Item by item, 500 and 50 would be paid and 200 not (the PART test above); all or none, nothing is.
        const { client, day, psu } = await tppOnBankDay(server, '10:00', '600.00');
        const payment = await approvedPayment(
          client,
          'bulk-payments',
          NDCT,
          bulk(psu, day, ['500.00', '200.00', '50.00'], [], true),
          psu.headers,
        );
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
        expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
        expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
        expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '600.00', interimAvailable: '600.00' });
        await setClock(client, osloDateTime(day, '16:00'));
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, rejected: 1 });
        expect(await statusOf(client, payment.path)).toEqual({
          transactionStatus: 'RJCT',
          fundsAvailable: false,
          psuMessage: `Insufficient funds on the debtor account for all the payments of the bulk: not executed by the last batch run of ${day}; none of the 3 payments was executed, as the bulk is booked as one (batchBookingPreferred)`,
        });
        expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP', 'ACCP>RJCT']);
        expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
        expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '600.00' });
      });

      it('one lacking funds, then the funds arrive: every payment executed together, ACSC', async () => {
        const { client, day, psu } = await tppOnBankDay(server, '10:00', '600.00');
        const payment = await approvedPayment(
          client,
          'bulk-payments',
          NDCT,
          bulk(psu, day, ['500.00', '200.00', '50.00'], [], true),
          psu.headers,
        );
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
        await setBalance(client, psu.accountId, '750.00');
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
        expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
        expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(3);
        expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '0.00' });
      });

      it('what a bulk left unbooked pays a later payment of the same run from the account', async () => {
        const { client, day, psu } = await tppOnBankDay(server, '10:00', '600.00');
        const first = await approvedPayment(client, 'bulk-payments', NDCT, bulk(psu, day, ['500.00', '200.00'], [], true), psu.headers);
        const second = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, nok('550.00')), psu.headers);
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1, awaitingFunds: 1 });
        expect((await statusOf(client, first.path)).transactionStatus).toBe('ACCP');
        expect((await statusOf(client, second.path)).transactionStatus).toBe('ACSC');
        expect(await ledgerOfPayment(server, first.paymentId)).toEqual([]);
        expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '50.00' });
      });
    });

    it('none funded, then the funds arrive: every payment executed, ACSC', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '10.00');
      const payment = await approvedPayment(client, 'bulk-payments', NDCT, bulk(psu, day, ['250.00', '12.50']), psu.headers);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      await setBalance(client, psu.accountId, '300.00');
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP', 'ACCP>ACSP', 'ACSP>ACSC']);
      expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(2);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '37.50' });
    });
  });
});
