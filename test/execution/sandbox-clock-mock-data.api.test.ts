/**
 * Mock data follows the TPP's sandbox clock, as the reads and batch runs that see it do. A TPP
 * whose clock is ahead of the real time:
 * - initializes and gets seeded history up to its clock's previous bank day, not the real one;
 * - books a transaction dated its clock's today (the real clock would call it the future: 400),
 *   and a pending one up to 30 days after its clock's today;
 * - fills history up to its clock's today;
 * - adds a card purchase dated its clock's today;
 * while another TPP, whose clock was not moved, is still refused the same dates.
 */
import { describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { rollToBankDay } from '../../src/domain/bank-calendar.js';
import { addDays } from '../../src/domain/iso-date.js';
import { DIALECTS } from '../support/databases.js';
import { freshTpp, nextBankDay, osloDateTime, realToday, setClock, useTestServer } from '../support/execution.js';

/** Days the moved clock is ahead: more than the seed's gap between two bookings of an account. */
const DAYS_AHEAD = 20;

interface SandboxLine {
  readonly bookingDate: string;
}

describe.each(DIALECTS)('mock data dated by the sandbox clock (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  /** A TPP whose clock is at noon of a bank day DAYS_AHEAD or more after the real today, and that day. */
  async function movedTpp(): Promise<{ client: TppClient; today: string }> {
    const { client } = await freshTpp(server);
    const today = nextBankDay(addDays(realToday(), DAYS_AHEAD - 1));
    await setClock(client, osloDateTime(today, '12:00'));
    return { client, today };
  }

  async function firstSeededAccount(client: TppClient): Promise<string> {
    expect((await client.post('/v1/sandbox/initialize', undefined)).status).toBe(200);
    const accounts = await client.get<any>('/v1/sandbox/accounts');
    expect(accounts.status).toBe(200);
    return accounts.body.accounts[0].resourceId;
  }

  async function bookedDates(client: TppClient, accountId: string): Promise<string[]> {
    const report = await client.get<any>(`/v1/sandbox/accounts/${accountId}/transactions`);
    expect(report.status, report.text).toBe(200);
    return (report.body.transactions.booked as SandboxLine[]).map((line) => line.bookingDate).sort();
  }

  it('seeds history up to the previous bank day of the clock', async () => {
    const { client, today } = await movedTpp();
    const dates = await bookedDates(client, await firstSeededAccount(client));
    const previousBankDay = rollToBankDay(addDays(today, -1), 'preceding');
    expect(dates.at(-1)! <= previousBankDay).toBe(true);
    // The real clock's previous bank day lies DAYS_AHEAD days earlier: history reaching past the
    // real today is dated by the moved clock.
    expect(dates.at(-1)! > realToday()).toBe(true);
  });

  it("books, fills and adds card purchases on the clock's today; a TPP whose clock did not move is refused those dates", async () => {
    const { client, today } = await movedTpp();
    const accountId = await firstSeededAccount(client);
    const book = (on: TppClient, id: string, bookingStatus: 'booked' | 'pending', date: string) =>
      on.post<any>(`/v1/sandbox/accounts/${id}/transactions`, {
        bookingStatus,
        bookingDate: date,
        valueDate: date,
        transactionAmount: { currency: 'NOK', amount: '250.00' },
        debtorName: 'Ola Nordmann',
      });

    const booked = await book(client, accountId, 'booked', today);
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body.bookingDate).toBe(today);
    const pending = await book(client, accountId, 'pending', addDays(today, 30));
    expect(pending.status, pending.text).toBe(201);
    const fill = await client.post<any>(`/v1/sandbox/accounts/${accountId}/transactions/fill`, {
      count: 5,
      dateFrom: addDays(today, -3),
      dateTo: today,
    });
    expect(fill.status, fill.text).toBe(201);

    const cards = await client.get<any>('/v1/sandbox/card-accounts');
    const cardId = cards.body.cardAccounts[0].resourceId;
    const purchase = await client.post<any>(`/v1/sandbox/card-accounts/${cardId}/transactions`, {
      transactionDate: today,
      bookingDate: today,
      transactionAmount: { currency: 'NOK', amount: '-99.00' },
    });
    expect(purchase.status, purchase.text).toBe(201);

    const other = (await freshTpp(server)).client;
    const otherAccount = await firstSeededAccount(other);
    const refused = await book(other, otherAccount, 'booked', today);
    expect(refused.status).toBe(400);
    expect(refused.body.tppMessages[0].path).toBe('bookingDate');
    expect(
      (
        await other.post<any>(`/v1/sandbox/accounts/${otherAccount}/transactions/fill`, {
          count: 5,
          dateFrom: addDays(today, -3),
          dateTo: today,
        })
      ).status,
    ).toBe(400);
  });
});
