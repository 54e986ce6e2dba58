/**
 * `POST /v1/sandbox/batch-runs` (docs/design.md §3/§6): the batch run now, over the calling TPP's
 * payments only. Every test has a TPP of its own (its own sandbox and clock).
 * - the answer: 200 {batchRunId, startedAt, finishedAt, durationMs, today, lastRunOfDay, counts},
 *   the six counts per payment; the run is recorded; a signature is needed;
 * - due: ACTC (and PDNG whose date has come, ACCP: see future-dated and batch-funds); RCVD, RJCT
 *   and CANC are left alone; periodic payments are never executed (ACTC stays, and /status says
 *   the sandbox does not execute them);
 * - executed: the debtor debited in one ledger posting booked on the TPP's today; the creditor
 *   credited when it is an account of the same TPP's sandbox in the same currency (else the TPP's
 *   clearing account); ACSC with fundsAvailable true; audit ACTC→ACSP→ACSC; executed once only,
 *   also when two runs go at once;
 * - a payment in EUR (NCBCT, CBCT, SCT) from a NOK account is debited its NOK equivalent (the
 *   configured rates, convertMinor), and the funds check is on that;
 * - an error while executing one payment rolls it back (counted failed) and the next run executes
 *   it; a transfer the bank refuses rejects the payment at once;
 * - an ACCP payment cancelled through a cancellation authorisation stays CANC, with no debit;
 * - the status resource after execution matches the Berlin Group schema.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CoreBanking } from '../../src/bank/core-banking.port.js';
import { sandboxClearingAccount } from '../../src/modules/sandbox/sandbox-core-banking.js';
import type { TppClient } from '../../src/client/tpp-client.js';
import { addDays } from '../../src/domain/iso-date.js';
import { convertMinor } from '../../src/domain/regulatory-reporting.js';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  balanceOf,
  freshTpp,
  fundedPsu,
  inBankAccount,
  ledgerOfPayment,
  nextBankDay,
  NO_COUNTS,
  nok,
  osloDateTime,
  paymentMoves,
  runBatch,
  setBalance,
  setClock,
  statusOf,
  tppOnBankDay,
  useTestServer,
} from '../support/execution.js';
import { CBCT, crossBorderBody, NCBCT, NDCT, ndctBody, periodicBody, SCT, sctBody, type Body, type Psu } from '../support/payments.js';
import { createPayment, startAuthorisation, walk } from '../support/sca.js';

const PERIODIC_NOT_EXECUTED = 'Registered. The sandbox does not execute periodic payments: batch runs leave them as they are.';

describe.each(DIALECTS)('batch runs (%s)', (dialect) => {
  /** Debtor accounts whose transfers throw (an outage in the middle of a run). */
  const failing = new Set<string>();
  /** Debtor accounts whose transfers the bank refuses, with the reason. */
  const refusing = new Map<string, string>();

  const server = useTestServer({
    dialect,
    coreBanking: (sandbox): CoreBanking => {
      const submitPayment: CoreBanking['submitPayment'] = async (tpp, instruction) => {
        if (failing.has(instruction.debtorAccountId)) throw new Error('core banking unavailable');
        const reason = refusing.get(instruction.debtorAccountId);
        if (reason !== undefined) return { kind: 'rejected', reason };
        return sandbox.submitPayment(tpp, instruction);
      };
      return {
        ...sandbox,
        submitPayment,
        async submitPayments(tpp, instructions) {
          // A file with a failing payment fails as a whole; the rest goes to the sandbox as one file.
          if (instructions.some((instruction) => failing.has(instruction.debtorAccountId))) throw new Error('core banking unavailable');
          const outcomes = await sandbox.submitPayments(
            tpp,
            instructions.filter((instruction) => !refusing.has(instruction.debtorAccountId)),
          );
          let next = 0;
          return instructions.map((instruction) => {
            const reason = refusing.get(instruction.debtorAccountId);
            return reason === undefined ? outcomes[next++]! : { kind: 'rejected' as const, reason };
          });
        },
      };
    },
  });

  /** A single payment from the PSU's account (with PSU-ID), walked to approval. */
  const approvedSingle = (client: TppClient, psu: Psu, product: string, body: Body) =>
    approvedPayment(client, 'payments', product, body, psu.headers);

  describe('the answer', () => {
    it('is 200 with the run: its id, times, the TPP bank date, whether it is the last run of the day, and six counts', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00');
      await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      const before = Date.now();
      const response = await client.post<any>('/v1/sandbox/batch-runs', undefined);
      expect(response.status, response.text).toBe(200);
      const run = response.body;
      expect(Object.keys(run).sort()).toEqual(['batchRunId', 'counts', 'durationMs', 'finishedAt', 'lastRunOfDay', 'startedAt', 'today']);
      expect(run.batchRunId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(run).toMatchObject({ today: day, lastRunOfDay: false, counts: { ...NO_COUNTS, executed: 1 } });
      expect(Object.keys(run.counts).sort()).toEqual(['awaitingFunds', 'executed', 'failed', 'partiallyExecuted', 'rejected', 'skipped']);
      // The run's times are the real ones (the TPP's clock moves its bank date, not the log).
      const started = Date.parse(run.startedAt);
      const finished = Date.parse(run.finishedAt);
      expect(new Date(started).toISOString()).toBe(run.startedAt);
      expect(started).toBeGreaterThanOrEqual(before - 1000);
      expect(finished).toBeGreaterThanOrEqual(started);
      expect(finished).toBeLessThanOrEqual(Date.now() + 1000);
      expect(run.durationMs).toBe(finished - started);
      // A second run gets its own id.
      expect((await runBatch(client)).batchRunId).not.toBe(run.batchRunId);
    });

    it('records the run, limited to the calling TPP, with its counts once finished', async () => {
      const { orgId, client } = await freshTpp(server);
      const psu = await fundedPsu(client);
      await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      const run = await runBatch(client);
      const row = await server.database.db.selectFrom('batch_run').selectAll().where('id', '=', run.batchRunId).executeTakeFirstOrThrow();
      expect({ trigger: row.trigger, tppId: row.tpp_id, startedAt: row.started_at, finishedAt: row.finished_at }).toEqual({
        trigger: 'requested',
        tppId: orgId,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
      });
      expect(JSON.parse(row.counts ?? 'null')).toEqual(run.counts);
    });

    it('with nothing due: 200 and every count 0', async () => {
      const { client } = await freshTpp(server);
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    });

    it('needs a signature like every /v1 call', async () => {
      const response = await server.anonymous.post<any>('/v1/sandbox/batch-runs', undefined);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('SIGNATURE_MISSING');
    });
  });

  describe('an approved payment', () => {
    it('is debited in one posting booked on the TPP date, ACSC with fundsAvailable true, audited ACTC→ACSP→ACSC', async () => {
      const { orgId, client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const payment = await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACTC' });
      expect(await balanceOf(client, psu.accountId)).toEqual({
        closingBooked: '1000.00',
        expected: '1000.00',
        interimAvailable: '1000.00',
      });

      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });

      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
      expect(await balanceOf(client, psu.accountId)).toEqual({ closingBooked: '899.67', expected: '899.67', interimAvailable: '899.67' });
      // The creditor is not an account of this bank: the other leg is the TPP's clearing account.
      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([
        {
          idempotencyKey: `payment:${payment.paymentId}`,
          status: 'booked',
          bookingDate: day,
          description: 'Company 123: Kredittrente',
          legs: [
            { accountId: psu.accountId, currency: 'NOK', amountMinor: '-10033' },
            { accountId: sandboxClearingAccount({ tppId: orgId }), currency: 'NOK', amountMinor: '10033' },
          ],
        },
      ]);
    });

    it('credits the creditor account when it is an account of the same sandbox in the same currency', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const creditor = await inBankAccount(client);
      const payment = await approvedSingle(client, psu, NDCT, ndctBody(psu.account, { creditorAccount: { bban: creditor.bban } }));
      await runBatch(client);
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '899.67', interimAvailable: '899.67' });
      expect(await balanceOf(client, creditor.accountId)).toEqual({
        closingBooked: '100.33',
        expected: '100.33',
        interimAvailable: '100.33',
      });
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      expect(posting!.legs).toEqual([
        { accountId: psu.accountId, currency: 'NOK', amountMinor: '-10033' },
        { accountId: creditor.accountId, currency: 'NOK', amountMinor: '10033' },
      ]);
    });

    it('does not credit an account of this sandbox in another currency, nor an account of another TPP sandbox', async () => {
      const { orgId, client } = await freshTpp(server);
      const other = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const inEuro = await inBankAccount(client, 'EUR');
      const elsewhere = await inBankAccount(other.client);
      const toEuro = await approvedSingle(client, psu, NDCT, ndctBody(psu.account, { creditorAccount: { bban: inEuro.bban } }));
      const toOther = await approvedSingle(client, psu, NDCT, ndctBody(psu.account, { creditorAccount: { bban: elsewhere.bban } }));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 2 });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '799.34' });
      expect(await balanceOf(client, inEuro.accountId)).toMatchObject({ closingBooked: '0.00', interimAvailable: '0.00' });
      expect(await balanceOf(other.client, elsewhere.accountId)).toMatchObject({ closingBooked: '0.00', interimAvailable: '0.00' });
      for (const payment of [toEuro, toOther]) {
        const [posting] = await ledgerOfPayment(server, payment.paymentId);
        expect(posting!.legs).toEqual([
          { accountId: psu.accountId, currency: 'NOK', amountMinor: '-10033' },
          { accountId: sandboxClearingAccount({ tppId: orgId }), currency: 'NOK', amountMinor: '10033' },
        ]);
      }
    });

    it('is executed exactly once: a second run does nothing to it', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const payment = await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
      expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(1);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '899.67', interimAvailable: '899.67' });
    });

    it('two runs at once execute each payment once', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const payments = [];
      for (const amount of ['100.00', '200.00', '300.00']) {
        payments.push(await approvedSingle(client, psu, NDCT, ndctBody(psu.account, nok(amount))));
      }
      const [one, two] = await Promise.all([runBatch(client), runBatch(client)]);
      expect(one.counts.executed + two.counts.executed).toBe(3);
      for (const run of [one, two]) {
        expect({ ...run.counts, executed: 0, skipped: 0 }).toEqual(NO_COUNTS);
      }
      for (const payment of payments) {
        expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
        expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
        expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(1);
      }
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '400.00', interimAvailable: '400.00' });
    });
  });

  describe('what is not due', () => {
    it('RCVD (not approved), RJCT (SCA rejected) and CANC (cancelled before approval) are left alone', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const received = await createPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      const rejected = await createPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      await walk(rejected.links['scaRedirect']!.href, { decision: 'reject' });
      const cancelled = await createPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
      expect((await client.delete<any>(cancelled.path)).status).toBe(204);

      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);

      expect((await statusOf(client, received.path)).transactionStatus).toBe('RCVD');
      expect((await statusOf(client, rejected.path)).transactionStatus).toBe('RJCT');
      expect((await statusOf(client, cancelled.path)).transactionStatus).toBe('CANC');
      for (const payment of [received, rejected, cancelled]) expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00', interimAvailable: '1000.00' });
    });

    it('a periodic payment is never executed: it stays ACTC and /status says the sandbox does not execute it', async () => {
      const { client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const periodic = await approvedPayment(
        client,
        'periodic-payments',
        NDCT,
        periodicBody(psu.account, { startDate: day, frequency: 'Daily' }),
        psu.headers,
      );
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      // Weeks later, with many execution dates passed: still nothing.
      const later = nextBankDay(addDays(day, 40));
      await setClock(client, osloDateTime(later, '10:00'));
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect(await statusOf(client, periodic.path)).toEqual({ transactionStatus: 'ACTC', psuMessage: PERIODIC_NOT_EXECUTED });
      expect(await paymentMoves(server, periodic.paymentId)).toEqual(['RCVD>ACTC']);
      expect(await ledgerOfPayment(server, periodic.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00' });
    });
  });

  describe('scope', () => {
    it("runs over the calling TPP's payments only", async () => {
      const a = await freshTpp(server);
      const b = await freshTpp(server);
      const psuA = await fundedPsu(a.client, '1000.00');
      const psuB = await fundedPsu(b.client, '1000.00');
      const paymentA = await approvedSingle(a.client, psuA, NDCT, ndctBody(psuA.account));
      const paymentB = await approvedSingle(b.client, psuB, NDCT, ndctBody(psuB.account));

      expect((await runBatch(a.client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect((await statusOf(a.client, paymentA.path)).transactionStatus).toBe('ACSC');
      expect(await statusOf(b.client, paymentB.path)).toEqual({ transactionStatus: 'ACTC' });
      expect(await balanceOf(b.client, psuB.accountId)).toMatchObject({ closingBooked: '1000.00' });
      expect(await ledgerOfPayment(server, paymentB.paymentId)).toEqual([]);

      expect((await runBatch(b.client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect((await statusOf(b.client, paymentB.path)).transactionStatus).toBe('ACSC');
      expect(await balanceOf(b.client, psuB.accountId)).toMatchObject({ closingBooked: '899.67' });
    });
  });

  describe('another currency', () => {
    it.each([
      [NCBCT, (debtor: { bban: string }) => crossBorderBody(debtor, { instructedAmount: { currency: 'EUR', amount: '100.33' } })],
      [CBCT, (debtor: { bban: string }) => crossBorderBody(debtor, { instructedAmount: { currency: 'EUR', amount: '100.33' } })],
      [SCT, (debtor: { bban: string }) => sctBody(debtor)],
    ])('%s in EUR from a NOK account debits the NOK equivalent', async (product, body) => {
      const { orgId, client } = await freshTpp(server);
      const psu = await fundedPsu(client, '10000.00');
      const payment = await approvedSingle(client, psu, product, body(psu.account));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      const debit = convertMinor({ minor: 10033n, currency: 'EUR' }, 'NOK', server.config.nokRates)!;
      expect(debit).toBeGreaterThan(10033n);
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      expect(posting!.legs).toEqual([
        { accountId: psu.accountId, currency: 'NOK', amountMinor: String(-debit) },
        { accountId: sandboxClearingAccount({ tppId: orgId }), currency: 'NOK', amountMinor: String(debit) },
      ]);
      const left = 1_000_000n - debit;
      expect((await balanceOf(client, psu.accountId)).closingBooked).toBe(`${left / 100n}.${String(left % 100n).padStart(2, '0')}`);
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    });

    it('the funds check is on the NOK equivalent: EUR 100.33 from NOK 1000.00 lacks funds', async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const payment = await approvedSingle(client, psu, SCT, sctBody(psu.account));
      expect(convertMinor({ minor: 10033n, currency: 'EUR' }, 'NOK', server.config.nokRates)!).toBeGreaterThan(100_000n);
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00' });
    });

    it('EUR to an EUR account of the same sandbox credits it the instructed EUR amount', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '10000.00');
      const euro = await inBankAccount(client, 'EUR');
      const payment = await approvedSingle(client, psu, SCT, sctBody(psu.account, { creditorAccount: { iban: euro.iban } }));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await balanceOf(client, euro.accountId)).toEqual({ closingBooked: '100.33', expected: '100.33', interimAvailable: '100.33' });
      const debit = convertMinor({ minor: 10033n, currency: 'EUR' }, 'NOK', server.config.nokRates)!;
      const [posting] = await ledgerOfPayment(server, payment.paymentId);
      expect(posting!.legs).toContainEqual({ accountId: psu.accountId, currency: 'NOK', amountMinor: String(-debit) });
      expect(posting!.legs).toContainEqual({ accountId: euro.accountId, currency: 'EUR', amountMinor: '10033' });
    });
  });

  describe('when the bank fails or refuses', () => {
    it('an error while executing one payment rolls it back (failed); the others are executed; the next run executes it', async () => {
      const { client } = await freshTpp(server);
      const broken = await fundedPsu(client, '1000.00');
      const fine = await fundedPsu(client, '1000.00');
      const stuck = await approvedSingle(client, broken, NDCT, ndctBody(broken.account));
      const paid = await approvedSingle(client, fine, NDCT, ndctBody(fine.account));
      failing.add(broken.accountId);
      try {
        expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1, failed: 1 });
      } finally {
        failing.delete(broken.accountId);
      }
      expect(await statusOf(client, stuck.path)).toEqual({ transactionStatus: 'ACTC' });
      expect(await paymentMoves(server, stuck.paymentId)).toEqual(['RCVD>ACTC']);
      expect(await ledgerOfPayment(server, stuck.paymentId)).toEqual([]);
      expect(await balanceOf(client, broken.accountId)).toMatchObject({ closingBooked: '1000.00' });
      expect((await statusOf(client, paid.path)).transactionStatus).toBe('ACSC');

      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
      expect(await statusOf(client, stuck.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await balanceOf(client, broken.accountId)).toMatchObject({ closingBooked: '899.67' });
    });

    it('a transfer the bank refuses rejects the payment at once, before the last run of the day, with the reason', async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '1000.00');
      const payment = await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      const reason = `The account is blocked (${randomUUID()})`;
      refusing.set(psu.accountId, reason);
      try {
        const run = await runBatch(client);
        expect(run.lastRunOfDay).toBe(false);
        expect(run.counts).toEqual({ ...NO_COUNTS, rejected: 1 });
      } finally {
        refusing.delete(psu.accountId);
      }
      expect(await statusOf(client, payment.path)).toEqual({
        transactionStatus: 'RJCT',
        fundsAvailable: false,
        psuMessage: `Not executed: ${reason}`,
      });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>RJCT']);
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00' });
    });
  });

  describe('cancellation', () => {
    it('an ACCP payment cancelled through a cancellation authorisation: CANC, and a run with funds does not debit it', async () => {
      const { client, psu } = await tppOnBankDay(server, '10:00', '50.00');
      const payment = await approvedSingle(client, psu, NDCT, ndctBody(psu.account));
      expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });

      const deleted = await client.delete<any>(payment.path);
      expect(deleted.status, deleted.text).toBe(202);
      expect(deleted.body.transactionStatus).toBe('ACCP');
      expect(deleted.body._links.startAuthorisation.href).toMatch(/\/cancellation-authorisations$/);
      const cancellation = await startAuthorisation(client, payment.path, psu.headers, 'cancellation-authorisations');
      await walk(cancellation.scaRedirect);
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('CANC');

      await setBalance(client, psu.accountId, '1000.00');
      expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
      expect((await statusOf(client, payment.path)).transactionStatus).toBe('CANC');
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACCP', 'ACCP>CANC']);
      expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00', interimAvailable: '1000.00' });
    });
  });
});
