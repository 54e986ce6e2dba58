/**
 * The sandbox certificate desk binds an organisation id to the first public key it certifies
 * (docs/design.md §5): nobody can obtain a certificate for a TPP that already exists and read its
 * payments and customers. Another key for a bound id needs the request signed with the id's
 * current certificate (key rotation); otherwise 409 RESOURCE_EXISTS and nothing is issued.
 * Runs on every dialect.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromPem } from '../../src/client/tpp-credentials.js';
import { TppClient, type TppResponse } from '../../src/client/tpp-client.js';
import { readTppCertificate, tppIdentityOf } from '../../src/security/certificates/tpp-certificate.js';
import { DIALECTS } from '../support/databases.js';
import { expectError, privatePsu } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const DESK = '/sandbox/tpp-certificates';

function rsaKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

describe.each(DIALECTS)('sandbox certificate desk binds an id to its key (%s)', (dialect) => {
  let server: TestServer;
  let next = 1;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  const newId = () => `PSDNO-FSA-8${String(next++).padStart(8, '0')}`;
  const order = (organizationIdentifier: string, keys: { publicKeyPem: string }) => ({
    publicKey: keys.publicKeyPem,
    organizationIdentifier,
    name: 'Desk AS',
    roles: ['PSP_PI', 'PSP_AI'],
  });
  /** Asks the desk; signed with `signer`'s credentials when given (a rotation), else unsigned. */
  const ask = (body: unknown, signer?: TppClient): Promise<TppResponse<any>> =>
    signer ? signer.post<any>(DESK, body) : server.anonymous.post<any>(DESK, body);
  const clientOf = (keys: { privateKeyPem: string }, issued: TppResponse<any>) =>
    new TppClient(server.baseUrl, credentialsFromPem(keys.privateKeyPem, issued.body.certificate));
  const bindingOf = (id: string) =>
    server.database.db.selectFrom('sandbox_key_binding').selectAll().where('organization_identifier', '=', id).executeTakeFirst();

  it('writes the domains asked for into the subjectAltName (where status notifications may go); a malformed one is 400', async () => {
    const keys = rsaKeys();
    const issued = await ask({ ...order(newId(), keys), domains: ['localhost', '127.0.0.1', '*.tpp.example'] });
    expect(issued.status, issued.text).toBe(201);
    const certificate = readTppCertificate(Buffer.from(issued.body.certificate.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    expect(certificate?.domains).toEqual(['localhost', '127.0.0.1', '*.tpp.example']);
    expect(tppIdentityOf(certificate!).domains).toEqual(['localhost', '127.0.0.1', '*.tpp.example']);
    for (const domain of ['tpp example', 'https://tpp.example', '-tpp.example', '']) {
      const refused = await ask({ ...order(newId(), rsaKeys()), domains: [domain] });
      expect(refused.status, domain).toBe(400);
    }
    // Without domains, none: the certificate secures no host.
    const plain = await ask(order(newId(), rsaKeys()));
    const plainCertificate = readTppCertificate(Buffer.from(plain.body.certificate.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    expect(plainCertificate?.domains).toEqual([]);
  });

  it('refuses another key for a bound id (409), issues nothing, and the impostor reads nothing of the TPP', async () => {
    const id = newId();
    const owner = rsaKeys();
    const issued = await ask(order(id, owner));
    expect(issued.status).toBe(201);
    const victim = clientOf(owner, issued);
    await privatePsu(victim);
    const before = await bindingOf(id);

    const impostor = rsaKeys();
    const refused = await ask(order(id, impostor));
    expectError(refused, 409, 'RESOURCE_EXISTS', 'organizationIdentifier');
    expect(refused.body.tppMessages[0].text).toContain('sign this request with the current certificate');
    expect(refused.body).not.toHaveProperty('certificate');
    expect(await bindingOf(id)).toEqual(before);
    // Without a certificate the impostor cannot sign at all.
    expect((await server.anonymous.get<any>('/v1/sandbox/customers')).status).toBe(401);
  });

  it('certifies the same key again (only its holder can use the new certificate)', async () => {
    const id = newId();
    const keys = rsaKeys();
    expect((await ask(order(id, keys))).status).toBe(201);
    const again = await ask({ ...order(id, keys), roles: ['PSP_AI'] });
    expect(again.status).toBe(201);
    expect((await clientOf(keys, again).get('/v1/sandbox/customers')).status).toBe(200);
  });

  it('rotates to a new key when the request is signed with the current certificate; the old key then cannot', async () => {
    const id = newId();
    const first = rsaKeys();
    const firstIssued = await ask(order(id, first));
    const firstClient = clientOf(first, firstIssued);
    const created = await privatePsu(firstClient);

    const second = rsaKeys();
    const rotated = await ask(order(id, second), firstClient);
    expect(rotated.status, rotated.text).toBe(201);
    const secondClient = clientOf(second, rotated);
    // The same TPP: its data is there under the new key.
    const customers = await secondClient.get<any>('/v1/sandbox/customers');
    expect(JSON.stringify(customers.body)).toContain(created.customerNumber);
    expect((await bindingOf(id))?.rotated_at).toEqual(expect.any(String));

    // The first key no longer proves the id.
    expectError(await ask(order(id, rsaKeys()), firstClient), 409, 'RESOURCE_EXISTS', 'organizationIdentifier');
    expect((await ask(order(id, rsaKeys()), secondClient)).status).toBe(201);
  });

  it("refuses a rotation signed by another TPP's certificate", async () => {
    const id = newId();
    expect((await ask(order(id, rsaKeys()))).status).toBe(201);
    const otherKeys = rsaKeys();
    const other = clientOf(otherKeys, await ask(order(newId(), otherKeys)));
    expectError(await ask(order(id, rsaKeys()), other), 409, 'RESOURCE_EXISTS', 'organizationIdentifier');
  });

  it('refuses a rotation whose signature does not verify (401)', async () => {
    const id = newId();
    const keys = rsaKeys();
    const issued = await ask(order(id, keys));
    const forged = new TppClient(server.baseUrl, { ...credentialsFromPem(rsaKeys().privateKeyPem, issued.body.certificate) });
    expect((await ask(order(id, rsaKeys()), forged)).status).toBe(401);
  });

  it('treats an id a TPP already used with a certificate from elsewhere as taken', async () => {
    const id = newId();
    const { client } = await server.newTpp(id);
    expect((await client.get('/v1/sandbox/customers')).status).toBe(200);
    expectError(await ask(order(id, rsaKeys())), 409, 'RESOURCE_EXISTS', 'organizationIdentifier');
    // Its own certificate proves it, and binds the new key.
    expect((await ask(order(id, rsaKeys()), client)).status).toBe(201);
  });

  it('binds a new id once when two keys ask at the same time', async () => {
    const id = newId();
    const answers = await Promise.all([ask(order(id, rsaKeys())), ask(order(id, rsaKeys()))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});
