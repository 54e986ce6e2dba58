/**
 * `POST /v1/sandbox/accounts/{mockAccountId}/transactions` and the data fill: booking and value
 * date today or earlier with the booking date not after the value date; an amount in the
 * account's currency whose sign says debit or credit; the mock account is the debtor of a debit
 * and the creditor of a credit (naming another account there is a 400 that says so); the data
 * fill makes exactly `count` realistic transactions, the same for the same seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKid } from '../../src/domain/kid.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { accountNumber, balancesOf, createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sandbox account transactions (%s)', (dialect) => {
  let server: TestServer;
  let account: { resourceId: string; bban: string; iban: string };
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    const owner = await createCustomer(server.client);
    account = await createAccount(server.client, owner.customerNumber);
  });
  afterAll(() => server.close());

  const path = () => `/v1/sandbox/accounts/${account.resourceId}/transactions`;
  const balance = async () => balancesOf((await server.client.get<any>(`/v1/sandbox/accounts/${account.resourceId}`)).body).closingBooked;
  const counterparty = accountNumber();

  it('books a debit with the mock account as debtor: 201, Location, links, balance down', async () => {
    const before = await balance();
    const response = await server.client.post<any>(path(), {
      bookingDate: osloDay(-2),
      valueDate: osloDay(-1),
      transactionAmount: { currency: 'NOK', amount: '-1500.00' },
      debtorAccount: { iban: account.iban },
      creditorName: 'Aftenposten',
      creditorAccount: { bban: counterparty.bban },
      remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }],
    });
    expect(response.status).toBe(201);
    const { transactionId } = response.body;
    const self = `${server.config.publicUrl}${path()}/${transactionId}`;
    expect(response.headers.location).toBe(self);
    expect(response.body).toEqual({
      transactionId,
      bookingDate: osloDay(-2),
      valueDate: osloDay(-1),
      transactionAmount: { currency: 'NOK', amount: '-1500.00' },
      debtorAccount: { iban: account.iban },
      creditorName: 'Aftenposten',
      creditorAccount: { bban: counterparty.bban },
      remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }],
      _links: { self: { href: self, verbs: ['GET'] }, transactionDetails: { href: self, verbs: ['GET'] } },
    });
    expectBerlinGroupSchema('transactions', response.body);
    expect((await server.client.get<any>(self.slice(server.config.publicUrl.length))).body).toEqual(response.body);
    expect(Number(await balance()) - Number(before)).toBe(-1500);
  });

  it('takes a KID in the deprecated remittanceInformationStructured and answers it in remittanceInformationStructuredArray', async () => {
    const response = await server.client.post<any>(path(), {
      bookingDate: osloDay(-2),
      valueDate: osloDay(-2),
      transactionAmount: { currency: 'NOK', amount: '-10.00' },
      debtorAccount: { iban: account.iban },
      creditorName: 'Kraftselskapet',
      remittanceInformationStructured: { reference: '12344', referenceType: 'SCOR' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).not.toHaveProperty('remittanceInformationStructured');
    expect(response.body.remittanceInformationStructuredArray).toEqual([{ reference: '12344', referenceType: 'SCOR' }]);
    expectBerlinGroupSchema('transactions', response.body);
  });

  it('books a credit with the mock account as creditor, the debtor being the counterparty', async () => {
    const before = await balance();
    const response = await server.client.post<any>(path(), {
      bookingDate: osloDay(0),
      valueDate: osloDay(0),
      transactionAmount: { currency: 'NOK', amount: '42000' },
      creditorAccount: { bban: account.bban },
      debtorName: 'Fjordbris Regnskap AS',
      debtorAccount: { iban: counterparty.iban },
      remittanceInformationUnstructured: 'Lønn',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      transactionAmount: { currency: 'NOK', amount: '42000.00' },
      creditorAccount: { iban: account.iban },
      debtorName: 'Fjordbris Regnskap AS',
      debtorAccount: { iban: counterparty.iban },
    });
    expect(Number(await balance()) - Number(before)).toBe(42000);
    const report = await server.client.get<any>(path());
    expect(report.body.transactions.booked.map((t: any) => t.transactionId)).toContain(response.body.transactionId);
  });

  const valid = () => ({
    bookingDate: osloDay(-3),
    valueDate: osloDay(-3),
    transactionAmount: { currency: 'NOK', amount: '-100.00' },
  });

  it.each([
    [
      'a booking date in the future',
      () => ({ ...valid(), bookingDate: osloDay(1), valueDate: osloDay(1) }),
      'bookingDate',
      'must not be in the future',
    ],
    ['a value date in the future', () => ({ ...valid(), valueDate: osloDay(2) }), 'valueDate', 'must not be in the future'],
    [
      'a booking date after the value date',
      () => ({ ...valid(), bookingDate: osloDay(-1), valueDate: osloDay(-2) }),
      'bookingDate',
      'must not be after valueDate',
    ],
    ['a date that does not exist', () => ({ ...valid(), bookingDate: '2026-02-30' }), 'bookingDate', 'must match format'],
    [
      'another currency',
      () => ({ ...valid(), transactionAmount: { currency: 'EUR', amount: '-1.00' } }),
      'transactionAmount.currency',
      "account's currency NOK",
    ],
    [
      'a zero amount',
      () => ({ ...valid(), transactionAmount: { currency: 'NOK', amount: '0.00' } }),
      'transactionAmount.amount',
      'must not be zero',
    ],
    [
      'too many decimals',
      () => ({ ...valid(), transactionAmount: { currency: 'NOK', amount: '-1.001' } }),
      'transactionAmount.amount',
      'at most 2 decimals',
    ],
    [
      'a numeric amount',
      () => ({ ...valid(), transactionAmount: { currency: 'NOK', amount: -1 } }),
      'transactionAmount.amount',
      'must be string',
    ],
    [
      'another account as debtor of a debit',
      () => ({ ...valid(), debtorAccount: { bban: accountNumber().bban } }),
      'debtorAccount',
      'the mock account must be the debtor of a debit',
    ],
    [
      'the mock account as creditor of a debit (so another debtor)',
      () => ({ ...valid(), debtorAccount: { iban: accountNumber().iban }, creditorAccount: { iban: account.iban } }),
      'debtorAccount',
      'the mock account must be the debtor of a debit',
    ],
    [
      'another account as creditor of a credit',
      () => ({ ...valid(), transactionAmount: { currency: 'NOK', amount: '100.00' }, creditorAccount: { iban: accountNumber().iban } }),
      'creditorAccount',
      'the mock account must be the creditor of a credit',
    ],
    [
      'a debtor BBAN with a wrong check digit',
      () => ({ ...valid(), debtorAccount: { bban: '12345678904' } }),
      'debtorAccount.bban',
      'check digit',
    ],
    [
      'a creditor IBAN with wrong check digits',
      () => ({ ...valid(), creditorAccount: { iban: 'NO9386011117948' } }),
      'creditorAccount.iban',
      'MOD 97-10',
    ],
    ['an empty account reference', () => ({ ...valid(), creditorAccount: {} }), 'creditorAccount', ''],
    [
      'a KID and a text together',
      () => ({ ...valid(), remittanceInformationUnstructured: 'x', remittanceInformationStructured: { reference: '12344' } }),
      'remittanceInformationStructured',
      'exclude each other',
    ],
    [
      'a KID with a wrong check digit',
      () => ({ ...valid(), remittanceInformationStructured: { reference: '12345' } }),
      'remittanceInformationStructured.reference',
      'neither MOD10',
    ],
    [
      'a KID with a wrong check digit in the array',
      () => ({ ...valid(), remittanceInformationStructuredArray: [{ reference: '12345' }] }),
      'remittanceInformationStructuredArray[0].reference',
      'neither MOD10',
    ],
    [
      'a KID in the array and a text together',
      () => ({ ...valid(), remittanceInformationUnstructured: 'x', remittanceInformationStructuredArray: [{ reference: '12344' }] }),
      'remittanceInformationStructuredArray',
      'exclude each other',
    ],
    [
      'the deprecated single KID and the array together',
      () => ({
        ...valid(),
        remittanceInformationStructured: { reference: '12344' },
        remittanceInformationStructuredArray: [{ reference: '12344' }],
      }),
      'remittanceInformationStructuredArray',
      'deprecated',
    ],
    [
      'two KIDs in the array',
      () => ({ ...valid(), remittanceInformationStructuredArray: [{ reference: '12344' }, { reference: '12343' }] }),
      'remittanceInformationStructuredArray',
      '',
    ],
    ['an unknown field', () => ({ ...valid(), amount: 1500 }), 'amount', ''],
  ])('refuses %s with 400 naming the field, and books nothing', async (_, body, field, text) => {
    const before = await server.client.get<any>(path());
    const response = await server.client.post<any>(path(), body());
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ code: 'FORMAT_ERROR', path: field }] });
    expect(response.body.message).toContain(text);
    expectBerlinGroupSchema('Error400_NG_AIS', response.body);
    expect((await server.client.get<any>(path())).body).toEqual(before.body);
  });

  it('answers an unknown account or transaction with 404', async () => {
    expect((await server.client.post<any>('/v1/sandbox/accounts/nope/transactions', valid())).status).toBe(404);
    const missing = await server.client.get<any>(`${path()}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.tppMessages[0].path).toBe('transactionId');
  });

  describe('data fill', () => {
    it('makes exactly count realistic transactions in the range, posted to the ledger', async () => {
      const owner = await createCustomer(server.client);
      const target = await createAccount(server.client, owner.customerNumber);
      const body = { count: 120, dateFrom: osloDay(-120), dateTo: osloDay(-1) };
      const response = await server.client.post<any>(`/v1/sandbox/accounts/${target.resourceId}/transactions/fill`, body);
      expect(response.status).toBe(201);
      const list = `${server.config.publicUrl}/v1/sandbox/accounts/${target.resourceId}/transactions`;
      expect(response.headers.location).toBe(list);
      expect(response.body).toMatchObject({
        count: 120,
        seed: target.bban,
        profile: 'private',
        _links: { self: { href: list, verbs: ['GET', 'POST'] } },
      });
      const transactions = response.body.transactions;
      expect(transactions).toHaveLength(120);
      let sum = 0;
      for (const transaction of transactions) {
        expectBerlinGroupSchema('transactions', transaction);
        expect(transaction.bookingDate >= body.dateFrom && transaction.bookingDate <= body.dateTo).toBe(true);
        expect(transaction).not.toHaveProperty('remittanceInformationStructured');
        const kid = transaction.remittanceInformationStructuredArray?.[0]?.reference;
        if (kid !== undefined) expect(checkKid(kid).ok, kid).toBe(true);
        sum += Math.round(Number(transaction.transactionAmount.amount) * 100);
      }
      const names = transactions.map((t: any) => t.creditorName ?? t.debtorName);
      expect(names).toContain('Fjordbris Regnskap AS');
      expect(names).toContain('Bergen Boligutleie AS');
      expect(names.some((name: string) => /REMA 1000|KIWI|Coop Extra|MENY/.test(name))).toBe(true);
      const closing = balancesOf((await server.client.get<any>(`/v1/sandbox/accounts/${target.resourceId}`)).body).closingBooked!;
      expect(Math.round(Number(closing) * 100)).toBe(sum);
    });

    it('gives the same transactions for the same seed and request', async () => {
      const owner = await createCustomer(server.client, 'CORPORATE', 'Deterministisk AS');
      const [first, second] = await Promise.all([
        createAccount(server.client, owner.customerNumber),
        createAccount(server.client, owner.customerNumber),
      ]);
      const body = { count: 25, dateFrom: osloDay(-60), dateTo: osloDay(-1), seed: 'same seed' };
      const fill = async (id: string) => (await server.client.post<any>(`/v1/sandbox/accounts/${id}/transactions/fill`, body)).body;
      const [a, b] = [await fill(first.resourceId), await fill(second.resourceId)];
      expect(a.profile).toBe('corporate');
      const shape = (result: any) =>
        result.transactions.map((t: any) => [
          t.bookingDate,
          t.transactionAmount.amount,
          t.creditorName ?? t.debtorName,
          t.remittanceInformationStructuredArray?.[0]?.reference,
        ]);
      expect(shape(a)).toEqual(shape(b));
      const other = (
        await server.client.post<any>(`/v1/sandbox/accounts/${first.resourceId}/transactions/fill`, { ...body, seed: 'other seed' })
      ).body;
      expect(shape(other)).not.toEqual(shape(a));
    });

    it.each([
      [{ count: 0, dateFrom: osloDay(-10), dateTo: osloDay(-1) }, 'count', ''],
      [{ count: 501, dateFrom: osloDay(-10), dateTo: osloDay(-1) }, 'count', ''],
      [{ count: 1.5, dateFrom: osloDay(-10), dateTo: osloDay(-1) }, 'count', ''],
      [{ count: 10, dateFrom: osloDay(-1), dateTo: osloDay(-10) }, 'dateFrom', 'must not be after dateTo'],
      [{ count: 10, dateFrom: osloDay(-1), dateTo: osloDay(3) }, 'dateTo', 'must not be in the future'],
      [{ count: 10, dateTo: osloDay(-1) }, 'dateFrom', 'is missing'],
      [{ count: 10, dateFrom: osloDay(-10), dateTo: osloDay(-1), profile: 'student' }, 'profile', ''],
    ])('refuses %j with 400 naming %s', async (body, field, text) => {
      const before = await server.client.get<any>(path());
      const response = await server.client.post<any>(`${path()}/fill`, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: field }] });
      expect(response.body.message).toContain(text);
      expect((await server.client.get<any>(path())).body).toEqual(before.body);
    });
  });
});
