/**
 * Schema refusals say what is allowed (src/http/validation-errors.ts), through the real server with
 * signed requests: the values of a union of literals or an enum, the value of a const, and a
 * pattern in words rather than as the expression.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { consentBody } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, initiate, NCBCT, NDCT, ndctBody, periodicBody, privatePsu, singleBody, type Psu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FORMAT_ERROR = 'The request is not well formed: ';

describe.each(DIALECTS)('validation texts (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  async function refusal(response: Promise<{ status: number; body: any; text: string }>, path: string): Promise<string> {
    const answer = await response;
    expectError(answer as never, 400, 'FORMAT_ERROR', path);
    expectBerlinGroupSchema('Error400_NG_PIS', { tppMessages: answer.body.tppMessages });
    expect(answer.body.message).toBe(answer.body.tppMessages[0].text);
    return answer.body.message as string;
  }

  it('a periodic executionRule outside its values lists them', async () => {
    const text = await refusal(
      initiate(server.client, 'periodic-payments', NDCT, periodicBody(psu.account, { executionRule: 'Following' }), {
        headers: psu.headers,
      }),
      'executionRule',
    );
    expect(text).toBe(`${FORMAT_ERROR}executionRule must be one of "following", "preceding" or "preceeding"`);
  });

  it('a periodic frequency outside the Berlin Group codes lists them', async () => {
    const text = await refusal(
      initiate(server.client, 'periodic-payments', NDCT, periodicBody(psu.account, { frequency: 'monthly' }), { headers: psu.headers }),
      'frequency',
    );
    expect(text).toBe(
      `${FORMAT_ERROR}frequency must be one of "Daily", "Weekly", "EveryTwoWeeks", "Monthly", "EveryTwoMonths", "Quarterly", "SemiAnnual", "Annual" or "MonthlyVariable"`,
    );
  });

  it('a consent with allPsd2 "all" names the two values it takes', async () => {
    const text = await refusal(server.client.post<any>('/v1/consents', consentBody({ allPsd2: 'all' })), 'access.allPsd2');
    expect(text).toBe(`${FORMAT_ERROR}access.allPsd2 must be one of "allAccounts" or "allAccountsWithOwnerName"`);
  });

  it('a chargeBearer outside the ISO codes lists them', async () => {
    const text = await refusal(
      initiate(server.client, 'payments', NCBCT, singleBody(NCBCT, psu.account, { chargeBearer: 'OUR' }), { headers: psu.headers }),
      'chargeBearer',
    );
    expect(text).toBe(`${FORMAT_ERROR}chargeBearer must be one of "DEBT", "CRED", "SHAR" or "SLEV"`);
  });

  it.each([['   '], ['\t'], ['Kari\nNordmann']])('a creditorName %j says in words what a name must be', async (creditorName) => {
    const text = await refusal(
      initiate(server.client, 'payments', NDCT, ndctBody(psu.account, { creditorName }), { headers: psu.headers }),
      'creditorName',
    );
    expect(text).toBe(
      `${FORMAT_ERROR}creditorName must contain a visible character and no control characters (such as a tab or a line break)`,
    );
  });

  it('an empty creditorName is "must not be empty"', async () => {
    const text = await refusal(
      initiate(server.client, 'payments', NDCT, ndctBody(psu.account, { creditorName: '' }), { headers: psu.headers }),
      'creditorName',
    );
    expect(text).toBe(`${FORMAT_ERROR}creditorName must not be empty`);
  });
});
