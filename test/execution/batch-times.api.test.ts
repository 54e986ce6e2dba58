/**
 * The configured batch times (XS2A_BATCH_TIMES, here 08:00 and 12:00 Europe/Oslo) decide the
 * sandbox clock's view of the day's runs and which run is the day's last (docs/design.md §6):
 * - the clock counts the runs still to come and names the next one by these times;
 * - a run before the last time leaves a payment lacking funds ACCP; a run at or after it is the
 *   day's last (lastRunOfDay true) and rejects it.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  approvedPayment,
  freshTpp,
  nextBankDay,
  NO_COUNTS,
  osloDateTime,
  readClock,
  runBatch,
  setClock,
  statusOf,
  tppOnBankDay,
  useTestServer,
} from '../support/execution.js';
import { NDCT, ndctBody } from '../support/payments.js';

const at = (date: string, time: string) => new Date(osloDateTime(date, time)).toISOString();

describe.each(DIALECTS)('configured batch times (%s)', (dialect) => {
  const server = useTestServer({ dialect, env: { XS2A_BATCH_TIMES: '08:00,12:00' } });

  it('the clock counts the configured runs left and names the next one', async () => {
    const { client } = await freshTpp(server);
    const day = nextBankDay();
    expect(await setClock(client, osloDateTime(day, '07:00'))).toMatchObject({ batchRunsLeftToday: 2, nextBatchRun: at(day, '08:00') });
    expect(await setClock(client, osloDateTime(day, '11:00'))).toMatchObject({ batchRunsLeftToday: 1, nextBatchRun: at(day, '12:00') });
    expect(await setClock(client, osloDateTime(day, '12:00'))).toMatchObject({
      batchRunsLeftToday: 0,
      nextBatchRun: at(nextBankDay(day), '08:00'),
    });
  });

  it('before the last configured time a payment lacking funds waits; at that time the run is the last and rejects it', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '11:59', '10.00');
    const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    expect(await runBatch(client)).toMatchObject({ today: day, lastRunOfDay: false, counts: { ...NO_COUNTS, awaitingFunds: 1 } });
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('ACCP');

    await setClock(client, osloDateTime(day, '12:00'));
    expect((await readClock(client)).batchRunsLeftToday).toBe(0);
    expect(await runBatch(client)).toMatchObject({ today: day, lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
    expect(await statusOf(client, payment.path)).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
  });

  it('13:00 would be before the default last run (15:35) but is after the configured one', async () => {
    const { client, psu } = await tppOnBankDay(server, '13:00', '10.00');
    const payment = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    expect(await runBatch(client)).toMatchObject({ lastRunOfDay: true, counts: { ...NO_COUNTS, rejected: 1 } });
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
  });
});
