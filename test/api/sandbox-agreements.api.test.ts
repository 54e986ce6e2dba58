/**
 * `/v1/sandbox/agreements` and their engagements: only CORPORATE customers get an agreement (one
 * each), whose organisation number is generated or checked (MOD11); an engagement names a PSU of
 * this sandbox and an account the corporation owns (else a 400 that says so), REGISTER and/or VIEW
 * (non-empty, no repeats), and limits as non-negative amounts in the account's currency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOrganisationNumber } from '../../src/domain/organisation-number.js';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { createAccount, createCustomer, identityNumber } from '../support/sandbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sandbox agreements and engagements (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  const agreements = async () => (await server.client.get<any>('/v1/sandbox/agreements')).body.agreements;

  async function corporation() {
    const owner = await createCustomer(server.client, 'CORPORATE', 'Testfirma AS');
    const account = await createAccount(server.client, owner.customerNumber);
    const eur = await createAccount(server.client, owner.customerNumber, { currency: 'EUR' });
    return { owner, account, eur };
  }

  it('creates an agreement with a generated valid organisation number: 201, Location, links', async () => {
    const { owner } = await corporation();
    const response = await server.client.post<any>('/v1/sandbox/agreements', { owner: owner.customerNumber });
    expect(response.status).toBe(201);
    const { agreementId, organisationNumber } = response.body;
    expect(checkOrganisationNumber(organisationNumber).ok).toBe(true);
    const self = `${server.config.publicUrl}/v1/sandbox/agreements/${agreementId}`;
    expect(response.headers.location).toBe(self);
    expect(response.body).toEqual({
      agreementId,
      owner: owner.customerNumber,
      organisationNumber,
      name: 'Testfirma AS',
      engagements: [],
      _links: { self: { href: self, verbs: ['GET'] }, engagements: { href: `${self}/engagements`, verbs: ['POST'] } },
    });
    expect((await server.client.get<any>(`/v1/sandbox/agreements/${agreementId}`)).body).toEqual(response.body);
  });

  it('creates an agreement with a given organisation number and engagements in one call, as the real sandbox allows', async () => {
    const { owner, account } = await corporation();
    const psu = await createCustomer(server.client);
    const response = await server.client.post<any>('/v1/sandbox/agreements', {
      owner: owner.customerNumber,
      organisationNumber: '931234560',
      name: 'Testavtale 1',
      engagements: [
        {
          customer: psu.customerNumber,
          account: { iban: account.iban },
          roles: ['VIEW', 'REGISTER'],
          registerLimit: '25000',
          approvalLimit: '0',
        },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      organisationNumber: '931234560',
      name: 'Testavtale 1',
      engagements: [
        {
          customer: psu.customerNumber,
          account: { iban: account.iban, bban: account.bban },
          roles: ['REGISTER', 'VIEW'],
          registerLimit: '25000.00',
          approvalLimit: '0.00',
        },
      ],
    });
  });

  it("lists every agreement with its own engagements, in the order each agreement's GET shows them", async () => {
    const first = await corporation();
    const second = await corporation();
    const [anna, bjorn] = [await createCustomer(server.client), await createCustomer(server.client)];
    const engaged = (
      await server.client.post<any>('/v1/sandbox/agreements', {
        owner: first.owner.customerNumber,
        engagements: [
          { customer: bjorn.customerNumber, account: { bban: first.eur.bban }, roles: ['VIEW'] },
          { customer: anna.customerNumber, account: { bban: first.account.bban }, roles: ['VIEW', 'REGISTER'] },
          { customer: anna.customerNumber, account: { bban: first.eur.bban }, roles: ['VIEW'] },
        ],
      })
    ).body;
    const other = (
      await server.client.post<any>('/v1/sandbox/agreements', {
        owner: second.owner.customerNumber,
        engagements: [{ customer: bjorn.customerNumber, account: { bban: second.account.bban }, roles: ['REGISTER'] }],
      })
    ).body;
    const bare = (await server.client.post<any>('/v1/sandbox/agreements', { owner: (await corporation()).owner.customerNumber })).body;

    const listed = new Map<string, any>((await agreements()).map((agreement: any) => [agreement.agreementId, agreement]));
    for (const { agreementId } of [engaged, other, bare]) {
      expect(listed.get(agreementId)).toEqual((await server.client.get<any>(`/v1/sandbox/agreements/${agreementId}`)).body);
    }
    expect(listed.get(engaged.agreementId).engagements).toHaveLength(3);
    expect(listed.get(other.agreementId).engagements).toMatchObject([{ customer: bjorn.customerNumber, roles: ['REGISTER'] }]);
    expect(listed.get(bare.agreementId).engagements).toEqual([]);
  });

  it('adds an engagement: 201, Location, _links.self; limits are optional and kept in the account currency', async () => {
    const { owner, eur } = await corporation();
    const psu = await createCustomer(server.client);
    const agreement = (await server.client.post<any>('/v1/sandbox/agreements', { owner: owner.customerNumber })).body;
    const response = await server.client.post<any>(`/v1/sandbox/agreements/${agreement.agreementId}/engagements`, {
      customer: psu.customerNumber,
      account: { bban: eur.bban },
      roles: ['REGISTER'],
      approvalLimit: '1000.5',
    });
    expect(response.status).toBe(201);
    const self = `${server.config.publicUrl}/v1/sandbox/agreements/${agreement.agreementId}/engagements/${response.body.engagementId}`;
    expect(response.headers.location).toBe(self);
    expect(response.body).toEqual({
      engagementId: response.body.engagementId,
      customer: psu.customerNumber,
      account: { iban: eur.iban, bban: eur.bban },
      roles: ['REGISTER'],
      approvalLimit: '1000.50',
      _links: { self: { href: self, verbs: ['GET'] } },
    });
    expect((await server.client.get<any>(self.slice(server.config.publicUrl.length))).body).toEqual(response.body);
    expect((await server.client.get<any>(`/v1/sandbox/agreements/${agreement.agreementId}`)).body.engagements).toEqual([response.body]);
  });

  it.each([
    [
      'a PRIVATE owner',
      async () => ({ owner: (await createCustomer(server.client)).customerNumber }),
      'owner',
      'agreements are for CORPORATE customers only',
    ],
    ['an unknown owner', async () => ({ owner: identityNumber() }), 'owner', 'your sandbox does not have'],
    [
      'an organisation number with a wrong check digit',
      async () => ({ owner: (await corporation()).owner.customerNumber, organisationNumber: '931234561' }),
      'organisationNumber',
      'check digit (digit 9) is wrong',
    ],
    [
      'an engagement on another customer account',
      async () => {
        const { owner } = await corporation();
        const psu = await createCustomer(server.client);
        const own = await createAccount(server.client, psu.customerNumber);
        return {
          owner: owner.customerNumber,
          engagements: [{ customer: psu.customerNumber, account: { bban: own.bban }, roles: ['VIEW'] }],
        };
      },
      'engagements[0].account',
      "not by the agreement's corporation",
    ],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_, body, field, text) => {
    const request = await body();
    const before = await agreements();
    const response = await server.client.post<any>('/v1/sandbox/agreements', request);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: field }] });
    expect(response.body.message).toContain(text);
    expectBerlinGroupSchema('Error400_NG_AIS', response.body);
    expect(await agreements()).toEqual(before);
  });

  it('refuses a second agreement for a corporation, or a taken organisation number, with 409', async () => {
    const { owner } = await corporation();
    await server.client.post('/v1/sandbox/agreements', { owner: owner.customerNumber, organisationNumber: '923456783' });
    const again = await server.client.post<any>('/v1/sandbox/agreements', { owner: owner.customerNumber });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'RESOURCE_EXISTS', tppMessages: [{ path: 'owner' }] });
    expectBerlinGroupSchema('Error409_NG_AIS', again.body);
    const another = await corporation();
    const taken = await server.client.post<any>('/v1/sandbox/agreements', {
      owner: another.owner.customerNumber,
      organisationNumber: '923456783',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.tppMessages[0].path).toBe('organisationNumber');
  });

  describe('engagement refusals', () => {
    let agreementId: string;
    let account: { bban: string; iban: string };
    let psu: { customerNumber: string };
    beforeAll(async () => {
      const corp = await corporation();
      account = corp.account;
      psu = await createCustomer(server.client);
      agreementId = (await server.client.post<any>('/v1/sandbox/agreements', { owner: corp.owner.customerNumber })).body.agreementId;
    });

    const engagement = (extra: Record<string, unknown> = {}) => ({
      customer: psu.customerNumber,
      account: { bban: account.bban },
      roles: ['REGISTER', 'VIEW'],
      ...extra,
    });

    it.each([
      ['no roles', () => engagement({ roles: [] }), 'roles', ''],
      ['a repeated role', () => engagement({ roles: ['VIEW', 'VIEW'] }), 'roles', 'duplicate'],
      ['an unknown role', () => engagement({ roles: ['APPROVE'] }), 'roles[0]', ''],
      ['a negative limit', () => engagement({ registerLimit: '-1.00' }), 'registerLimit', 'must not be negative'],
      ['a limit with too many decimals', () => engagement({ approvalLimit: '1.001' }), 'approvalLimit', 'at most 2 decimals'],
      ['a numeric limit', () => engagement({ registerLimit: 0 }), 'registerLimit', 'must be string'],
      ['an unknown PSU', () => engagement({ customer: identityNumber() }), 'customer', 'your sandbox does not have'],
      ['an unknown account', () => engagement({ account: { bban: '12345678903' } }), 'account', 'your sandbox does not have'],
      ['an account number with a wrong check digit', () => engagement({ account: { bban: '12345678904' } }), 'account.bban', 'check digit'],
      [
        'an IBAN and BBAN that disagree',
        () => engagement({ account: { bban: account.bban, iban: 'NO9386011117947' } }),
        'account.iban',
        'but bban names',
      ],
      ['an empty account', () => engagement({ account: {} }), 'account', ''],
    ])('refuses %s with 400 naming the field', async (_, body, field, text) => {
      const before = (await server.client.get<any>(`/v1/sandbox/agreements/${agreementId}`)).body;
      const response = await server.client.post<any>(`/v1/sandbox/agreements/${agreementId}/engagements`, body());
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'FORMAT_ERROR', tppMessages: [{ path: field }] });
      expect(response.body.message).toContain(text);
      expect((await server.client.get<any>(`/v1/sandbox/agreements/${agreementId}`)).body).toEqual(before);
    });

    it('refuses an account the corporation does not own with a message that says so', async () => {
      const own = await createAccount(server.client, psu.customerNumber);
      const response = await server.client.post<any>(
        `/v1/sandbox/agreements/${agreementId}/engagements`,
        engagement({ account: { iban: own.iban } }),
      );
      expect(response.status).toBe(400);
      expect(response.body.tppMessages[0].path).toBe('account');
      expect(response.body.message).toContain(`is owned by customer ${psu.customerNumber}`);
      expect(response.body.message).toContain("an engagement gives access to the corporation's own accounts only");
    });

    it('refuses the same PSU on the same account twice with 409', async () => {
      expect((await server.client.post(`/v1/sandbox/agreements/${agreementId}/engagements`, engagement())).status).toBe(201);
      const again = await server.client.post<any>(`/v1/sandbox/agreements/${agreementId}/engagements`, engagement({ roles: ['VIEW'] }));
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('RESOURCE_EXISTS');
    });

    it('answers an unknown agreement or engagement with 404', async () => {
      const unknown = await server.client.post<any>('/v1/sandbox/agreements/nope/engagements', engagement());
      expect(unknown.status).toBe(404);
      expect(unknown.body.tppMessages[0].path).toBe('mockAgreementId');
      const missing = await server.client.get<any>(`/v1/sandbox/agreements/${agreementId}/engagements/nope`);
      expect(missing.status).toBe(404);
      expect(missing.body.tppMessages[0].path).toBe('engagementId');
    });
  });
});
