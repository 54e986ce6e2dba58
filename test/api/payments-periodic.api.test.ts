/**
 * Periodic NDCT payments (standing orders, docs/design.md §2): the Berlin Group frequencies, executionRule
 * (with the documented spelling `preceeding` taken as `preceding`), dayOfExecution "1".."31",
 * monthsOfExecution for MonthlyVariable only (unique months), endDate not before startDate, and a
 * startDate within the accepted window. The GET shows up to 12 coming execution dates, each a
 * Norwegian bank day. Periodic payments have no allowLogicalDuplicate parameter.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBankDay } from '../../src/domain/bank-calendar.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import {
  expectError,
  initiate,
  NDCT,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  wire,
  type Body,
  type Psu,
} from '../support/payments.js';
import { osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
  'MonthlyVariable',
];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

describe.each(DIALECTS)('periodic payments (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  const post = (extra: Body, query?: string) =>
    initiate(server.client, 'periodic-payments', NDCT, periodicBody(psu.account, extra), { headers: psu.headers, query });

  /** Creates the payment and answers its GET, after checking the Berlin Group shape and the coming dates. */
  async function createAndRead(extra: Body) {
    const body = periodicBody(psu.account, extra);
    const response = await initiate(server.client, 'periodic-payments', NDCT, body, { headers: psu.headers });
    expect(response.status, response.text).toBe(201);
    const read = await server.client.get<any>(`/v1/periodic-payments/${NDCT}/${response.body.paymentId}`);
    expect(read.status, read.text).toBe(200);
    expectBerlinGroupSchema('periodicPaymentInitiationWithStatusResponse', read.body);
    expectExecutionDates(read.body.nextExecutionDates, body);
    return { body, read: read.body };
  }

  /** Up to 12 ISO dates, strictly increasing, each a bank day, from startDate to endDate. */
  function expectExecutionDates(dates: unknown, body: Body): void {
    expect(Array.isArray(dates), JSON.stringify(dates)).toBe(true);
    const list = dates as string[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(12);
    for (const date of list) {
      expect(date).toMatch(ISO_DATE);
      expect(isBankDay(date), `${date} is not a Norwegian bank day`).toBe(true);
    }
    for (let i = 1; i < list.length; i++) expect(list[i]! > list[i - 1]!, `${list[i - 1]} then ${list[i]}`).toBe(true);
    expect(list[0]! >= String(body['startDate']), `${list[0]} is before startDate ${String(body['startDate'])}`).toBe(true);
    const endDate = body['endDate'];
    if (typeof endDate === 'string') expect(list.at(-1)! <= endDate, `${list.at(-1)} is after endDate ${endDate}`).toBe(true);
  }

  it.each(FREQUENCIES)('accepts frequency %s, and its GET lists the coming execution dates on bank days', async (frequency) => {
    const extra: Body = { frequency, ...(frequency === 'MonthlyVariable' ? { monthsOfExecution: ['1', '4', '10'] } : {}) };
    const { read } = await createAndRead(extra);
    expect(read.frequency).toBe(frequency);
    // 12 dates, since the schedule has no end; Daily and Weekly must skip weekends and holidays.
    expect(read.nextExecutionDates).toHaveLength(12);
  });

  it('shows MonthlyVariable dates only in the months named', async () => {
    const { read } = await createAndRead({ frequency: 'MonthlyVariable', monthsOfExecution: ['1', '4', '10'], dayOfExecution: '15' });
    // Rolling to a bank day never moves the 15th out of its month.
    for (const date of read.nextExecutionDates as string[]) expect(['01', '04', '10']).toContain(date.slice(5, 7));
  });

  /** The next Christmas season whose 21 December is still ahead, with the Norwegian bank closing days, computed here independently. */
  function christmas() {
    const today = osloDay(0);
    const year = Number(today.slice(0, 4)) + (today.slice(5) > '12-20' ? 1 : 0);
    const closed = new Set([`${year}-12-24`, `${year}-12-25`, `${year}-12-26`, `${year + 1}-01-01`]);
    const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const bankDay = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()) && !closed.has(date);
    const roll = (date: string, step: 1 | -1): string => (bankDay(date) ? date : roll(shift(date, step), step));
    return { year, shift, bankDay, roll };
  }

  it('skips weekends, Christmas Eve, Christmas, Boxing Day and New Year for a Daily order from 21 December', async () => {
    const { year, shift, bankDay } = christmas();
    const expected: string[] = [];
    for (let date = `${year}-12-21`; expected.length < 12; date = shift(date, 1)) if (bankDay(date)) expected.push(date);
    const { read } = await createAndRead({ frequency: 'Daily', startDate: `${year}-12-21` });
    expect(read.nextExecutionDates).toEqual(expected);
  });

  it('rolls a Weekly order from Christmas Eve to the next bank day (following) or the one before (preceding)', async () => {
    const { year, shift, roll } = christmas();
    const starts = [0, 7, 14].map((days) => shift(`${year}-12-24`, days));
    const following = await createAndRead({ frequency: 'Weekly', startDate: `${year}-12-24`, executionRule: 'following' });
    expect(following.read.nextExecutionDates.slice(0, 3)).toEqual(starts.map((date) => roll(date, 1)));
    // Preceding: 24 December rolls to the 23rd, before startDate, so it is skipped.
    const preceding = await createAndRead({ frequency: 'Weekly', startDate: `${year}-12-24`, executionRule: 'preceding' });
    expect(preceding.read.nextExecutionDates.slice(0, 2)).toEqual(starts.slice(1).map((date) => roll(date, -1)));
  });

  it('refuses the frequency Fortnightly with 400 FORMAT_ERROR at frequency', async () => {
    expectError(await post({ frequency: 'Fortnightly' }), 400, 'FORMAT_ERROR', 'frequency');
  });

  it('refuses a periodic payment without startDate or frequency', async () => {
    expectError(await post({ startDate: undefined }), 400, 'FORMAT_ERROR', 'startDate');
    expectError(await post({ frequency: undefined }), 400, 'FORMAT_ERROR', 'frequency');
  });

  it('accepts executionRule "preceeding" as documented and answers it as "preceding" on GET', async () => {
    const { body, read } = await createAndRead({ executionRule: 'preceeding', dayOfExecution: '12' });
    expect(read).toEqual({
      ...wire(body),
      executionRule: 'preceding',
      transactionStatus: 'RCVD',
      nextExecutionDates: read.nextExecutionDates,
    });
  });

  it('accepts executionRule "following" and "preceding", and refuses another rule at executionRule', async () => {
    await createAndRead({ executionRule: 'following' });
    await createAndRead({ executionRule: 'preceding' });
    expectError(await post({ executionRule: 'nearest' }), 400, 'FORMAT_ERROR', 'executionRule');
  });

  it('accepts dayOfExecution "31" (the last day of each month)', async () => {
    const { read } = await createAndRead({ dayOfExecution: '31', executionRule: 'preceding' });
    expect(read.dayOfExecution).toBe('31');
  });

  it.each(['0', '32', '05', 'x', '-1'])('refuses dayOfExecution "%s" with 400 FORMAT_ERROR at dayOfExecution', async (day) => {
    expectError(await post({ dayOfExecution: day }), 400, 'FORMAT_ERROR', 'dayOfExecution');
  });

  it('refuses a numeric dayOfExecution (it is a string) at dayOfExecution', async () => {
    expectError(await post({ dayOfExecution: 12 }), 400, 'FORMAT_ERROR', 'dayOfExecution');
  });

  it.each([
    ['repeated months ["1","1"]', ['1', '1']],
    ['month "13"', ['13']],
    ['month "0"', ['0']],
    ['month "04" with a leading zero', ['04']],
    ['an empty list', []],
  ])('refuses MonthlyVariable with %s at monthsOfExecution', async (_, months) => {
    expectError(await post({ frequency: 'MonthlyVariable', monthsOfExecution: months }), 400, 'FORMAT_ERROR', 'monthsOfExecution');
  });

  it('refuses MonthlyVariable without monthsOfExecution at monthsOfExecution', async () => {
    expectError(await post({ frequency: 'MonthlyVariable' }), 400, 'FORMAT_ERROR', 'monthsOfExecution');
  });

  it('refuses monthsOfExecution with frequency Monthly at monthsOfExecution', async () => {
    expectError(await post({ frequency: 'Monthly', monthsOfExecution: ['1', '4'] }), 400, 'FORMAT_ERROR', 'monthsOfExecution');
  });

  it('refuses an endDate before startDate at endDate, and accepts an endDate equal to a bank-day startDate', async () => {
    expectError(await post({ startDate: osloDay(10), endDate: osloDay(9) }), 400, 'FORMAT_ERROR', 'endDate');
    let start = 10;
    while (!isBankDay(osloDay(start))) start++;
    const { read } = await createAndRead({ frequency: 'Daily', startDate: osloDay(start), endDate: osloDay(start) });
    expect(read.nextExecutionDates).toEqual([osloDay(start)]);
  });

  /** The first Saturday at least 10 days ahead (within the startDate window). */
  function comingSaturday(): number {
    let offset = 10;
    while (new Date(`${osloDay(offset)}T00:00:00Z`).getUTCDay() !== 6) offset++;
    return offset;
  }

  it.each(['following', 'preceding'])(
    'refuses startDate and endDate on the same Saturday (%s moves the only date outside them) at endDate',
    async (executionRule) => {
      const saturday = osloDay(comingSaturday());
      const response = await post({ frequency: 'Monthly', startDate: saturday, endDate: saturday, executionRule });
      expectError(response, 400, 'FORMAT_ERROR', 'endDate');
      expect(response.body.tppMessages[0].text).toContain('leaves no execution date in the schedule');
    },
  );

  it('does not list a date the following rule moves past endDate', async () => {
    // Weekly from a Saturday to the next: the first rolls to the Monday after it, the second past endDate.
    const saturday = comingSaturday();
    const { read } = await createAndRead({ frequency: 'Weekly', startDate: osloDay(saturday), endDate: osloDay(saturday + 7) });
    expect(read.nextExecutionDates).toHaveLength(1);
  });

  it('refuses an endDate that is not a date at endDate', async () => {
    expectError(await post({ endDate: '2027-13-01' }), 400, 'FORMAT_ERROR', 'endDate');
  });

  it('refuses a startDate in the past with 400 EXECUTION_DATE_INVALID at startDate, and creates nothing', async () => {
    const requestId = randomUUID();
    const response = await initiate(server.client, 'periodic-payments', NDCT, periodicBody(psu.account, { startDate: osloDay(-1) }), {
      headers: psu.headers,
      requestId,
    });
    expectError(response, 400, 'EXECUTION_DATE_INVALID', 'startDate');
    expect(await paymentsOfRequest(server, requestId)).toEqual([]);
  });

  it('refuses a startDate more than 365 days ahead with 400 EXECUTION_DATE_INVALID, and an impossible one with FORMAT_ERROR', async () => {
    expectError(await post({ startDate: osloDay(400) }), 400, 'EXECUTION_DATE_INVALID', 'startDate');
    expectError(await post({ startDate: '2027-02-30' }), 400, 'FORMAT_ERROR', 'startDate');
  });

  it('accepts a startDate today', async () => {
    await createAndRead({ startDate: osloDay(0), frequency: 'Weekly' });
  });

  it('refuses requestedExecutionDate on a periodic payment (it has startDate) at requestedExecutionDate', async () => {
    expectError(await post({ requestedExecutionDate: osloDay(7) }), 400, 'FORMAT_ERROR', 'requestedExecutionDate');
  });

  it('refuses the allowLogicalDuplicate query parameter with 400 FORMAT_ERROR', async () => {
    const response = await post({}, 'allowLogicalDuplicate=true');
    expectError(response, 400, 'FORMAT_ERROR', 'allowLogicalDuplicate');
  });

  it('lists no coming execution dates once the periodic payment is cancelled', async () => {
    const response = await post({});
    expect(response.status, response.text).toBe(201);
    const path = `/v1/periodic-payments/${NDCT}/${response.body.paymentId}`;
    expect((await server.client.delete(path)).status).toBe(204);
    const read = await server.client.get<any>(path);
    expect(read.body.transactionStatus).toBe('CANC');
    // A cancelled standing order will not execute again: "next execution dates" would mislead.
    expect(read.body.nextExecutionDates ?? [], JSON.stringify(read.body.nextExecutionDates)).toEqual([]);
  });

  it('applies the domestic rules to a periodic payment: NOK only, KID checked', async () => {
    expectError(await post({ instructedAmount: { currency: 'EUR', amount: '10.00' } }), 400, 'FORMAT_ERROR', 'instructedAmount.currency');
    expectError(
      await post({ remittanceInformationUnstructured: undefined, remittanceInformationStructured: { reference: '99754667145676221' } }),
      400,
      'FORMAT_ERROR',
      'remittanceInformationStructured.reference',
    );
  });
});
