/**
 * The bank's say on a payment (docs/design.md §2): the debtor account must be an account of this bank in
 * the currency the TPP names; a private account may be used by its owner only; an account of a
 * corporate agreement needs PSU-Corporate-ID (the agreement's organisation number) and a PSU
 * engaged with REGISTER, within the engagement's registerLimit. A wrong organisation number is
 * said to be wrong only to a PSU engaged on the account; anyone else gets the right number's answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  anotherOrganisationNumber,
  bulkBody,
  bulkItem,
  corporation,
  expectError,
  initiate,
  NDCT,
  ndctBody,
  paymentsOfRequest,
  periodicBody,
  privatePsu,
  SCT,
  sctBody,
  type Corporation,
  type Psu,
} from '../support/payments.js';
import { accountNumber, createCustomer } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('payment debtor account and PSU (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  let stranger: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
    stranger = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  describe('debtor account', () => {
    it('refuses a debtor account that is not an account of this bank with 400 PAYMENT_FAILED at debtorAccount', async () => {
      const requestId = randomUUID();
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(accountNumber()), { headers: psu.headers, requestId });
      expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
      expect(response.body.message).toContain('not an account of this bank');
      expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    });

    it("refuses another TPP's sandbox account as debtor with 400 PAYMENT_FAILED", async () => {
      const other = await server.newTpp('PSDNO-FSA-564738291');
      const theirs = await privatePsu(other.client);
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(theirs.account));
      expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
    });

    it("refuses a debtorAccount.currency other than the account's with 400 FORMAT_ERROR at debtorAccount.currency", async () => {
      const body = ndctBody(psu.account, { debtorAccount: { bban: psu.account.bban, currency: 'EUR' } });
      const response = await initiate(server.client, 'payments', NDCT, body, { headers: psu.headers });
      expectError(response, 400, 'FORMAT_ERROR', 'debtorAccount.currency');
      expect(response.body.message).toContain('NOK');
    });

    it("accepts the debtor account by bban with the account's currency, and by iban", async () => {
      const byBban = ndctBody(psu.account, { debtorAccount: { bban: psu.account.bban, currency: 'NOK' } });
      expect((await initiate(server.client, 'payments', NDCT, byBban, { headers: psu.headers })).status).toBe(201);
      const byIban = ndctBody(psu.account, { debtorAccount: { iban: psu.account.iban } });
      const response = await initiate(server.client, 'payments', NDCT, byIban, { headers: psu.headers });
      expect(response.status, response.text).toBe(201);
    });

    it('refuses a domestic payment from a EUR account at debtorAccount, and accepts an SCT from it', async () => {
      const eur = await privatePsu(server.client, 'EUR');
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(eur.account), { headers: eur.headers });
      expectError(response, 400, 'FORMAT_ERROR', 'debtorAccount');
      const sct = await initiate(server.client, 'payments', SCT, sctBody(eur.account), { headers: eur.headers });
      expect(sct.status, sct.text).toBe(201);
    });
  });

  describe('private accounts', () => {
    it('refuses a PSU-ID of a customer who does not own the account with 400 PAYMENT_FAILED at debtorAccount', async () => {
      const requestId = randomUUID();
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: stranger.headers, requestId });
      expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
      expect(await paymentsOfRequest(server, requestId)).toEqual([]);
    });

    it('accepts the owner as PSU', async () => {
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers });
      expect(response.status, response.text).toBe(201);
    });

    it("refuses a stranger's PSU-ID for bulk and periodic payments too", async () => {
      expectError(
        await initiate(server.client, 'bulk-payments', NDCT, bulkBody(psu.account), { headers: stranger.headers }),
        400,
        'PAYMENT_FAILED',
        'debtorAccount',
      );
      expectError(
        await initiate(server.client, 'periodic-payments', NDCT, periodicBody(psu.account), { headers: stranger.headers }),
        400,
        'PAYMENT_FAILED',
        'debtorAccount',
      );
    });

    it('refuses a PSU-ID that is not a valid national identity number with 400 FORMAT_ERROR at PSU-ID', async () => {
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: { 'psu-id': '12345678901' } });
      expectError(response, 400, 'FORMAT_ERROR', 'PSU-ID');
    });

    it('refuses a PSU-Corporate-ID on a private account with 401 CORPORATE_ID_INVALID', async () => {
      const headers = { ...psu.headers, 'psu-corporate-id': anotherOrganisationNumber('') };
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
    });
  });

  describe('corporate accounts', () => {
    let corp: Corporation;
    beforeAll(async () => {
      corp = await corporation(server.client, '1000.00');
    });

    it('refuses a payment from a corporate account without PSU-Corporate-ID with 400 FORMAT_ERROR at PSU-Corporate-ID', async () => {
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), {
        headers: { 'psu-id': corp.registrar.customerNumber },
      });
      expectError(response, 400, 'FORMAT_ERROR', 'PSU-Corporate-ID');
      expect(response.body.message).toContain('corporate agreement');
    });

    it('refuses another (valid) organisation number with 401 CORPORATE_ID_INVALID', async () => {
      const headers = { ...corp.registrar.headers, 'psu-corporate-id': anotherOrganisationNumber(corp.organisationNumber) };
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers });
      expectError(response, 401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID');
    });

    it('refuses an organisation number with a wrong check digit with 400 FORMAT_ERROR at PSU-Corporate-ID', async () => {
      const wrong = `${corp.organisationNumber.slice(0, 8)}${(Number(corp.organisationNumber[8]) + 1) % 10}`;
      const headers = { ...corp.registrar.headers, 'psu-corporate-id': wrong };
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers });
      expectError(response, 400, 'FORMAT_ERROR', 'PSU-Corporate-ID');
    });

    it('accepts the engaged PSU with the right organisation number, up to the registerLimit', async () => {
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers: corp.registrar.headers });
      expect(response.status, response.text).toBe(201);
      const atLimit = ndctBody(corp.account, { instructedAmount: { currency: 'NOK', amount: '1000.00' } });
      const limit = await initiate(server.client, 'payments', NDCT, atLimit, { headers: corp.registrar.headers });
      expect(limit.status, limit.text).toBe(201);
    });

    it('refuses an amount above the registerLimit with 400 PAYMENT_FAILED at instructedAmount', async () => {
      const body = ndctBody(corp.account, { instructedAmount: { currency: 'NOK', amount: '1000.01' } });
      const response = await initiate(server.client, 'payments', NDCT, body, { headers: corp.registrar.headers });
      expectError(response, 400, 'PAYMENT_FAILED', 'instructedAmount');
      expect(response.body.message).toContain('1000.00');
    });

    it('compares a foreign-currency amount with the limit in NOK (EUR 100.00 is above NOK 1000.00)', async () => {
      const body = sctBody(corp.account, { instructedAmount: { currency: 'EUR', amount: '100.00' } });
      const response = await initiate(server.client, 'payments', SCT, body, { headers: corp.registrar.headers });
      expectError(response, 400, 'PAYMENT_FAILED', 'instructedAmount');
    });

    it('refuses a bulk whose total is above the registerLimit, though each payment is below it', async () => {
      const payments = [
        bulkItem({ instructedAmount: { currency: 'NOK', amount: '600.00' } }),
        bulkItem({ instructedAmount: { currency: 'NOK', amount: '600.00' } }),
      ];
      const response = await initiate(server.client, 'bulk-payments', NDCT, bulkBody(corp.account, { payments }), {
        headers: corp.registrar.headers,
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe('PAYMENT_FAILED');
    });

    it('refuses a PSU engaged with VIEW only with 400 PAYMENT_FAILED at debtorAccount', async () => {
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers: corp.viewer.headers });
      expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
    });

    it('refuses a PSU without an engagement on the account with 400 PAYMENT_FAILED at debtorAccount', async () => {
      const outsider = await createCustomer(server.client);
      const headers = { 'psu-id': outsider.customerNumber, 'psu-corporate-id': corp.organisationNumber };
      expectError(
        await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers }),
        400,
        'PAYMENT_FAILED',
        'debtorAccount',
      );
    });

    it('answers a PSU without an engagement alike for the right and another organisation number: no owner to guess', async () => {
      const outsider = await createCustomer(server.client);
      const answers = [];
      for (const organisationNumber of [corp.organisationNumber, anotherOrganisationNumber(corp.organisationNumber)]) {
        const headers = { 'psu-id': outsider.customerNumber, 'psu-corporate-id': organisationNumber };
        const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers });
        expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
        answers.push(response.body.tppMessages);
      }
      expect(answers[1]).toEqual(answers[0]);
    });

    it('answers a request without a PSU alike for the right and another organisation number: 401 with the link to identify', async () => {
      const answers = [];
      for (const organisationNumber of [corp.organisationNumber, anotherOrganisationNumber(corp.organisationNumber)]) {
        const headers = { 'psu-corporate-id': organisationNumber };
        const response = await initiate(server.client, 'payments', NDCT, ndctBody(corp.account), { headers });
        expect(response.status, response.text).toBe(401);
        expect(response.body._links.scaRedirect.href).toEqual(expect.any(String));
        answers.push(response.body.tppMessages);
      }
      expect(answers[1]).toEqual(answers[0]);
    });

    it('refuses a registerLimit of 0, the documented way to withhold the right to register', async () => {
      const zero = await corporation(server.client, '0');
      const response = await initiate(server.client, 'payments', NDCT, ndctBody(zero.account), { headers: zero.registrar.headers });
      expectError(response, 400, 'PAYMENT_FAILED', 'debtorAccount');
    });
  });
});
