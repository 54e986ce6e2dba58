/**
 * The accept-fix effects on account information over HTTP (docs/design.md §2b): `longer-name`
 * (name cut at 35, or 70 with it) and `cash-account-type-iso` (the bank's product word, or the
 * ISO code with it), asked for with `accept-fix` or `x-accept-fix`, and the default that every TPP
 * gets from the day three months after the fix's release, by the TPP's sandbox clock.
 *
 * Every default date has passed, and the sandbox clock API only moves a clock ahead of the real
 * time, so the tests put this TPP's clock before the default day by writing its stored offset (as
 * the clock API does when it moves it ahead), and go back with the API's `reset`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxClockRepository } from '../../src/modules/clock/sandbox-clock.repository.js';
import { approvedConsent, consentBody } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { createAccount, createCustomer } from '../support/sandbox.js';
import { walk } from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A read with the PSU present. */
const PSU_PRESENT = { 'psu-ip-address': '192.0.2.10' };

const NAME = 'Felleskonto for hytta på Hvaler, vedlikehold og strøm, med brygge';
const CARD_NAME = 'Kari Nordmann Mastercard Gold med reiseforsikring';

describe.each(DIALECTS)('accept-fix on account information (%s)', (dialect) => {
  let server: TestServer;
  let consentId: string;
  let accountPath: string;
  let cardPath: string;

  /** Puts this TPP's sandbox clock at `dateTime`, behind the real time if need be. */
  async function clockAt(dateTime: string): Promise<void> {
    await sandboxClockRepository.set(
      server.database.db,
      'PSDNO-FSA-123456789',
      Date.parse(dateTime) - Date.now(),
      new Date().toISOString(),
    );
    const clock = await server.client.get<any>('/v1/sandbox/clock');
    expect(clock.body.today).toBe(dateTime.slice(0, 10));
  }

  // The PSU takes part (PSU-IP-Address): these reads are not counted against frequencyPerDay.
  async function read(headers: Record<string, string> = {}) {
    const [account, card] = await Promise.all(
      [accountPath, cardPath].map((path) =>
        server.client.get<any>(path, { headers: { 'consent-id': consentId, ...PSU_PRESENT, ...headers } }),
      ),
    );
    expect(account!.status, account!.text).toBe(200);
    expect(card!.status, card!.text).toBe(200);
    return {
      name: account!.body.account.name,
      cashAccountType: account!.body.account.cashAccountType,
      cardName: card!.body.cardAccount.name,
    };
  }

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    const psu = await createCustomer(server.client, 'PRIVATE', 'Kari Nordmann');
    const account = await createAccount(server.client, psu.customerNumber, { name: NAME, product: 'Brukskonto', cashAccountType: 'CACC' });
    const card = await server.client.post<any>('/v1/sandbox/card-accounts', { customerNumber: psu.customerNumber, name: CARD_NAME });
    expect(card.status, card.text).toBe(201);
    consentId = await approvedConsent(
      server.client,
      consentBody({ accounts: [{ bban: account.bban }, { maskedPan: card.body.maskedPan }] }),
      { 'psu-id': psu.customerNumber },
      (link) => walk(link),
    );
    const accounts = await server.client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
    const cards = await server.client.get<any>('/v1/card-accounts', { headers: { 'consent-id': consentId } });
    accountPath = `/v1/accounts/${accounts.body.accounts[0].resourceId}`;
    cardPath = `/v1/card-accounts/${cards.body.cardAccounts[0].resourceId}`;
  });
  afterAll(() => server.close());

  it('before the default day: the old forms, and each fix for the TPP that asks, in either header spelling', async () => {
    await clockAt('2024-09-04T23:30:00+02:00');
    expect(await read()).toEqual({ name: NAME.slice(0, 35), cashAccountType: 'BRUKSKONTO', cardName: CARD_NAME.slice(0, 35) });
    expect(await read({ 'accept-fix': 'longer-name' })).toEqual({ name: NAME, cashAccountType: 'BRUKSKONTO', cardName: CARD_NAME });
    expect(await read({ 'x-accept-fix': '"longer-names, cash-account-type-iso"' })).toEqual({
      name: NAME,
      cashAccountType: 'CACC',
      cardName: CARD_NAME,
    });
    expect(await read({ 'accept-fix': 'cash-account-type-iso', 'x-accept-fix': 'longer-name' })).toEqual({
      name: NAME,
      cashAccountType: 'CACC',
      cardName: CARD_NAME,
    });
  });

  it('from the default day on: the fixed forms for everyone', async () => {
    await clockAt('2024-09-05T00:30:00+02:00');
    expect(await read()).toEqual({ name: NAME, cashAccountType: 'CACC', cardName: CARD_NAME });
    const reset = await server.client.post<any>('/v1/sandbox/clock', { reset: true });
    expect(reset.status, reset.text).toBe(200);
    expect(await read()).toEqual({ name: NAME, cashAccountType: 'CACC', cardName: CARD_NAME });
  });

  it('refuses an unknown fix with 400 naming the known ones', async () => {
    const response = await server.client.get<any>(accountPath, { headers: { 'consent-id': consentId, 'x-accept-fix': 'shorter-name' } });
    expect(response.status).toBe(400);
    expect(response.body.tppMessages[0]).toMatchObject({ code: 'FORMAT_ERROR', path: 'X-Accept-Fix' });
    expect(response.body.message).toContain('cash-account-type-iso');
  });

  it('shows the fixes table in the API docs', async () => {
    const document = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { info: { description: string } };
    expect(document.info.description).toContain('| `longer-name` or `longer-names` |');
    expect(document.info.description).toContain('2024-09-05');
  });
});
