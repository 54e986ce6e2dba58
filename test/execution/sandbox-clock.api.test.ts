/**
 * `GET|POST /v1/sandbox/clock`: each TPP's own "now" in the sandbox.
 * - GET: {dateTime, today, bankDay, offsetSeconds, batchRunsLeftToday, nextBatchRun}; a TPP that
 *   never moved its clock reads the real time; the batch runs left and the next one follow the
 *   default batch times (05:35, 09:30, 11:30, 13:35, 15:35 Europe/Oslo) of bank days only;
 * - POST {dateTime} moves it ahead (never behind the real time), POST {reset: true} goes back;
 * - refused with 400 FORMAT_ERROR and the project's error body, changing nothing: both fields,
 *   neither, reset false, a dateTime that is not a date-time with offset (or not a real date), in
 *   the past, more than ten years ahead, unknown fields;
 * - per TPP: another TPP's clock does not move;
 * - the execution-date rules at creation use the TPP's clock: dated the real today is in the past
 *   once the clock is ahead (400 EXECUTION_DATE_INVALID), dated the clock's today is accepted;
 * - signed like every /v1 call; absent in production mode (404, undocumented), as all of /v1/sandbox.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { isBankDay } from '../../src/domain/bank-calendar.js';
import { addDays } from '../../src/domain/iso-date.js';
import type { SandboxClockView } from '../../src/modules/clock/sandbox-clock.service.js';
import { DIALECTS } from '../support/databases.js';
import {
  freshTpp,
  fundedPsu,
  nextBankDay,
  nextNonBankDay,
  osloDateTime,
  readClock,
  realToday,
  setClock,
  useTestServer,
} from '../support/execution.js';
import { bulkBody, expectError, INDCTS, NDCT, ndctBody, periodicBody } from '../support/payments.js';
import { PRODUCTION_ENV } from '../support/test-server.js';

const instant = (dateTime: string) => new Date(dateTime).toISOString();

/** now + years and days, as an ISO instant. */
function ahead(years: number, days: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString();
}

describe.each(DIALECTS)('the sandbox clock (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  async function clockChanges(orgId: string): Promise<number> {
    const rows = await server.database.db
      .selectFrom('audit_event')
      .select('id')
      .where('action', '=', 'sandbox.clock-set')
      .where('resource_id', '=', orgId)
      .execute();
    return rows.length;
  }

  describe('reading', () => {
    it('a TPP that never moved its clock reads the real time', async () => {
      const { client } = await freshTpp(server);
      const before = Date.now();
      const clock = await readClock(client);
      expect(Object.keys(clock).sort()).toEqual(['bankDay', 'batchRunsLeftToday', 'dateTime', 'nextBatchRun', 'offsetSeconds', 'today']);
      expect(clock.offsetSeconds).toBe(0);
      expect(clock.today).toBe(realToday());
      expect(clock.bankDay).toBe(isBankDay(clock.today));
      expect(Date.parse(clock.dateTime)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(clock.dateTime)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(Date.parse(clock.nextBatchRun)).toBeGreaterThan(Date.parse(clock.dateTime));
      if (!clock.bankDay) expect(clock.batchRunsLeftToday).toBe(0);
    });

    it('on a bank day at 10:00: three runs left (11:30, 13:35, 15:35), the next at 11:30', async () => {
      const { client } = await freshTpp(server);
      const day = nextBankDay();
      const target = osloDateTime(day, '10:00');
      const before = Date.now();
      const set = await setClock(client, target);
      const expected = {
        today: day,
        bankDay: true,
        batchRunsLeftToday: 3,
        nextBatchRun: instant(osloDateTime(day, '11:30')),
      };
      expect(set).toMatchObject(expected);
      expect(Math.abs(Date.parse(set.dateTime) - Date.parse(target))).toBeLessThan(2000);
      expect(Math.abs(set.offsetSeconds - Math.round((Date.parse(target) - before) / 1000))).toBeLessThanOrEqual(2);
      const read = await readClock(client);
      expect(read).toMatchObject({ ...expected, offsetSeconds: set.offsetSeconds });
      // The moved clock keeps running.
      expect(Date.parse(read.dateTime)).toBeGreaterThanOrEqual(Date.parse(set.dateTime));
    });

    it('on a bank day at 05:00 all five runs are left, the next at 05:35', async () => {
      const { client } = await freshTpp(server);
      const day = nextBankDay();
      expect(await setClock(client, osloDateTime(day, '05:00'))).toMatchObject({
        today: day,
        batchRunsLeftToday: 5,
        nextBatchRun: instant(osloDateTime(day, '05:35')),
      });
    });

    it('on a bank day at 16:00 none is left: the next is the first run (05:35) of the next bank day', async () => {
      const { client } = await freshTpp(server);
      const day = nextBankDay();
      expect(await setClock(client, osloDateTime(day, '16:00'))).toMatchObject({
        today: day,
        bankDay: true,
        batchRunsLeftToday: 0,
        nextBatchRun: instant(osloDateTime(nextBankDay(day), '05:35')),
      });
    });

    it('a weekend or holiday is no bank day and has no runs', async () => {
      const { client } = await freshTpp(server);
      const day = nextNonBankDay();
      expect(await setClock(client, osloDateTime(day, '07:00'))).toMatchObject({
        today: day,
        bankDay: false,
        batchRunsLeftToday: 0,
        nextBatchRun: instant(osloDateTime(nextBankDay(day), '05:35')),
      });
    });
  });

  describe('moving', () => {
    it('reset goes back to the real time', async () => {
      const { client } = await freshTpp(server);
      await setClock(client, osloDateTime(addDays(realToday(), 30), '12:00'));
      const response = await client.post<any>('/v1/sandbox/clock', { reset: true });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ offsetSeconds: 0, today: realToday() });
      expect(await readClock(client)).toMatchObject({ offsetSeconds: 0, today: realToday() });
    });

    it('a dateTime of now is taken (offset 0)', async () => {
      const { client } = await freshTpp(server);
      expect(await setClock(client, new Date().toISOString())).toMatchObject({ offsetSeconds: 0, today: realToday() });
    });

    it('the same instant in any offset is the same clock', async () => {
      const { client } = await freshTpp(server);
      const day = nextBankDay();
      const utc = instant(osloDateTime(day, '12:00'));
      // The same instant written in Tokyo time (+09:00).
      const tokyo = `${new Date(Date.parse(utc) + 9 * 3600_000).toISOString().slice(0, 19)}+09:00`;
      for (const dateTime of [utc, utc.replace('.000Z', 'Z'), osloDateTime(day, '12:00'), tokyo]) {
        const set = await setClock(client, dateTime);
        expect(set.today, dateTime).toBe(day);
        expect(Math.abs(Date.parse(set.dateTime) - Date.parse(utc)), dateTime).toBeLessThan(2000);
      }
    });

    it('up to ten years ahead is taken: ten years less two days', async () => {
      const { client } = await freshTpp(server);
      const response = await client.post<any>('/v1/sandbox/clock', { dateTime: ahead(10, -2) });
      expect(response.status, response.text).toBe(200);
    });

    it('every move is audited', async () => {
      const { orgId, client } = await freshTpp(server);
      await setClock(client, osloDateTime(nextBankDay(), '10:00'));
      expect((await client.post<any>('/v1/sandbox/clock', { reset: true })).status).toBe(200);
      expect(await clockChanges(orgId)).toBe(2);
    });
  });

  describe('refusals', () => {
    let tpp: { orgId: string; client: TppClient };
    let day: string;
    let before: SandboxClockView;
    beforeAll(async () => {
      tpp = await freshTpp(server);
      day = nextBankDay();
      before = await setClock(tpp.client, osloDateTime(day, '10:00'));
    });

    const past = () => new Date(Date.now() - 3600_000).toISOString();
    const nextYear = () => Number(realToday().slice(0, 4)) + 1;

    it.each([
      ['neither field', () => ({}), 'body', 'must hold one of dateTime or reset: neither was sent'],
      ['both fields', () => ({ dateTime: ahead(0, 5), reset: true }), 'body', 'must hold either dateTime or reset, not both'],
      ['reset false', () => ({ reset: false }), 'reset', 'can only be true'],
      ['a dateTime that is no date', () => ({ dateTime: 'tomorrow' }), 'dateTime', 'such as 2026-11-23T15:40:00+01:00'],
      ['a dateTime without offset', () => ({ dateTime: `${nextYear()}-01-04T10:00:00` }), 'dateTime', 'with its offset'],
      ['a date alone', () => ({ dateTime: `${nextYear()}-01-04` }), 'dateTime', 'with its offset'],
      ['month 13', () => ({ dateTime: `${nextYear()}-13-01T10:00:00Z` }), 'dateTime', 'is not a date and time'],
      ['a dateTime in the past', () => ({ dateTime: past() }), 'dateTime', 'only moves ahead of the real time'],
      ['more than ten years ahead', () => ({ dateTime: ahead(10, 1) }), 'dateTime', 'more than ten years ahead'],
      ['a dateTime that is a number', () => ({ dateTime: 1893456000000 }), 'dateTime', ''],
      ['a reset that is a string', () => ({ reset: 'true' }), 'reset', ''],
      ['a dateTime longer than 40 characters', () => ({ dateTime: `${ahead(1, 0)}${'0'.repeat(30)}` }), 'dateTime', ''],
      ['an unknown field', () => ({ dateTime: ahead(0, 5), timeZone: 'Europe/Oslo' }), 'timeZone', 'is not a field of this request'],
      ['an unknown field beside reset', () => ({ reset: true, extra: 1 }), 'extra', 'is not a field of this request'],
    ])('%s: 400 FORMAT_ERROR, and the clock is as it was', async (_what, body, path, text) => {
      const changes = await clockChanges(tpp.orgId);
      const response = await tpp.client.post<any>('/v1/sandbox/clock', body());
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'id', 'message', 'status', 'system', 'tppMessages']);
      expect(response.body).toMatchObject({
        status: 400,
        code: 'FORMAT_ERROR',
        tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR' }],
      });
      if (path !== undefined) expect(response.body.tppMessages[0].path).toBe(path);
      expect(response.body.tppMessages[0].text).toContain(text);
      const after = await readClock(tpp.client);
      expect(after.today).toBe(day);
      expect(Math.abs(after.offsetSeconds - before.offsetSeconds)).toBeLessThanOrEqual(1);
      expect(await clockChanges(tpp.orgId)).toBe(changes);
    });

    it('a dateTime on a day the calendar does not have (February 30th): 400 at dateTime, not moved to March', async () => {
      const { orgId, client } = await freshTpp(server);
      const response = await client.post<any>('/v1/sandbox/clock', { dateTime: `${nextYear()}-02-30T10:00:00+01:00` });
      expect({ status: response.status, code: response.body.code, path: response.body.tppMessages?.[0]?.path }, response.text).toEqual({
        status: 400,
        code: 'FORMAT_ERROR',
        path: 'dateTime',
      });
      expect(await readClock(client)).toMatchObject({ offsetSeconds: 0, today: realToday() });
      expect(await clockChanges(orgId)).toBe(0);
    });

    it('the refusal texts read cleanly: a path that names something, no doubled word or space', async () => {
      const problems: string[] = [];
      for (const body of [{}, { dateTime: ahead(0, 5), reset: true }, { reset: false }]) {
        const response = await tpp.client.post<any>('/v1/sandbox/clock', body);
        expect(response.status).toBe(400);
        const message = response.body.tppMessages[0];
        if (message.path === '') problems.push(`${JSON.stringify(body)}: empty path`);
        if (/ {2}|\b(\w+) \1\b/.test(message.text)) problems.push(`${JSON.stringify(body)}: "${message.text}"`);
      }
      expect(problems).toEqual([]);
    });
  });

  describe('per TPP', () => {
    it("moving one TPP's clock moves no other's", async () => {
      const a = await freshTpp(server);
      const b = await freshTpp(server);
      const day = nextBankDay(addDays(realToday(), 10));
      await setClock(a.client, osloDateTime(day, '10:00'));
      expect(await readClock(b.client)).toMatchObject({ offsetSeconds: 0, today: realToday() });
      expect(await readClock(server.client)).toMatchObject({ offsetSeconds: 0, today: realToday() });
      await setClock(b.client, osloDateTime(nextBankDay(day), '10:00'));
      expect((await readClock(a.client)).today).toBe(day);
      expect((await b.client.post<any>('/v1/sandbox/clock', { reset: true })).status).toBe(200);
      expect((await readClock(a.client)).today).toBe(day);
    });
  });

  describe('execution dates at creation', () => {
    it("follow the TPP's clock: dated the real today is in the past, dated the clock today is accepted", async () => {
      const { client } = await freshTpp(server);
      const real = realToday();
      const clockDay = addDays(real, 3);
      expect((await setClock(client, osloDateTime(clockDay, '12:00'))).today).toBe(clockDay);
      const psu = await fundedPsu(client);

      const post = (service: string, product: string, body: unknown): Promise<TppResponse<any>> =>
        client.post<any>(`/v1/${service}/${product}`, body, { headers: psu.headers });

      const single = await post('payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: real }));
      expectError(single, 400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate');
      expect(single.body.tppMessages[0].text).toContain(`today is ${clockDay}`);
      expectError(
        await post('payments', INDCTS, ndctBody(psu.account, { requestedExecutionDate: real })),
        400,
        'EXECUTION_DATE_INVALID',
        'requestedExecutionDate',
      );
      expectError(
        await post('bulk-payments', NDCT, bulkBody(psu.account, { requestedExecutionDate: real })),
        400,
        'EXECUTION_DATE_INVALID',
        'requestedExecutionDate',
      );
      expectError(
        await post('periodic-payments', NDCT, periodicBody(psu.account, { startDate: real })),
        400,
        'EXECUTION_DATE_INVALID',
        'startDate',
      );

      expect((await post('payments', NDCT, ndctBody(psu.account, { requestedExecutionDate: clockDay }))).status).toBe(201);
      expect((await post('payments', INDCTS, ndctBody(psu.account, { requestedExecutionDate: clockDay }))).status).toBe(201);
      expect((await post('bulk-payments', NDCT, bulkBody(psu.account, { requestedExecutionDate: clockDay }))).status).toBe(201);
      expect((await post('periodic-payments', NDCT, periodicBody(psu.account, { startDate: clockDay }))).status).toBe(201);
    });

    it("another TPP's moved clock changes nothing for this one", async () => {
      const mover = await freshTpp(server);
      await setClock(mover.client, osloDateTime(addDays(realToday(), 3), '12:00'));
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client);
      const response = await client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account, { requestedExecutionDate: realToday() }), {
        headers: psu.headers,
      });
      expect(response.status, response.text).toBe(201);
    });
  });

  describe('the front door', () => {
    it('GET and POST need a signature like every /v1 call', async () => {
      for (const response of [
        await server.anonymous.get<any>('/v1/sandbox/clock'),
        await server.anonymous.post<any>('/v1/sandbox/clock', { reset: true }),
      ]) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('SIGNATURE_MISSING');
      }
    });

    it('the clock and batch runs are documented in the sandbox', async () => {
      const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, unknown> };
      expect(document.paths['/v1/sandbox/clock']).toBeDefined();
      expect(document.paths['/v1/sandbox/batch-runs']).toBeDefined();
    });
  });
});

describe('the sandbox clock and batch runs in production mode (XS2A_MODE=production)', () => {
  const server = useTestServer({ env: PRODUCTION_ENV });

  it('do not exist: 404 RESOURCE_UNKNOWN, and undocumented', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/sandbox/clock', undefined],
      ['POST', '/v1/sandbox/clock', { reset: true }],
      ['POST', '/v1/sandbox/clock', { dateTime: ahead(0, 5) }],
      ['POST', '/v1/sandbox/batch-runs', undefined],
    ] as const) {
      const response = await server.client.call<any>(method, path, body === undefined ? {} : { body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: 'RESOURCE_UNKNOWN', message: 'There is no operation at this path' });
    }
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, unknown> };
    expect(document.paths['/v1/sandbox/clock']).toBeUndefined();
    expect(document.paths['/v1/sandbox/batch-runs']).toBeUndefined();
  });
});
