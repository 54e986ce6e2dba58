import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { DIALECTS } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('TPP dialogue: contact information (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('is unknown until registered', async () => {
    const response = await server.client.get('/v1/tpps/NO-FSA-123456789/contact-information');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 404, code: 'RESOURCE_UNKNOWN', system: 'nordic-xs2a' });
    expectBerlinGroupSchema('Error404_NG_PIS', response.body);
  });

  it('stores one address per TPP, reachable with or without the PSD prefix', async () => {
    const put = await server.client.put('/v1/tpps/NO-FSA-123456789/contact-information', { email: 'psd2@tpp.example' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ email: 'psd2@tpp.example' });
    const again = await server.client.put('/v1/tpps/PSDNO-FSA-123456789/contact-information', { email: 'ops@tpp.example' });
    expect(again.status).toBe(200);
    const get = await server.client.get('/v1/tpps/PSDNO-FSA-123456789/contact-information');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({
      email: 'ops@tpp.example',
      _links: { self: { href: `${server.config.publicUrl}/v1/tpps/PSDNO-FSA-123456789/contact-information`, verbs: ['GET', 'PUT'] } },
    });
    const rows = await server.database.db.selectFrom('tpp_contact').select(['tpp_id', 'email']).execute();
    expect(rows).toEqual([{ tpp_id: 'PSDNO-FSA-123456789', email: 'ops@tpp.example' }]);
  });

  it('records the TPP on first contact and audits the change', async () => {
    const tpp = await server.database.db
      .selectFrom('tpp')
      .select(['id', 'name', 'roles', 'nca_id'])
      .where('id', '=', 'PSDNO-FSA-123456789')
      .executeTakeFirst();
    expect(tpp).toEqual({ id: 'PSDNO-FSA-123456789', name: 'PSDNO-FSA-123456789 AS', roles: 'PSP_PI,PSP_AI', nca_id: 'NO-FSA' });
    const events = await server.database.db.selectFrom('audit_event').select(['action', 'actor_id']).execute();
    expect(events).toContainEqual({ action: 'tpp.contact-information.saved', actor_id: 'PSDNO-FSA-123456789' });
  });

  it("answers another TPP's id as unknown, and never shows its address", async () => {
    const other = await server.newTpp('PSDNO-FSA-987654321');
    await other.client.put('/v1/tpps/NO-FSA-987654321/contact-information', { email: 'other@tpp.example' });
    const peek = await server.client.get('/v1/tpps/NO-FSA-987654321/contact-information');
    expect(peek.status).toBe(404);
    const write = await server.client.put('/v1/tpps/NO-FSA-987654321/contact-information', { email: 'evil@tpp.example' });
    expect(write.status).toBe(404);
    const own = await other.client.get('/v1/tpps/NO-FSA-987654321/contact-information');
    expect(own.body).toMatchObject({ email: 'other@tpp.example' });
  });

  it.each([
    [{ email: 'not-an-address' }, 'email'],
    [{ email: 42 }, 'email'],
    [{}, 'email'],
    [{ email: 'a@b.example', extra: 1 }, 'extra'],
    [[], 'body'],
  ])('refuses %j with 400 FORMAT_ERROR naming %s, and changes nothing', async (body, path) => {
    const before = await server.client.get('/v1/tpps/NO-FSA-123456789/contact-information');
    const response = await server.client.put('/v1/tpps/NO-FSA-123456789/contact-information', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 400,
      code: 'FORMAT_ERROR',
      tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', path }],
    });
    expectBerlinGroupSchema('Error400_NG_PIS', response.body);
    const after = await server.client.get('/v1/tpps/NO-FSA-123456789/contact-information');
    expect(after.body).toEqual(before.body);
  });
});
