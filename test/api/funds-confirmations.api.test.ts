/**
 * `POST /v1/funds-confirmations` (docs/design.md §2b): the bank's funds check on an account, for a
 * TPP with PSP_IC, no consent needed. An account named in a currency it is not held in names no
 * account (404, as an unknown one); card references are Berlin Group members the check does not
 * take (400 PARAMETER_NOT_SUPPORTED).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TppClient } from '../../src/client/tpp-client.js';
import { DIALECTS } from '../support/databases.js';
import { expectError } from '../support/payments.js';
import { accountNumber, createAccount, createCustomer } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('funds confirmation (%s)', (dialect) => {
  let server: TestServer;
  let client: TppClient;
  let account: { bban: string; iban: string; resourceId: string };

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    client = (await server.newTpp('PSDNO-FSA-777777777', ['PSP_IC'])).client;
    const customer = await createCustomer(client);
    account = await createAccount(client, customer.customerNumber);
    const set = await client.put<any>(`/v1/sandbox/accounts/${account.resourceId}/balance`, {
      balanceAmount: { currency: 'NOK', amount: '1000.00' },
    });
    expect(set.status, set.text).toBe(200);
  });
  afterAll(() => server.close());

  const confirm = (body: Record<string, unknown>, by: TppClient = client) => by.post<any>('/v1/funds-confirmations', body);

  it.each([
    ['1000.00', true],
    ['1000.01', false],
  ])('answers %s NOK from a 1000.00 account with fundsAvailable %s', async (amount, fundsAvailable) => {
    const response = await confirm({ account: { bban: account.bban }, instructedAmount: { currency: 'NOK', amount } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ fundsAvailable });
  });

  it('takes the account by IBAN, with the card number and payee a PIISP may send', async () => {
    const response = await confirm({
      account: { iban: account.iban },
      instructedAmount: { currency: 'NOK', amount: '10.00' },
      cardNumber: '1234567890123456',
      payee: 'Kiosken',
    });
    expect(response.body).toEqual({ fundsAvailable: true });
  });

  it.each([
    [{ account: { bban: '12345678901' }, instructedAmount: { currency: 'NOK', amount: '1.00' } }, 400, 'FORMAT_ERROR', 'account.bban'],
    [{ account: {}, instructedAmount: { currency: 'NOK', amount: '1.00' } }, 400, 'FORMAT_ERROR', 'account'],
    [{ account: { bban: 'X' }, instructedAmount: { currency: 'NOK', amount: 1 } }, 400, 'FORMAT_ERROR', 'instructedAmount.amount'],
    [
      { account: { bban: accountNumber().bban }, instructedAmount: { currency: 'NOK', amount: '0.00' } },
      400,
      'FORMAT_ERROR',
      'instructedAmount.amount',
    ],
  ])('refuses %j: %i %s at %s', async (body, status, code, path) => {
    expectError(await confirm(body), status, code, path);
  });

  it('answers 404 RESOURCE_UNKNOWN for an account that is not the bank’s', async () => {
    const response = await confirm({ account: { bban: accountNumber().bban }, instructedAmount: { currency: 'NOK', amount: '1.00' } });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'RESOURCE_UNKNOWN' });
  });

  it('answers an account named in its own currency, and 404 RESOURCE_UNKNOWN for one named in a currency it is not held in', async () => {
    const inNok = await confirm({
      account: { bban: account.bban, currency: 'NOK' },
      instructedAmount: { currency: 'NOK', amount: '10.00' },
    });
    expect(inNok.status, inNok.text).toBe(200);
    expect(inNok.body).toEqual({ fundsAvailable: true });
    for (const reference of [
      { bban: account.bban, currency: 'EUR' },
      { iban: account.iban, currency: 'SEK' },
    ]) {
      const answer = await confirm({ account: reference, instructedAmount: { currency: 'NOK', amount: '10.00' } });
      expect({ status: answer.status, code: answer.body.code }, answer.text).toEqual({ status: 404, code: 'RESOURCE_UNKNOWN' });
    }
  });

  it.each([
    ['maskedPan', 'card accounts'],
    ['pan', 'card accounts'],
    ['msisdn', 'accounts by phone number'],
  ])('refuses a Berlin Group account reference by %s as a field the bank does not support, as every body does', async (member, what) => {
    const answer = await confirm({ account: { [member]: '525412******3241' }, instructedAmount: { currency: 'NOK', amount: '10.00' } });
    expectError(answer, 400, 'PARAMETER_NOT_SUPPORTED', `account.${member}`);
    expect(answer.body.tppMessages[0].text).toBe(
      `The bank does not offer this optional Berlin Group parameter: account.${member} is a Berlin Group field this bank does not support: ` +
        `funds confirmation is not offered for ${what}; name the account by bban or iban`,
    );
  });

  it.each([
    ['beside a bban', { bban: 'BBAN', pan: '4925000000007788' }, 'account.pan'],
    ['whatever its value', { maskedPan: 4925 }, 'account.maskedPan'],
    ['in another letter case', { MSISDN: '+4791234567' }, 'account.MSISDN'],
  ])('refuses a card or phone reference %s before anything else is read', async (_, reference, path) => {
    const named = JSON.parse(JSON.stringify(reference).replace('BBAN', account.bban)) as Record<string, unknown>;
    const answer = await confirm({ account: named, instructedAmount: { currency: 'NOK', amount: '10.00' } });
    expectError(answer, 400, 'PARAMETER_NOT_SUPPORTED', path);
    expect(answer.body.tppMessages[0].text).toContain('is a Berlin Group field this bank does not support');
  });

  it('refuses a TPP without PSP_IC with 401 ROLE_INVALID', async () => {
    expectError(
      await confirm({ account: { bban: account.bban }, instructedAmount: { currency: 'NOK', amount: '1.00' } }, server.client),
      401,
      'ROLE_INVALID',
    );
  });
});
