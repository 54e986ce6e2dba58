/**
 * buildApp hands the core-banking port to the `/v1` modules (here a probe route registered the way
 * later modules are): by default the sandbox bank, seeing what the mock-data API created for the
 * calling TPP and nothing of another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tppOf } from '../../src/http/request-context.js';
import { DIALECTS } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('the core-banking port in the app (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      extraV1Routes: async (v1, { coreBanking }) => {
        v1.get('/probe/accounts', async (request) => {
          const scope = { tppId: tppOf(request).id };
          const psuId = String(request.headers['psu-id']);
          const organisation = request.headers['psu-corporate-id'];
          const accounts = await coreBanking.accountsOf(scope, psuId, typeof organisation === 'string' ? organisation : undefined);
          return { accounts: accounts.map((account) => account.bban) };
        });
      },
    });
  });
  afterAll(() => server.close());

  it("is the sandbox bank over the calling TPP's mock data", async () => {
    const probe = (client = server.client, headers: Record<string, string> = { 'PSU-ID': '13039319955' }) =>
      client.get<any>('/v1/probe/accounts', { headers });
    expect((await probe()).body).toEqual({ accounts: [] });
    await server.client.post('/v1/sandbox/initialize', undefined);
    expect((await probe()).body).toEqual({ accounts: ['12341100028', '12341200022'] });
    expect((await probe(server.client, { 'PSU-ID': '12085592767', 'PSU-Corporate-ID': '998877660' })).body).toEqual({
      accounts: ['12344100010', '12344200023'],
    });
    const other = await server.newTpp('PSDNO-FSA-444444444');
    expect((await probe(other.client)).body).toEqual({ accounts: [] });
  });
});
