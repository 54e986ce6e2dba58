/**
 * Instant (Straks) payments settle at approval (docs/design.md §3), with no batch run:
 * - within interimAvailable: ACSC with fundsAvailable true the moment the PSU approves (RCVD→ACSC),
 *   the debtor debited in one posting booked on the TPP's today, an in-bank creditor credited; a
 *   later run finds nothing to do;
 * - the fee the payment's 201 answered (the sandbox's price list: 5.00 NOK) is charged with it, once,
 *   as a statement line of its own (PMNT-ICDT-CHRG, "Gebyr"), to the TPP's sandbox fee account;
 * - above it, the fee counted: RJCT with fundsAvailable false and a psuMessage naming insufficient
 *   funds; the authorisation is still finalised (the PSU did approve), the PSU's pages end normally
 *   (no 5xx) and nothing is debited, not the fee either;
 * - approved in a signing basket: each instant payment settles in turn while the funds last, the
 *   rest are rejected the same way;
 * - with two approvers: the first approval leaves PATC and moves no money; the second settles it.
 */
import { describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { basketStatusOf, createBasket, explicitPayment } from '../support/baskets.js';
import { DIALECTS } from '../support/databases.js';
import {
  balanceOf,
  feeOfPayment,
  freshTpp,
  fundedPsu,
  inBankAccount,
  ledgerOfPayment,
  NO_COUNTS,
  nok,
  paymentMoves,
  runBatch,
  setBalance,
  statusOf,
  tppOnBankDay,
  useTestServer,
} from '../support/execution.js';
import { INDCTS, ndctBody } from '../support/payments.js';
import { createPayment, dualControlCorporation, OK_URI, scaStatusOf, startAuthorisation, walk } from '../support/sca.js';

const INSUFFICIENT = /insufficient funds/i;
const URIS = { 'tpp-redirect-uri': OK_URI };

describe.each(DIALECTS)('instant payments settle at approval (%s)', (dialect) => {
  const server = useTestServer({ dialect });

  async function instant(client: TppClient, body: unknown, headers: Record<string, string>) {
    const payment = await createPayment(client, 'payments', INDCTS, body, { ...headers, ...URIS });
    const journey = await walk(payment.links['scaRedirect']!.href);
    return { ...payment, journey };
  }

  it('within the balance: ACSC with fundsAvailable true at approval, debited at once, no run needed', async () => {
    const { client, day, psu } = await tppOnBankDay(server, '10:00', '1000.00');
    const payment = await instant(client, ndctBody(psu.account, { requestedExecutionDate: day }), psu.headers);
    expect(payment.journey.redirectedTo).toBe(OK_URI);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await scaStatusOf(client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
    expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>ACSC']);
    // 100.33 and the 5.00 fee the 201 answered.
    expect(payment.body['transactionFees']).toEqual({ currency: 'NOK', amount: '5.00' });
    expect(await balanceOf(client, psu.accountId)).toEqual({ closingBooked: '894.67', expected: '894.67', interimAvailable: '894.67' });
    const postings = await ledgerOfPayment(server, payment.paymentId);
    expect(postings).toHaveLength(1);
    expect(postings[0]).toMatchObject({ idempotencyKey: `payment:${payment.paymentId}`, status: 'booked', bookingDate: day });
    expect(await feeOfPayment(server, payment.paymentId)).toMatchObject({
      status: 'booked',
      bookingDate: day,
      legs: [
        { accountId: psu.accountId, currency: 'NOK', amountMinor: '-500' },
        { accountId: expect.stringMatching(/^sandbox-system:.+:fees$/), currency: 'NOK', amountMinor: '500' },
      ],
    });
    // Nothing left for a batch run.
    expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    expect(await ledgerOfPayment(server, payment.paymentId)).toHaveLength(1);
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '894.67' });
  });

  it('exactly the balance, the fee counted: settles, leaving 0.00', async () => {
    const { client } = await freshTpp(server);
    const psu = await fundedPsu(client, '105.33');
    const payment = await instant(client, ndctBody(psu.account), psu.headers);
    expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '0.00', interimAvailable: '0.00' });
  });

  it('to an account of the same sandbox: credited at approval', async () => {
    const { client } = await freshTpp(server);
    const psu = await fundedPsu(client, '1000.00');
    const creditor = await inBankAccount(client);
    const payment = await instant(client, ndctBody(psu.account, { creditorAccount: { bban: creditor.bban } }), psu.headers);
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('ACSC');
    expect(await balanceOf(client, creditor.accountId)).toEqual({
      closingBooked: '100.33',
      expected: '100.33',
      interimAvailable: '100.33',
    });
  });

  it('enough for the amount but not for its fee: RJCT on insufficient funds, nothing debited', async () => {
    const { client } = await freshTpp(server);
    const psu = await fundedPsu(client, '105.32');
    const payment = await instant(client, ndctBody(psu.account), psu.headers);
    const status = await statusOf(client, payment.path);
    expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
    expect(status.psuMessage).toMatch(INSUFFICIENT);
    expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
    expect(await feeOfPayment(server, payment.paymentId)).toBeUndefined();
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '105.32', interimAvailable: '105.32' });
  });

  it('above the balance: RJCT with fundsAvailable false and a psuMessage on insufficient funds; SCA finalised; nothing debited', async () => {
    const { client } = await freshTpp(server);
    const psu = await fundedPsu(client, '100.32');
    const payment = await instant(client, ndctBody(psu.account), psu.headers);
    expect(payment.journey.lastStatus).toBeLessThan(500);
    expect(payment.journey.redirectedTo).toBe(OK_URI);
    const status = await statusOf(client, payment.path);
    expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
    expect(status.psuMessage).toMatch(INSUFFICIENT);
    expect(await scaStatusOf(client, payment.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });
    expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>RJCT']);
    expect(await ledgerOfPayment(server, payment.paymentId)).toEqual([]);
    expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '100.32', interimAvailable: '100.32' });
    // Final: funds arriving later and a run do not pay it.
    await setBalance(client, psu.accountId, '1000.00');
    expect((await runBatch(client)).counts).toEqual(NO_COUNTS);
    expect((await statusOf(client, payment.path)).transactionStatus).toBe('RJCT');
  });

  it('the authorisation and payment reads after a rejection at approval all answer (no 5xx)', async () => {
    const { client } = await freshTpp(server);
    const psu = await fundedPsu(client, '0.00');
    const payment = await instant(client, ndctBody(psu.account, nok('1.00')), psu.headers);
    for (const path of [payment.path, `${payment.path}/status`, `${payment.path}/authorisations`]) {
      const response = await client.get<any>(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
    }
  });

  describe('in a signing basket', () => {
    it('each instant payment settles in turn while the funds last; the one that finds none is RJCT', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const first = await explicitPayment(client, INDCTS, ndctBody(psu.account, nok('600.00')), psu.headers);
      const second = await explicitPayment(client, INDCTS, ndctBody(psu.account, nok('600.00')), psu.headers);
      const basket = await createBasket(client, [first.paymentId, second.paymentId], { ...psu.headers, ...URIS });
      const journey = await walk(basket.links['scaRedirect']!.href);
      expect(journey.lastStatus).toBeLessThan(500);
      expect(journey.redirectedTo).toBe(OK_URI);
      expect(await scaStatusOf(client, basket.links['scaStatus']!.href)).toEqual({ scaStatus: 'finalised' });

      const statuses = [await statusOf(client, first.path), await statusOf(client, second.path)];
      const settled = statuses.filter((status) => status.transactionStatus === 'ACSC');
      const rejected = statuses.filter((status) => status.transactionStatus === 'RJCT');
      expect(settled).toEqual([{ transactionStatus: 'ACSC', fundsAvailable: true }]);
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toMatchObject({ fundsAvailable: false });
      expect(rejected[0]!.psuMessage).toMatch(INSUFFICIENT);
      // 1 000.00 less 600.00 and its 5.00 fee: not enough for the other 605.00.
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '395.00', interimAvailable: '395.00' });
      // The basket shows the worst case of its payments.
      expect(await basketStatusOf(client, basket.path)).toBe('RJCT');
    });

    it('an instant payment within the funds settles with the basket', async () => {
      const { client } = await freshTpp(server);
      const psu = await fundedPsu(client, '1000.00');
      const payment = await explicitPayment(client, INDCTS, ndctBody(psu.account), psu.headers);
      const basket = await createBasket(client, [payment.paymentId], { ...psu.headers, ...URIS });
      await walk(basket.links['scaRedirect']!.href);
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await balanceOf(client, psu.accountId)).toMatchObject({ closingBooked: '894.67' });
      expect(await basketStatusOf(client, basket.path)).toBe('ACTC');
    });
  });

  describe('with two approvers', () => {
    async function corporateInstant(balance: string, amount: string) {
      const { client } = await freshTpp(server);
      const company = await dualControlCorporation(client, '0', 2);
      const accountId = (company.account as unknown as { resourceId: string }).resourceId;
      await setBalance(client, accountId, balance);
      const payment = await createPayment(client, 'payments', INDCTS, ndctBody(company.account, nok(amount)), {
        ...company.approvers[0]!.headers,
        ...URIS,
      });
      expect(payment.links['startAuthorisation']).toBeDefined();
      await walk((await startAuthorisation(client, payment.path)).scaRedirect);
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'PATC' });
      expect(await balanceOf(client, accountId)).toMatchObject({ closingBooked: balance });
      const second = await startAuthorisation(client, payment.path, { 'psu-id': company.approvers[1]!.customerNumber });
      const journey = await walk(second.scaRedirect);
      expect(journey.lastStatus).toBeLessThan(500);
      expect(await scaStatusOf(client, second.scaStatus)).toEqual({ scaStatus: 'finalised' });
      return { client, payment, accountId };
    }

    it('the first approval leaves PATC with no money moved; the second settles it (ACSC)', async () => {
      const { client, payment, accountId } = await corporateInstant('1000.00', '100.33');
      expect(await statusOf(client, payment.path)).toEqual({ transactionStatus: 'ACSC', fundsAvailable: true });
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>PATC', 'PATC>ACSC']);
      expect(await balanceOf(client, accountId)).toMatchObject({ closingBooked: '894.67' });
    });

    it('above the balance at the second approval: RJCT with fundsAvailable false', async () => {
      const { client, payment, accountId } = await corporateInstant('50.00', '100.33');
      const status = await statusOf(client, payment.path);
      expect(status).toMatchObject({ transactionStatus: 'RJCT', fundsAvailable: false });
      expect(status.psuMessage).toMatch(INSUFFICIENT);
      expect(await paymentMoves(server, payment.paymentId)).toEqual(['RCVD>PATC', 'PATC>RJCT']);
      expect(await balanceOf(client, accountId)).toMatchObject({ closingBooked: '50.00' });
    });
  });
});
