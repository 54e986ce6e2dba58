/**
 * Transaction lists and details under a consent (docs/design.md §2b): the Berlin Group account and
 * card account reports, paging by offset and limit with links that carry every filter (limit=200
 * when defaulted), pages that stay put while transactions are booked, ids kept from pending to
 * booked, what a Norwegian statement line holds, our payments as pending then booked lines, and
 * standing orders as `information`.
 */
import { describe, expect, it } from 'vitest';
import type { TppClient, TppResponse } from '../../src/client/tpp-client.js';
import { ledgerRepository } from '../../src/modules/ledger/ledger.repository.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { approvedConsent, consentBody, detailedAccess } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { approvedPayment, freshTpp, readClock, runBatch, setClock, tppOnBankDay, useTestServer } from '../support/execution.js';
import { bulkBody, expectError, INDCTS, NDCT, ndctBody, pathOf, periodicBody } from '../support/payments.js';
import { createAccount, createCustomer, osloDay } from '../support/sandbox.js';
import { startAuthorisation, walk } from '../support/sca.js';

/** Reads with the PSU present: no frequencyPerDay in the way of paging. */
const PSU_PRESENT = { 'psu-ip-address': '192.0.2.10' };

async function consentFor(client: TppClient, psuId: string, account: { bban: string }, extra: Record<string, unknown> = {}) {
  return approvedConsent(client, consentBody(detailedAccess(account), extra), { 'psu-id': psuId }, (link) => walk(link));
}

async function resourceIdOf(client: TppClient, consentId: string, bban: string): Promise<string> {
  const list = await client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
  expect(list.status, list.text).toBe(200);
  const account = list.body.accounts.find((entry: any) => entry.bban === bban);
  if (!account) throw new Error(`${bban} is not listed: ${list.text}`);
  return account.resourceId as string;
}

function reader(client: TppClient, consentId: string) {
  const read = (path: string, headers: Record<string, string> = PSU_PRESENT) =>
    client.get<any>(path, { headers: { 'consent-id': consentId, ...headers } });
  return Object.assign(read, { consentId });
}

function entriesOf(body: any): any[] {
  return [...(body.transactions.booked ?? []), ...(body.transactions.pending ?? [])];
}

function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href).searchParams);
}

describe.each(DIALECTS)('transactions (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  describe('a seeded account of 250 transactions', () => {
    let client: TppClient;
    let read: ReturnType<typeof reader>;
    let accountPath: string;
    let mockAccountId: string;
    let seeded: string[];

    it('answers 200 entries without parameters, and a next link with offset=200 and limit=200', async () => {
      ({ client } = await freshTpp(server));
      const customer = await createCustomer(client, 'PRIVATE', 'Kari Nordmann');
      const account = await createAccount(client, customer.customerNumber);
      mockAccountId = account.resourceId;
      const fill = await client.post<any>(`/v1/sandbox/accounts/${mockAccountId}/transactions/fill`, {
        count: 250,
        dateFrom: osloDay(-60),
        dateTo: osloDay(-1),
        seed: 'paging',
      });
      expect(fill.status, fill.text).toBe(201);
      seeded = fill.body.transactions.map((item: any) => item.transactionId as string);
      const consentId = await consentFor(client, customer.customerNumber, account);
      read = reader(client, consentId);
      accountPath = `/v1/accounts/${await resourceIdOf(client, consentId, account.bban)}`;

      const first = await read(`${accountPath}/transactions`);
      expect(first.status, first.text).toBe(200);
      expectBerlinGroupSchema('transactionsResponse-200_json', first.body);
      expect(first.body.account).toEqual({ iban: account.iban, currency: 'NOK' });
      expect(entriesOf(first.body)).toHaveLength(200);
      const links = first.body.transactions._links;
      expect(links.account.href).toContain(accountPath);
      expect(paramsOf(links.next.href)).toMatchObject({ bookingStatus: 'both', dateFrom: osloDay(-90), offset: '200', limit: '200' });
      expect(paramsOf(links.self.href)).toMatchObject({ offset: '0', limit: '200' });
      expect(paramsOf(links.first.href)).toMatchObject({ offset: '0', limit: '200' });
      expect(paramsOf(links.last.href)).toMatchObject({ offset: '200', limit: '200' });
      expect(links.previous).toBeUndefined();
    });

    it('following the links gives every transaction once, while new ones are booked between pages', async () => {
      const seen: string[] = [];
      let path: string | undefined = `${accountPath}/transactions?limit=60`;
      let pages = 0;
      while (path !== undefined) {
        const page: TppResponse<any> = await read(path);
        expect(page.status, page.text).toBe(200);
        expectBerlinGroupSchema('transactionsResponse-200_json', page.body);
        seen.push(...entriesOf(page.body).map((entry: any) => entry.transactionId as string));
        // One booked today and one dated in the middle of what is being paged.
        for (const bookingDate of [osloDay(), osloDay(-30)]) {
          const booked = await client.post<any>(`/v1/sandbox/accounts/${mockAccountId}/transactions`, {
            bookingDate,
            valueDate: bookingDate,
            transactionAmount: { currency: 'NOK', amount: '-12.00' },
            creditorName: 'Kiosk',
          });
          expect(booked.status, booked.text).toBe(201);
        }
        pages += 1;
        const next: string | undefined = page.body.transactions._links.next?.href;
        expect(next === undefined || paramsOf(next).limit === '60').toBe(true);
        path = next === undefined ? undefined : pathOf(next);
      }
      expect(pages).toBe(5);
      expect(seen).toHaveLength(250);
      expect(new Set(seen)).toEqual(new Set(seeded));
      // A fresh first page sees what was booked meanwhile.
      const fresh = await read(`${accountPath}/transactions?limit=1`);
      expect(paramsOf(fresh.body.transactions._links.last.href).offset).toBe(String(250 + pages * 2 - 1));
    });

    it('the SDK iterates every page with for await', async () => {
      const ids: string[] = [];
      for await (const { status, transaction } of client.transactions(accountPath, {
        consentId: read.consentId,
        query: { bookingStatus: 'booked', limit: '100', dateTo: osloDay(-1) },
        headers: PSU_PRESENT,
      })) {
        expect(status).toBe('booked');
        ids.push(transaction.transactionId as string);
      }
      // The seeded ones and those booked 30 days ago by the paging test above.
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of seeded) expect(ids).toContain(id);
      const failing = client.transactions(accountPath, { consentId: 'no-such-consent', headers: PSU_PRESENT });
      await expect(failing.next()).rejects.toMatchObject({ name: 'TransactionPageError', response: { status: 401 } });
    });

    it('pages by offset and limit within one snapshot: previous, next and last point where they say', async () => {
      const first = await read(`${accountPath}/transactions?bookingStatus=booked&limit=100`);
      const all: string[] = entriesOf(first.body).map((entry: any) => entry.transactionId);
      const last = await read(pathOf(first.body.transactions._links.last.href));
      const lastLinks = last.body.transactions._links;
      expect(paramsOf(lastLinks.self.href)).toMatchObject({
        offset: String(Math.floor(Number(paramsOf(lastLinks.last.href).offset) / 100) * 100),
      });
      expect(lastLinks.next).toBeUndefined();
      const previous = await read(pathOf(lastLinks.previous.href));
      expect(previous.status, previous.text).toBe(200);
      const middle = await read(pathOf(first.body.transactions._links.next.href));
      expect(entriesOf(previous.body).map((entry: any) => entry.transactionId)).toEqual(
        entriesOf(middle.body).map((entry: any) => entry.transactionId),
      );
      expect(all).toHaveLength(100);
    });

    it('matches query names without regard to case and refuses bad values with 400', async () => {
      const pending = await read(`${accountPath}/transactions?BookingStatus=PENDING&LIMIT=5`);
      expect(pending.status, pending.text).toBe(200);
      expect(pending.body.transactions.booked).toBeUndefined();
      expect(paramsOf(pending.body.transactions._links.self.href)).toMatchObject({ bookingStatus: 'pending', limit: '5' });
      expectError(await read(`${accountPath}/transactions?bookingStatus=all`), 400, 'PARAMETER_NOT_SUPPORTED', 'bookingStatus');
      expectError(await read(`${accountPath}/transactions?bookingStatus=some`), 400, 'FORMAT_ERROR', 'bookingStatus');
      expectError(await read(`${accountPath}/transactions?limit=1001`), 400, 'FORMAT_ERROR', 'limit');
      expectError(await read(`${accountPath}/transactions?limit=0`), 400, 'FORMAT_ERROR', 'limit');
      expectError(await read(`${accountPath}/transactions?offset=-1`), 400, 'FORMAT_ERROR', 'offset');
      expectError(await read(`${accountPath}/transactions?dateFrom=2026-02-30`), 400, 'FORMAT_ERROR', 'dateFrom');
      expectError(
        await read(`${accountPath}/transactions?dateFrom=${osloDay(-1)}&dateTo=${osloDay(-2)}`),
        400,
        'PERIOD_INVALID',
        'dateFrom',
      );
      // Without dateFrom, the dateTo sent is what is refused, in words that say why.
      const beforeDefault = await read(`${accountPath}/transactions?dateTo=${osloDay(-100)}`);
      expectError(beforeDefault, 400, 'PERIOD_INVALID', 'dateTo');
      expect(beforeDefault.body.tppMessages[0].text).toBe(
        `The requested period is not acceptable: dateTo ${osloDay(-100)} is before the default start of the list, 90 days back (${osloDay(-90)}): send dateFrom too`,
      );
      expectError(
        await read(`${accountPath}/transactions?bookingStatus=booked&BOOKINGSTATUS=pending`),
        400,
        'FORMAT_ERROR',
        'bookingStatus',
      );
      expectError(await read(`${accountPath}/transactions?snapshot=bm90LWEtc25hcHNob3Q`), 400, 'FORMAT_ERROR', 'snapshot');
      const limited = await read(`${accountPath}/transactions?bookingStatus=booked&dateFrom=${osloDay(-10)}&dateTo=${osloDay(-5)}`);
      expect(limited.status, limited.text).toBe(200);
      for (const entry of limited.body.transactions.booked) {
        expect(entry.bookingDate >= osloDay(-10) && entry.bookingDate <= osloDay(-5)).toBe(true);
      }
    });

    it('gives one transaction’s details by the id the list gave; an unknown id is 404', async () => {
      const list = await read(`${accountPath}/transactions?bookingStatus=booked&limit=1`);
      const [entry] = list.body.transactions.booked;
      const details = await read(pathOf(entry._links.transactionDetails.href));
      expect(details.status, details.text).toBe(200);
      expectBerlinGroupSchema('transactions', details.body.transactionsDetails);
      expect(details.body.transactionsDetails).toEqual(entry);
      expectError(await read(`${accountPath}/transactions/no-such-transaction`), 404, 'RESOURCE_UNKNOWN', 'transactionId');
    });
  });

  it('shows what a Norwegian statement holds: dates, amounts as strings, counterparty, KID, bank transaction codes', async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const account = await createAccount(client, customer.customerNumber);
    const creditor = await createAccount(client, (await createCustomer(client)).customerNumber);
    const booked = await client.post<any>(`/v1/sandbox/accounts/${account.resourceId}/transactions`, {
      bookingDate: osloDay(-3),
      valueDate: osloDay(-2),
      transactionAmount: { currency: 'NOK', amount: '-1499.50' },
      creditorName: 'Hafslund Strøm AS',
      creditorAccount: { bban: creditor.bban },
      remittanceInformationStructured: { reference: '1234567897', referenceType: 'SCOR' },
    });
    expect(booked.status, booked.text).toBe(201);
    const consentId = await consentFor(client, customer.customerNumber, account);
    const path = `/v1/accounts/${await resourceIdOf(client, consentId, account.bban)}/transactions?bookingStatus=booked`;
    const list = await reader(client, consentId)(path);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('transactionsResponse-200_json', list.body);
    expect(list.body.transactions.booked).toEqual([
      {
        transactionId: booked.body.transactionId,
        bookingDate: osloDay(-3),
        valueDate: osloDay(-2),
        transactionAmount: { currency: 'NOK', amount: '-1499.50' },
        creditorName: 'Hafslund Strøm AS',
        creditorAccount: { bban: creditor.bban },
        remittanceInformationStructuredArray: [{ reference: '1234567897', referenceType: 'SCOR' }],
        bankTransactionCode: 'PMNT-ICDT-DMCT',
        proprietaryBankTransactionCode: 'Giro',
        _links: { transactionDetails: { href: expect.stringContaining(`/transactions/${booked.body.transactionId}`) } },
      },
    ]);
  });

  it('takes back only snapshots the server issued for the list: a made-up one cannot add payments as pending lines or move the mark', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const approved = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    // Received, never approved: no line of the account.
    const received = await client.post<any>(
      `/v1/payments/${NDCT}`,
      ndctBody(psu.account, { instructedAmount: { currency: 'NOK', amount: '11.00' } }),
      {
        headers: psu.headers,
      },
    );
    expect(received.status, received.text).toBe(201);
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    const first = await read(`${transactions}?bookingStatus=pending`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.transactions.pending.map((entry: any) => entry.transactionId)).toEqual([approved.paymentId]);
    const issued = paramsOf(first.body.transactions._links.self.href).snapshot!;
    const again = await read(`${transactions}?bookingStatus=pending&snapshot=${issued}`);
    expect(again.status, again.text).toBe(200);
    expect(again.body.transactions.pending.map((entry: any) => entry.transactionId)).toEqual([approved.paymentId]);

    const made = (contents: unknown) => Buffer.from(JSON.stringify(contents)).toString('base64url');
    const changed = Buffer.from(issued, 'base64url');
    changed[20] = changed[20]! ^ 0x01;
    const forged = [
      made({ a: '1', p: [approved.paymentId, received.body.paymentId] }),
      made({ a: '-1', p: [] }),
      // The issued snapshot's end on other contents, and the issued one with one bit changed.
      made({ a: '1', p: [received.body.paymentId] }) + issued.slice(-43),
      changed.toString('base64url'),
    ];
    for (const snapshot of forged) {
      expectError(await read(`${transactions}?bookingStatus=pending&snapshot=${snapshot}`), 400, 'FORMAT_ERROR', 'snapshot');
    }
  });

  it('a paging link’s snapshot cannot be read: it shows neither the bank’s posting counter, which other TPPs’ bookings move, nor the pending payment', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const approved = await approvedPayment(client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const own = await client.post<any>(`/v1/sandbox/accounts/${psu.accountId}/transactions/fill`, {
      count: 3,
      dateFrom: osloDay(-10),
      dateTo: osloDay(-1),
      seed: 'own',
    });
    expect(own.status, own.text).toBe(201);
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    // Another TPP's customer, whose bookings move the bank's counter between this TPP's reads.
    const other = (await freshTpp(server)).client;
    const elsewhere = await createAccount(other, (await createCustomer(other)).customerNumber);
    const seen: { snapshot: string; counter: string }[] = [];
    for (const seed of ['before', 'between']) {
      const fill = await other.post<any>(`/v1/sandbox/accounts/${elsewhere.resourceId}/transactions/fill`, {
        count: 120,
        dateFrom: osloDay(-20),
        dateTo: osloDay(-1),
        seed,
      });
      expect(fill.status, fill.text).toBe(201);
      const page = await read(`${transactions}?limit=1`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.transactions.pending.map((entry: any) => entry.transactionId)).toEqual([approved.paymentId]);
      // The sandbox's mark: its newest posting, of any account.
      const counter = String(await ledgerRepository.lastPostingId(server.database.db));
      seen.push({ snapshot: paramsOf(page.body.transactions._links.next.href).snapshot!, counter });
    }
    expect(Number(seen[1]!.counter) - Number(seen[0]!.counter)).toBeGreaterThanOrEqual(120);
    for (const { snapshot, counter } of seen) {
      const decoded = Buffer.from(snapshot, 'base64url').toString('latin1');
      expect(() => JSON.parse(decoded)).toThrow();
      expect(decoded).not.toContain(counter);
      expect(decoded).not.toContain(approved.paymentId);
    }
  });

  it('the links of a list hold for 24 hours from its first page, into the next day: later, the list is read again from its first page', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    const first = await read(`${transactions}?limit=1`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.transactions._links.self.href).toContain('snapshot=');
    const next = new URL(first.body.transactions._links.self.href);
    const later = (hours: number) => new Date(Date.parse(clock.dateTime) + hours * 3_600_000).toISOString();
    const clock = await readClock(client);
    // The next day in Oslo: the link's dateFrom, 90 days before the first page, is 91 days back now.
    await setClock(client, later(15));
    const inTime = await read(`${transactions}${next.search}`);
    expect(inTime.status, inTime.text).toBe(200);
    // The links of a page read later carry the first page's moment, not their own.
    const third = new URL(inTime.body.transactions._links.self.href);
    await setClock(client, later(25));
    for (const link of [next, third]) {
      const late = await read(`${transactions}${link.search}`);
      expectError(late, 400, 'FORMAT_ERROR', 'snapshot');
      expect(late.body.tppMessages[0].text).toMatch(/more than 24 hours old .*read the list again from its first page/);
    }
    expect((await read(`${transactions}?limit=1`)).status).toBe(200);
  });

  it('a payment approved is a pending line, booked under the same id after a batch run, on the debtor and the creditor account', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const creditorCustomer = await createCustomer(client, 'PRIVATE', 'Ola Hansen');
    const creditor = await createAccount(client, creditorCustomer.customerNumber);
    const payment = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(psu.account, {
        creditorAccount: { bban: creditor.bban },
        creditorName: 'Ola Hansen',
        endToEndIdentification: 'E2E-hytta-42',
        remittanceInformationUnstructured: 'Husleie mars',
      }),
      psu.headers,
    );
    const cancelled = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(psu.account, { instructedAmount: { currency: 'NOK', amount: '7.00' } }),
      psu.headers,
    );
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;

    const before = await read(`${transactions}?bookingStatus=pending`);
    expect(before.status, before.text).toBe(200);
    expectBerlinGroupSchema('transactionsResponse-200_json', before.body);
    const expectedLine = {
      transactionId: payment.paymentId,
      endToEndId: 'E2E-hytta-42',
      transactionAmount: { currency: 'NOK', amount: '-100.33' },
      creditorName: 'Ola Hansen',
      creditorAccount: { bban: creditor.bban },
      remittanceInformationUnstructured: 'Husleie mars',
      bookingDate: day,
    };
    expect(before.body.transactions.pending).toEqual(
      expect.arrayContaining([expect.objectContaining(expectedLine), expect.objectContaining({ transactionId: cancelled.paymentId })]),
    );
    const pendingDetails = await read(`${transactions}/${payment.paymentId}`);
    expect(pendingDetails.status, pendingDetails.text).toBe(200);
    expect(pendingDetails.body.transactionsDetails).toMatchObject(expectedLine);

    // Cancelled: gone from the pending lines.
    expect((await client.delete<any>(cancelled.path)).status).toBe(202);
    const cancellation = await startAuthorisation(client, cancelled.path, psu.headers, 'cancellation-authorisations');
    await walk(cancellation.scaRedirect);
    expect((await client.get<any>(`${cancelled.path}/status`)).body.transactionStatus).toBe('CANC');
    const afterCancel = await read(`${transactions}?bookingStatus=pending`);
    expect(afterCancel.body.transactions.pending.map((entry: any) => entry.transactionId)).toEqual([payment.paymentId]);

    await runBatch(client);
    const after = await read(`${transactions}?bookingStatus=both`);
    expect(after.status, after.text).toBe(200);
    expectBerlinGroupSchema('transactionsResponse-200_json', after.body);
    expect(after.body.transactions.pending).toEqual([]);
    expect(after.body.transactions.booked).toEqual(
      expect.arrayContaining([expect.objectContaining({ ...expectedLine, valueDate: day, bankTransactionCode: 'PMNT-ICDT-DMCT' })]),
    );
    const bookedDetails = await read(`${transactions}/${payment.paymentId}`);
    expect(bookedDetails.body.transactionsDetails).toMatchObject(expectedLine);

    // The creditor's statement shows the credit, with the payer's account and name.
    const creditorConsent = await consentFor(client, creditorCustomer.customerNumber, creditor);
    const creditorTransactions = `/v1/accounts/${await resourceIdOf(client, creditorConsent, creditor.bban)}/transactions?bookingStatus=booked`;
    const credited = await reader(client, creditorConsent)(creditorTransactions);
    expect(credited.status, credited.text).toBe(200);
    expect(credited.body.transactions.booked).toEqual([
      expect.objectContaining({
        transactionId: payment.paymentId,
        endToEndId: 'E2E-hytta-42',
        transactionAmount: { currency: 'NOK', amount: '100.33' },
        debtorAccount: { bban: psu.account.bban },
        debtorName: expect.any(String),
        remittanceInformationUnstructured: 'Husleie mars',
        bankTransactionCode: 'PMNT-RCDT-DMCT',
      }),
    ]);
  });

  it('a Straks payment is booked at approval with its fee as a line of its own: PMNT-ICDT-CHRG, Gebyr, the payment named', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
    const payment = await approvedPayment(
      client,
      'payments',
      INDCTS,
      ndctBody(psu.account, { creditorName: 'Kari Nordmann', remittanceInformationUnstructured: 'Middag' }),
      psu.headers,
    );
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    const list = await read(`${transactions}?bookingStatus=booked`);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('transactionsResponse-200_json', list.body);
    const booked = list.body.transactions.booked as any[];
    expect(booked.find((entry) => entry.transactionId === payment.paymentId)).toMatchObject({
      transactionAmount: { currency: 'NOK', amount: '-100.33' },
      creditorName: 'Kari Nordmann',
      bankTransactionCode: 'PMNT-ICDT-DMCT',
    });
    const fee = booked.find((entry) => entry.transactionId === `${payment.paymentId}-fee`);
    expect(fee).toMatchObject({
      bookingDate: day,
      transactionAmount: { currency: 'NOK', amount: '-5.00' },
      bankTransactionCode: 'PMNT-ICDT-CHRG',
      proprietaryBankTransactionCode: 'Gebyr',
      remittanceInformationUnstructured: expect.stringMatching(/^Gebyr: Kari Nordmann/),
    });
    const details = await read(`${transactions}/${payment.paymentId}-fee`);
    expect(details.status, details.text).toBe(200);
    // The operation's 200 is {transactionsDetails}, a Berlin Group `transactions` object.
    expectBerlinGroupSchema('transactions', details.body.transactionsDetails);
    expect(details.body.transactionsDetails).toMatchObject({
      transactionId: `${payment.paymentId}-fee`,
      bankTransactionCode: 'PMNT-ICDT-CHRG',
    });
  });

  it('a bulk payment is one pending line per payment, each booked under the same id after the batch run', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const bulk = await approvedPayment(client, 'bulk-payments', NDCT, bulkBody(psu.account, { requestedExecutionDate: day }), psu.headers);
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    const lines = (body: any, status: 'booked' | 'pending') =>
      body.transactions[status].map((entry: any) => [entry.transactionId, entry.transactionAmount.amount, entry.creditorName]);
    const expected = [
      [`${bulk.paymentId}-1`, '-250.00', 'Leverandør AS'],
      [`${bulk.paymentId}-2`, '-12.50', 'Leverandør AS'],
    ];
    const before = await read(`${transactions}?bookingStatus=pending`);
    expect(before.status, before.text).toBe(200);
    expect(lines(before.body, 'pending').sort()).toEqual(expected);
    await runBatch(client);
    const after = await read(`${transactions}?bookingStatus=both`);
    expect(after.body.transactions.pending).toEqual([]);
    expect(lines(after.body, 'booked').sort()).toEqual(expected);
    const second = await read(`${transactions}/${bulk.paymentId}-2`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.transactionsDetails).toMatchObject({
      transactionId: `${bulk.paymentId}-2`,
      remittanceInformationUnstructured: 'Faktura 1',
    });
  });

  it('answers the KID of a payment sent in the deprecated remittanceInformationStructured in remittanceInformationStructuredArray', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '5000.00');
    const kid = { reference: '1234567897', referenceType: 'SCOR' };
    const payment = await approvedPayment(
      client,
      'payments',
      NDCT,
      ndctBody(psu.account, {
        remittanceInformationUnstructured: undefined,
        remittanceInformationStructured: kid,
        requestedExecutionDate: day,
      }),
      psu.headers,
    );
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const read = reader(client, consentId);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    for (const status of ['pending', 'booked'] as const) {
      if (status === 'booked') await runBatch(client);
      const list = await read(`${transactions}?bookingStatus=${status}`);
      expect(list.status, list.text).toBe(200);
      expectBerlinGroupSchema('transactionsResponse-200_json', list.body);
      const line = list.body.transactions[status].find((entry: any) => entry.transactionId === payment.paymentId);
      expect(line, status).toMatchObject({ remittanceInformationStructuredArray: [kid] });
      expect(line).not.toHaveProperty('remittanceInformationStructured');
      const details = await read(`${transactions}/${payment.paymentId}`);
      expect(details.body.transactionsDetails).toMatchObject({ remittanceInformationStructuredArray: [kid] });
      expect(details.body.transactionsDetails).not.toHaveProperty('remittanceInformationStructured');
    }
  });

  it('lists the PSU’s standing orders as information', async () => {
    const { client, psu } = await tppOnBankDay(server, '10:00');
    const order = await approvedPayment(client, 'periodic-payments', NDCT, periodicBody(psu.account), psu.headers);
    const consentId = await consentFor(client, psu.customerNumber, psu.account);
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, psu.account.bban)}/transactions`;
    const information = await reader(client, consentId)(`${transactions}?bookingStatus=information`);
    expect(information.status, information.text).toBe(200);
    expectBerlinGroupSchema('transactionsResponse-200_json', information.body);
    expect(information.body.transactions.booked).toBeUndefined();
    expect(information.body.transactions.information).toEqual([
      expect.objectContaining({
        bankTransactionCode: 'PMNT-ICDT-STDO',
        additionalInformationStructured: { standingOrderDetails: expect.objectContaining({ frequency: expect.any(String) }) },
      }),
    ]);
    // A standing order is no transaction: no transactionId, which would name details there are none of.
    expect(information.body.transactions.information[0]).not.toHaveProperty('transactionId');
    expect(JSON.stringify(information.body.transactions.information)).not.toContain(order.paymentId);
  });

  it('lists card transactions with the merchant and the original amount, in the Berlin Group card account report', async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const card = await client.post<any>('/v1/sandbox/card-accounts', {
      customerNumber: customer.customerNumber,
      name: 'Kari Mastercard',
      creditLimit: { currency: 'NOK', amount: '20000.00' },
    });
    expect(card.status, card.text).toBe(201);
    const purchase = await client.post<any>(`/v1/sandbox/card-accounts/${card.body.resourceId}/transactions`, {
      transactionDate: osloDay(-2),
      bookingDate: osloDay(-1),
      transactionAmount: { currency: 'NOK', amount: '-115.00' },
      originalAmount: { currency: 'EUR', amount: '-10.00' },
      merchantCategoryCode: '5812',
      transactionDetails: 'CAFE CENTRAL WIEN',
    });
    expect(purchase.status, purchase.text).toBe(201);
    const consentId = await approvedConsent(
      client,
      consentBody({ accounts: [{ maskedPan: card.body.maskedPan }], transactions: [{ maskedPan: card.body.maskedPan }] }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    const cards = await client.get<any>('/v1/card-accounts', { headers: { 'consent-id': consentId } });
    const resourceId = cards.body.cardAccounts[0].resourceId as string;
    const list = await reader(client, consentId)(`/v1/card-accounts/${resourceId}/transactions`);
    expect(list.status, list.text).toBe(200);
    expectBerlinGroupSchema('cardAccountsTransactionsResponse200', list.body);
    expect(list.body.cardAccount).toEqual({ maskedPan: card.body.maskedPan, currency: 'NOK' });
    expect(list.body.cardTransactions.booked).toEqual([
      {
        // The sandbox's UUID without its hyphens: Berlin Group allows 35 characters.
        cardTransactionId: String(purchase.body.cardTransactionId).replace(/-/g, ''),
        transactionDate: osloDay(-2),
        bookingDate: osloDay(-1),
        transactionAmount: { currency: 'NOK', amount: '-115.00' },
        originalAmount: { currency: 'EUR', amount: '-10.00' },
        merchantCategoryCode: '5812',
        maskedPAN: card.body.maskedPan,
        transactionDetails: 'CAFE CENTRAL WIEN',
      },
    ]);
    expect(paramsOf(list.body.cardTransactions._links.self.href)).toMatchObject({ offset: '0', limit: '200' });
    expectError(
      await reader(client, consentId)(`/v1/card-accounts/${resourceId}/transactions?bookingStatus=information`),
      400,
      'FORMAT_ERROR',
      'bookingStatus',
    );
  });

  it('missing data from the core system is an error, never an empty list: 500 SYSTEM_ERROR, 503 when it does not answer', async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const account = await createAccount(client, customer.customerNumber);
    const consentId = await consentFor(client, customer.customerNumber, account);
    const read = reader(client, consentId);
    const path = `/v1/accounts/${await resourceIdOf(client, consentId, account.bban)}`;
    const fault = (value: string | null) =>
      client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/core-system-fault`, { fault: value });

    const set = await fault('missing-data');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ fault: 'missing-data' });
    for (const suffix of [
      '/transactions',
      '/transactions?bookingStatus=booked',
      '/transactions?bookingStatus=pending',
      '/transactions?bookingStatus=information',
      '/transactions/anything',
      '/balances',
    ]) {
      const answer = await read(`${path}${suffix}`);
      expect(answer.status, answer.text).toBe(500);
      expect(answer.body).toMatchObject({ status: 500, code: 'SYSTEM_ERROR' });
      expect(answer.body.message).toBeUndefined();
    }
    expect((await fault('unavailable')).status).toBe(200);
    expectError(await read(`${path}/transactions`), 503, 'SERVICE_UNAVAILABLE');
    expectError(await read(`${path}/transactions?bookingStatus=information`), 503, 'SERVICE_UNAVAILABLE');
    expect((await fault(null)).body).toEqual({ fault: null });
    const healthy = await read(`${path}/transactions`);
    expect(healthy.status, healthy.text).toBe(200);
    expect(healthy.body.transactions).toMatchObject({ booked: [], pending: [] });
    const information = await read(`${path}/transactions?bookingStatus=information`);
    expect(information.status, information.text).toBe(200);
    expect(information.body.transactions).toMatchObject({ information: [] });

    expectError(
      await client.put<any>('/v1/sandbox/accounts/no-such-account/core-system-fault', { fault: 'unavailable' }),
      404,
      'RESOURCE_UNKNOWN',
      'mockAccountId',
    );
    expectError(
      await client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/core-system-fault`, { fault: 'broken' }),
      400,
      'FORMAT_ERROR',
      'fault',
    );
  });

  it('an account or card account the bank no longer has is 404 at account-id on every read, naming no id of the bank', async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const account = await createAccount(client, customer.customerNumber);
    const card = await client.post<any>('/v1/sandbox/card-accounts', {
      customerNumber: customer.customerNumber,
      name: 'Kari Mastercard',
      creditLimit: { currency: 'NOK', amount: '20000.00' },
    });
    expect(card.status, card.text).toBe(201);
    const both = [{ bban: account.bban }, { maskedPan: card.body.maskedPan }];
    const consentId = await consentFor(client, customer.customerNumber, account, {
      access: { accounts: both, balances: both, transactions: both },
    });
    const read = reader(client, consentId);
    const accountPath = `/v1/accounts/${await resourceIdOf(client, consentId, account.bban)}`;
    const cards = await client.get<any>('/v1/card-accounts', { headers: { 'consent-id': consentId } });
    const cardPath = `/v1/card-accounts/${cards.body.cardAccounts[0].resourceId}`;

    expect((await client.delete<any>(`/v1/sandbox/customers/${customer.customerId}`)).status).toBe(204);
    const unknown = await read(accountPath);
    expectError(unknown, 404, 'RESOURCE_UNKNOWN', 'account-id');
    for (const path of [
      `${accountPath}/balances`,
      `${accountPath}/transactions`,
      `${accountPath}/transactions?bookingStatus=booked`,
      `${accountPath}/transactions/anything`,
      `${cardPath}/balances`,
      `${cardPath}/transactions`,
    ]) {
      const answer = await read(path);
      expectError(answer, 404, 'RESOURCE_UNKNOWN', 'account-id');
      // The same words as the account's own 404: the bank's words name its internal account id.
      expect(answer.body.tppMessages, path).toEqual(unknown.body.tppMessages);
      expect(answer.text, path).not.toContain(account.resourceId);
      expect(answer.text, path).not.toContain(card.body.resourceId);
    }
  });

  it('refuses a consent without transactions for the account with 401 CONSENT_INVALID', async () => {
    const { client } = await freshTpp(server);
    const customer = await createCustomer(client);
    const account = await createAccount(client, customer.customerNumber);
    const consentId = await approvedConsent(
      client,
      consentBody({ accounts: [{ bban: account.bban }], balances: [{ bban: account.bban }] }),
      { 'psu-id': customer.customerNumber },
      (link) => walk(link),
    );
    const transactions = `/v1/accounts/${await resourceIdOf(client, consentId, account.bban)}/transactions`;
    expectError(await reader(client, consentId)(transactions), 401, 'CONSENT_INVALID');
    expectError(await reader(client, consentId)(`${transactions}/anything`), 401, 'CONSENT_INVALID');
    expectError(await client.get<any>(transactions, { headers: PSU_PRESENT }), 400, 'FORMAT_ERROR', 'Consent-ID');
  });
});
