/**
 * Future-dated payments and batch runs (docs/design.md §3). Each test has a TPP of its own; dates
 * are bank days after the real today, reached by moving the TPP's sandbox clock:
 * - approved with a requestedExecutionDate after the TPP's today: PDNG; a run before that date
 *   leaves it PDNG, untouched; once the TPP's clock reaches the date a run executes it (PDNG→ACSP→
 *   ACSC), booked on that date; single and bulk alike;
 * - approved once the TPP's clock has reached its date: ACTC, not PDNG;
 * - lacking funds on its date: PDNG→ACCP, then RJCT at the day's last run;
 * - only the paying TPP's clock counts: another TPP moving its own clock to the date makes nothing due.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  balanceOf,
  freshTpp,
  fundedPsu,
  ledgerOfPayment,
  nextBankDay,
  NO_COUNTS,
  osloDateTime,
  paymentMoves,
  readClock,
  realToday,
  runBatch,
  setClock,
  statusOf,
  tppOnBankDay,
  useTestServer,
} from '../support/execution.js';
import { bulkBody, NDCT, ndctBody } from '../support/payments.js';
import { walk } from '../support/sca.js';

describe.each(DIALECTS)('future-dated payments (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  it('approved PDNG, untouched by runs before its date, executed by a run once the TPP clock reaches it', async () => {
    const { client, day: first, psu } = await tppOnBankDay(server, '10:00', '1000.00');
    const due = nextBankDay(first);
    const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: due }), psu.headers);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'PDNG' });

    expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    await setClock(client, osloDateTime(first, '16:00'));
    expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'PDNG' });
    expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '1000.00' });

    await setClock(client, osloDateTime(due, '06:00'));
    expect(await runBatch(client)).toMatchObject({ today: due, counts: { ...NO_COUNTS, executed: 1 } });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>PDNG', 'PDNG>ACSP', 'ACSP>ACSC']);
    const [posting] = await ledgerOfPayment(server, payment.paymentId);
    expect(posting!.bookingDate).toBe(due);
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '899.67' });
  });

  it('a PDNG payment whose date has passed is executed by the next run', async () => {
    const { client } = await freshTpp(server);
    const due = nextBankDay();
    const psu = await fundedPsu(client, '1000.00');
    const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: due }), psu.headers);
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('PDNG');
    const later = nextBankDay(nextBankDay(due));
    await setClock(client, osloDateTime(later, '10:00'));
    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
  });

  it('a future-dated bulk: PDNG, then executed payment by payment on its date', async () => {
    const { client } = await freshTpp(server);
    const due = nextBankDay();
    const psu = await fundedPsu(client, '1000.00');
    const payment = await approvedPayment(
      client,
      'bulk-payments',
      NDCT,
      bulkBody(psu.account, { requestedExecutionDate: due }),
      psu.headers,
    );
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'PDNG' });
    expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('PDNG');

    await setClock(client, osloDateTime(due, '10:00'));
    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>PDNG', 'PDNG>ACSP', 'ACSP>ACSC']);
    expect((await ledgerOfPayment(server, payment.paymentId)).map((posting) => [posting.idempotencyKey, posting.bookingDate])).toEqual([
      [`payment:${payment.paymentId}:1`, due],
      [`payment:${payment.paymentId}:2`, due],
    ]);
    // bulkBody: 250.00 + 12.50
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '737.50' });
  });

  it('approved once the TPP clock has reached its date: ACTC, not PDNG', async () => {
    const { client } = await freshTpp(server);
    const due = nextBankDay();
    const psu = await fundedPsu(client, '1000.00');
    // Created while the date is still ahead, approved after the clock reached it.
    const created = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account, { requestedExecutionDate: due }), {
      headers: psu.headers,
    });
    expect(created.status, created.text).toBe(201);
    await setClock(client, osloDateTime(due, '08:00'));
    await walk(created.body._links.scaRedirect.href);
    const path = new URL(String(created.headers.location)).pathname;
    expect(await statusOf(client, path)).toEqual({ transactionStatus: 'ACTC' });
    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, executed: 1 });
    expect(await paymentMoves(server, created.body.paymentId)).toEqual(['RCVD>ACTC', 'ACTC>ACSP', 'ACSP>ACSC']);
  });

  it('lacking funds on its date: PDNG→ACCP with fundsAvailable false, then RJCT at the day last run', async () => {
    const { client } = await freshTpp(server);
    const due = nextBankDay();
    const psu = await fundedPsu(client, '10.00');
    const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: due }), psu.headers);
    await setClock(client, osloDateTime(due, '10:00'));
    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, awaitingFunds: 1 });
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACCP', fundsAvailable: false });
    await setClock(client, osloDateTime(due, '16:00'));
    expect((await runBatch(client)).counts).toEqual({ ...NO_COUNTS, rejected: 1 });
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
    expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>PDNG', 'PDNG>ACCP', 'ACCP>RJCT']);
  });

  it("only the paying TPP's clock counts: another TPP at the date makes nothing due", async () => {
    const a = await freshTpp(server);
    const b = await freshTpp(server);
    const due = nextBankDay();
    const psu = await fundedPsu(a.client, '1000.00');
    const payment = await approvedPayment(a.client, 'payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: due }), psu.headers);
    await setClock(b.client, osloDateTime(due, '10:00'));
    expect((await runBatch(b.client)).counts).toEqual(NO_COUNTS);
    expect((await readClock(a.client)).today).toBe(realToday());
    expect((await runBatch(a.client)).counts).toEqual(NO_COUNTS);
    expect(await statusOf(a.client, payment.path)).toEqual({ transactionStatus: 'PDNG' });
    expect(await balanceOf(a.client, psu.accountId)).toMatchObject({ closingBooked: '1000.00' });
  });
});
