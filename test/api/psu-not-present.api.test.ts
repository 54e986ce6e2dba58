/**
 * Reads without the PSU present (no PSU-IP-Address; docs/design.md §2b): at most frequencyPerDay
 * reads per consent, account and kind in a rolling 24 hours by the bank clock, then 429
 * ACCESS_EXCEEDED with Retry-After; every such read answers RateLimit-Policy and RateLimit; history
 * older than 90 days needs the PSU present and an SCA of the consent less than an hour old. A read
 * counts against every kind it answers, for every account it answers: details with balances, and
 * the account lists.
 */
import { describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { addDays } from '../../src/domain/iso-date.js';
import { approvedConsent, consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { wrappedCoreBanking } from '../support/wrapped-core-banking.js';
import { freshTpp, readClock, setClock, useTestServer } from '../support/execution.js';
import { expectError } from '../support/payments.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { walk } from '../support/sca.js';

const PSU_PRESENT = { 'psu-ip-address': '2001:db8::7' };

describe.each(DIALECTS)('reads without the PSU present (%s)', (dialect) => {
  /** How often the server asked the bank for balances: each costs a round trip to the core system. */
  let bankBalanceReads = 0;
  const server = useTestServer({
    dialect,
    coreBanking: (sandbox) =>
      wrappedCoreBanking(sandbox, {
        balances:
          (balances) =>
          (...args) => {
            bankBalanceReads += 1;
            return balances(...args);
          },
      }),
  });

  async function setUp(frequencyPerDay = 4) {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const account = await createAccount(client, customer.customerNumber);
    const consentId = await approvedConsent(
      client,
      consentBody(detailedAccess(account), { frequencyPerDay }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    // The PSU present: the list would count a read of the account's details.
    const list = await client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId, ...PSU_PRESENT } });
    const path = `/v1/accounts/${list.body.accounts[0].resourceId as string}`;
    const read = (suffix: string, headers: Record<string, string> = {}) =>
      client.get<any>(`${path}${suffix}`, { headers: { 'consent-id': consentId, ...headers } });
    return { client, read, mockAccountId: account.resourceId };
  }

  async function moveClock(client: TppClient, hours: number): Promise<void> {
    const clock = await readClock(client);
    await setClock(client, new Date(Date.parse(clock.dateTime) + hours * 3_600_000).toISOString());
  }

  it('the fifth read of the transactions within 24 hours is 429 ACCESS_EXCEEDED; a day later the account reads again', async () => {
    const { client, read } = await setUp(4);
    for (const remaining of [3, 2, 1, 0]) {
      const answer = await read('/transactions');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['ratelimit-policy']).toBe('4;w=86400');
      expect(answer.headers.ratelimit).toMatch(new RegExp(`^limit=4, remaining=${remaining}, reset=\\d+$`));
    }
    const refused = await read('/transactions');
    expectError(refused, 429, 'ACCESS_EXCEEDED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    expect(refused.headers.ratelimit).toMatch(/^limit=4, remaining=0, reset=\d+$/);
    expect(refused.body.tppMessages[0].text).toMatch(/next is allowed at \d{4}-\d{2}-\d{2}T/);

    // Other kinds count apart, and the PSU present is not counted at all.
    const balances = await read('/balances');
    expect(balances.status, balances.text).toBe(200);
    expect(balances.headers.ratelimit).toMatch(/remaining=3/);
    const attended = await read('/transactions', PSU_PRESENT);
    expect(attended.status, attended.text).toBe(200);
    expect(attended.headers.ratelimit).toBeUndefined();

    await moveClock(client, 24);
    const again = await read('/transactions');
    expect(again.status, again.text).toBe(200);
    expect(again.headers.ratelimit).toMatch(/^limit=4, remaining=3, reset=\d+$/);
  });

  it('counts account details under their own kind, and frequencyPerDay 1 allows one read a day', async () => {
    const { read } = await setUp(1);
    expect((await read('')).status).toBe(200);
    expectError(await read(''), 429, 'ACCESS_EXCEEDED');
    expect((await read('/transactions')).status).toBe(200);
    expectError(await read('/transactions'), 429, 'ACCESS_EXCEEDED');
    expectError(await read('/transactions/anything'), 429, 'ACCESS_EXCEEDED');
  });

  it('history older than 90 days: 401 CONSENT_INVALID without the PSU, allowed with the PSU within an hour of the SCA, not after', async () => {
    const { client, read } = await setUp(4);
    const today = (await readClock(client)).today;
    const old = `/transactions?dateFrom=${addDays(today, -120)}`;
    const refused = await read(old);
    expectError(refused, 401, 'CONSENT_INVALID', 'dateFrom');
    expect(refused.body.tppMessages[0].text).toMatch(/fresh consent/);
    expect((await read(`/transactions?dateFrom=${addDays(today, -90)}`)).status).toBe(200);
    const attended = await read(old, PSU_PRESENT);
    expect(attended.status, attended.text).toBe(200);
    await moveClock(client, 2);
    expectError(await read(old, PSU_PRESENT), 401, 'CONSENT_INVALID', 'dateFrom');
  });

  /** A transaction booked `days` ago on the sandbox account: its transactionId. */
  async function bookedDaysAgo(client: TppClient, mockAccountId: string, days: number): Promise<string> {
    const day = addDays((await readClock(client)).today, -days);
    const booked = await client.post<any>(`/v1/sandbox/accounts/${mockAccountId}/transactions`, {
      bookingDate: day,
      valueDate: day,
      transactionAmount: { currency: 'NOK', amount: '-77.00' },
      remittanceInformationUnstructured: `${days} days ago`,
    });
    expect(booked.status, booked.text).toBe(201);
    return booked.body.transactionId as string;
  }

  it('the details of a transaction older than 90 days: refused as the list refuses that history, with the same rule and message', async () => {
    const { client, read, mockAccountId } = await setUp(4);
    const old = await bookedDaysAgo(client, mockAccountId, 120);
    const recent = await bookedDaysAgo(client, mockAccountId, 30);
    const today = (await readClock(client)).today;
    const list = await read(`/transactions?dateFrom=${addDays(today, -120)}`);
    expectError(list, 401, 'CONSENT_INVALID', 'dateFrom');

    const refused = await read(`/transactions/${old}`);
    expectError(refused, 401, 'CONSENT_INVALID', 'transactionId');
    expect(refused.body.tppMessages[0].text).toBe(list.body.tppMessages[0].text);
    expect(refused.text).not.toContain('-77.00');
    const fresh = await read(`/transactions/${recent}`);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.transactionsDetails.transactionId).toBe(recent);

    // With the PSU present within an hour of the consent's SCA it is shown; two hours on, no longer.
    const attended = await read(`/transactions/${old}`, PSU_PRESENT);
    expect(attended.status, attended.text).toBe(200);
    expect(attended.body.transactionsDetails).toMatchObject({ transactionId: old, transactionAmount: { amount: '-77.00' } });
    await moveClock(client, 2);
    expectError(await read(`/transactions/${old}`, PSU_PRESENT), 401, 'CONSENT_INVALID', 'transactionId');
    expect((await read(`/transactions/${recent}`, PSU_PRESENT)).status).toBe(200);
  });

  it('a refused read does not use up frequencyPerDay: unknown transactions, old history, the bank missing data', async () => {
    const { client, read, mockAccountId } = await setUp(1);
    const old = await bookedDaysAgo(client, mockAccountId, 120);
    for (const id of ['no-such-transaction', 'another-unknown', 'a-third']) {
      expectError(await read(`/transactions/${id}`), 404, 'RESOURCE_UNKNOWN', 'transactionId');
    }
    expectError(await read(`/transactions/${old}`), 401, 'CONSENT_INVALID', 'transactionId');
    const today = (await readClock(client)).today;
    expectError(await read(`/transactions?dateFrom=${addDays(today, -120)}`), 401, 'CONSENT_INVALID', 'dateFrom');
    const fault = (value: string | null) => client.put<any>(`/v1/sandbox/accounts/${mockAccountId}/core-system-fault`, { fault: value });
    expect((await fault('missing-data')).status).toBe(200);
    for (const suffix of ['/transactions', '/transactions/anything', '/balances']) {
      const answer = await read(suffix);
      expect(answer.status, answer.text).toBe(500);
    }
    expect((await fault(null)).status).toBe(200);

    // None of them counted: the one read a day of each kind is still there, then no more.
    for (const suffix of ['/transactions', '/balances']) {
      const first = await read(suffix);
      expect(first.status, first.text).toBe(200);
      expect(first.headers.ratelimit).toMatch(/^limit=1, remaining=0, reset=\d+$/);
      expectError(await read(suffix), 429, 'ACCESS_EXCEEDED');
    }
    expectError(await read('/transactions/no-such-transaction'), 429, 'ACCESS_EXCEEDED');
  });

  it('reads at the same moment are counted in the shared database: no more are answered than frequencyPerDay allows', async () => {
    const { read } = await setUp(2);
    const answers = await Promise.all(Array.from({ length: 6 }, () => read('/transactions')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    for (const answer of answers.filter((answer) => answer.status !== 200)) expectError(answer, 429, 'ACCESS_EXCEEDED');
  });

  it('reads racing for the last slot are refused before the bank is asked: many at once reach the bank once', async () => {
    const { read } = await setUp(1);
    const before = bankBalanceReads;
    const answers = await Promise.all(Array.from({ length: 6 }, () => read('/balances')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) expectError(answer, 429, 'ACCESS_EXCEEDED');
    expect(bankBalanceReads - before).toBe(1);
  });

  /** A consent over two accounts and a card account of one PSU (details and balances of each), read without the PSU. */
  async function setUpMany(frequencyPerDay: number) {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const first = await createAccount(client, customer.customerNumber);
    const second = await createAccount(client, customer.customerNumber);
    const card = await client.post<any>('/v1/sandbox/card-accounts', { customerNumber: customer.customerNumber });
    expect(card.status, card.text).toBe(201);
    const references = [{ bban: first.bban }, { bban: second.bban }, { maskedPan: card.body.maskedPan as string }];
    const consentId = await approvedConsent(
      client,
      consentBody({ accounts: references, balances: references }, { frequencyPerDay }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    const get = (path: string, headers: Record<string, string> = {}) =>
      client.get<any>(path, { headers: { 'consent-id': consentId, ...headers } });
    const accounts = (await get('/v1/accounts', PSU_PRESENT)).body.accounts as { resourceId: string; iban: string }[];
    const cards = (await get('/v1/card-accounts', PSU_PRESENT)).body.cardAccounts as { resourceId: string }[];
    const byIban = (iban: string) => `/v1/accounts/${accounts.find((account) => account.iban === iban)!.resourceId}`;
    return { get, first: byIban(first.iban), second: byIban(second.iban), card: `/v1/card-accounts/${cards[0]!.resourceId}` };
  }

  const remainingOf = (answer: { headers: Record<string, unknown> }) => /remaining=(\d+)/.exec(String(answer.headers['ratelimit']))?.[1];

  for (const type of ['account', 'card'] as const) {
    it(`${type}: details with balances count as a read of the details and of the balances: refused once either is used up, counting neither`, async () => {
      const { get, first, card } = await setUpMany(2);
      const path = type === 'account' ? first : card;
      const both = await get(`${path}?withBalance=true`);
      expect(both.status, both.text).toBe(200);
      expect(both.headers.ratelimit).toMatch(/^limit=2, remaining=1, reset=\d+$/);
      const balances = await get(`${path}/balances`);
      expect(balances.status, balances.text).toBe(200);
      expect(remainingOf(balances)).toBe('0');

      const refused = await get(`${path}?withBalance=true`);
      expectError(refused, 429, 'ACCESS_EXCEEDED');
      expect(refused.text).not.toContain('balanceAmount');
      expect(refused.headers.ratelimit).toMatch(/^limit=2, remaining=0, reset=\d+$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);
      expect(refused.body.tppMessages[0].text).toMatch(/reads of the balances of this account/);
      // The refused read counted no details: the second of the day is still there, then no more.
      const details = await get(path);
      expect(details.status, details.text).toBe(200);
      expect(remainingOf(details)).toBe('0');
      expectError(await get(path), 429, 'ACCESS_EXCEEDED');
    });

    it(`${type} list: a read of each listed account's details, and with withBalance of its balances, answering the rate-limit fields`, async () => {
      const { get, first, card } = await setUpMany(4);
      const list = type === 'account' ? '/v1/accounts' : '/v1/card-accounts';
      const path = type === 'account' ? first : card;
      for (const remaining of ['3', '2', '1', '0']) {
        const answer = await get(`${path}/balances`);
        expect(answer.status, answer.text).toBe(200);
        expect(remainingOf(answer)).toBe(remaining);
      }
      const refused = await get(`${list}?withBalance=true`);
      expectError(refused, 429, 'ACCESS_EXCEEDED');
      expect(refused.text).not.toContain('balanceAmount');
      expect(refused.headers.ratelimit).toMatch(/^limit=4, remaining=0, reset=\d+$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);

      // Without balances the list reads the details only; the refused one counted none.
      const listed = await get(list);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.headers['ratelimit-policy']).toBe('4;w=86400');
      expect(listed.headers.ratelimit).toMatch(/^limit=4, remaining=3, reset=\d+$/);
      for (const remaining of ['2', '1', '0']) expect(remainingOf(await get(path))).toBe(remaining);
      expectError(await get(list), 429, 'ACCESS_EXCEEDED');
      // The PSU present is not counted, and answers no rate-limit fields.
      const attended = await get(`${list}?withBalance=true`, PSU_PRESENT);
      expect(attended.status, attended.text).toBe(200);
      expect(attended.headers.ratelimit).toBeUndefined();
    });
  }

  it('the account list answers the most constrained of the accounts it counts, and is refused when one of them is used up', async () => {
    const { get, first, second } = await setUpMany(4);
    expect(remainingOf(await get(first))).toBe('3');
    expect(remainingOf(await get(first))).toBe('2');
    const answers = [];
    for (let read = 0; read < 2; read += 1) {
      const answer = await get('/v1/accounts?withBalance=true');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.accounts).toHaveLength(2);
      answers.push(answer.headers.ratelimit);
    }
    // The first account's details: 1 then 0 left; the second's, and the balances: 3 then 2.
    expect(answers[0]).toMatch(/^limit=4, remaining=1, reset=\d+$/);
    expect(answers[1]).toMatch(/^limit=4, remaining=0, reset=\d+$/);
    const refused = await get('/v1/accounts?withBalance=true');
    expectError(refused, 429, 'ACCESS_EXCEEDED');
    expect(refused.body.tppMessages[0].text).toMatch(/reads of the details of an account of the list/);
    // Nothing of the refused list counted: the second account's details and balances have 2 left.
    expect(remainingOf(await get(second))).toBe('1');
    expect(remainingOf(await get(`${second}/balances`))).toBe('1');
  });

  it('account lists at the same moment are counted together in the shared database: no more are answered than frequencyPerDay allows', async () => {
    const { get, first } = await setUpMany(2);
    const answers = await Promise.all(Array.from({ length: 6 }, () => get('/v1/accounts?withBalance=true')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    for (const answer of answers.filter((answer) => answer.status !== 200)) expectError(answer, 429, 'ACCESS_EXCEEDED');
    expectError(await get(`${first}/balances`), 429, 'ACCESS_EXCEEDED');
  });

  it('a malformed PSU-IP-Address is 400 FORMAT_ERROR', async () => {
    const { read } = await setUp(4);
    expectError(await read('/transactions', { 'psu-ip-address': 'not-an-address' }), 400, 'FORMAT_ERROR', 'PSU-IP-Address');
  });
});
