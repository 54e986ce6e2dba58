/**
 * A POST whose server stops mid-way never leaves its X-Request-ID stuck, and is never carried out
 * twice (docs/design.md §2): the claim is marked `applied` in the very transaction that carries the
 * request out, and its answer stored after.
 * - stopped before its transaction committed: past the lease (XS2A_REQUEST_LEASE_SECONDS) a retry
 *   takes the claim over and runs it once; should the first run wake up after all, its commit is
 *   fenced off and rolled back;
 * - stopped after the commit, before the answer: a retry past the lease is told 409
 *   REQUEST_ANSWER_LOST, never run again; within the lease, 409 REQUEST_IN_PROGRESS;
 * - committed, then refused: the refusal is kept and answered to the retry.
 * A POST that creates a resource and names its `answer` (as payment and basket creations do) has
 * its answer stored in the very transaction that creates the resource: stopped after that commit,
 * a retry gets the stored 201, never 409 REQUEST_ANSWER_LOST; a transaction on the way that is not
 * the creation leaves the claim free. A retry sent while the first run is still going waits
 * briefly for its answer.
 * The routes under test stand in for any POST: it holds at a gate the test opens, before or
 * after its transaction, so "the server stopped there" is reproducible in one process. The real
 * kill -9 is in test/http/idempotency-crash.process.test.ts. Runs on every dialect.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { CreatedResource } from '../../src/domain/created-resource.js';
import { AppError } from '../../src/errors/app-error.js';
import { createdForRedirect } from '../../src/http/idempotency/created-answer.js';
import { replyCreated } from '../../src/http/idempotency/idempotency.plugin.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import { DIALECTS } from '../support/databases.js';
import { expectError } from '../support/payments.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const EFFECTS = '/v1/test/effects';
const CREATIONS = '/v1/test/creations';
const LEASE_SECONDS = 5;

/** Promises the test resolves to let a held request go on. */
class Gates {
  private readonly open = new Map<string, () => void>();
  private readonly waiting = new Map<string, Promise<void>>();
  wait(name: string): Promise<void> {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.open.set(name, release);
    this.waiting.set(name, promise);
    return promise;
  }
  isHeld(name: string): boolean {
    return this.open.has(name);
  }
  release(name: string): void {
    this.open.get(name)?.();
    this.open.delete(name);
  }
}

describe.each(DIALECTS)('POSTs stopped mid-way (%s)', (dialect) => {
  let server: TestServer;
  let clock = Date.now();
  const gates = new Gates();

  async function effectRoutes(v1: FastifyInstance): Promise<void> {
    v1.post(
      '/test/effects',
      {
        schema: {
          body: Type.Object(
            {
              name: Type.String(),
              hold: Type.Optional(Type.Union([Type.Literal('before-commit'), Type.Literal('after-commit')])),
              refuse: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const body = request.body as { name: string; hold?: string; refuse?: boolean };
        if (body.hold === 'before-commit' && !gates.isHeld(body.name)) await gates.wait(body.name);
        await withTransaction(server.database.db, (trx) =>
          auditRepository.append(
            trx,
            { actor: { type: 'tpp', id: 'test' }, action: 'test.effect', resource: { type: 'test-effect', id: body.name } },
            new Date(clock).toISOString(),
          ),
        );
        if (body.hold === 'after-commit') await gates.wait(body.name);
        if (body.refuse) {
          throw new AppError('FORMAT_ERROR', { path: 'name', detail: { en: 'refused after the effect', nb: 'avvist etter virkningen' } });
        }
        return reply.code(201).send({ name: body.name, at: new Date().toISOString() });
      },
    );

    // Creates a resource the way payment and basket creations do: a transaction on the way that
    // is not the creation (a housekeeping write), then the one that creates it and is its value.
    v1.post(
      '/test/creations',
      {
        config: { answer: createdForRedirect },
        schema: {
          body: Type.Object(
            { name: Type.String(), hold: Type.Optional(Type.Union([Type.Literal('before-creation'), Type.Literal('after-commit')])) },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const body = request.body as { name: string; hold?: string };
        const at = new Date(clock).toISOString();
        const write = (action: string) => (trx: Parameters<typeof auditRepository.append>[0]) =>
          auditRepository.append(trx, { actor: { type: 'tpp', id: 'test' }, action, resource: { type: 'test-effect', id: body.name } }, at);
        await withTransaction(server.database.db, write('test.housekeeping'));
        if (body.hold === 'before-creation' && !gates.isHeld(body.name)) await gates.wait(body.name);
        const created = await withTransaction(server.database.db, async (trx) => {
          await write('test.effect')(trx);
          return new CreatedResource(`${server.config.publicUrl}${CREATIONS}/${body.name}`, {
            name: body.name,
            at: new Date().toISOString(),
          });
        });
        if (body.hold === 'after-commit') await gates.wait(body.name);
        return replyCreated(request, reply, created);
      },
    );
  }

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      now: () => new Date(clock),
      env: { XS2A_REQUEST_LEASE_SECONDS: String(LEASE_SECONDS) },
      extraV1Routes: effectRoutes,
    });
  });
  afterAll(() => server.close());

  const effectsOf = async (name: string) =>
    (
      await server.database.db
        .selectFrom('audit_event')
        .select('id')
        .where('resource_type', '=', 'test-effect')
        .where('resource_id', '=', name)
        .where('action', '=', 'test.effect')
        .execute()
    ).length;
  const post = (body: Record<string, unknown>, requestId: string, path = EFFECTS) =>
    server.client.post<any>(path, body, { headers: { 'x-request-id': requestId } });
  const until = async (check: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const pastTheLease = () => (clock += (LEASE_SECONDS + 1) * 1000);

  it('tells a retry within the lease that the request is in progress', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'before-commit' }, requestId);
    await until(() => gates.isHeld(name));
    expectError(await post({ name, hold: 'before-commit' }, requestId), 409, 'REQUEST_IN_PROGRESS', 'X-Request-ID');
    gates.release(name);
    expect((await first).status).toBe(201);
    expect(await effectsOf(name)).toBe(1);
  });

  it('stopped before its commit: a retry past the lease runs it once; the first run, waking up, is rolled back', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'before-commit' }, requestId);
    await until(() => gates.isHeld(name));
    pastTheLease();
    // The same body: the route does not hold a request whose gate is already taken.
    const retry = await post({ name, hold: 'before-commit' }, requestId);
    expect(retry.status, retry.text).toBe(201);
    expect(await effectsOf(name)).toBe(1);

    gates.release(name);
    const late = await first;
    expectError(late, 409, 'REQUEST_IN_PROGRESS', 'X-Request-ID');
    expect(await effectsOf(name)).toBe(1);
    const again = await post({ name, hold: 'before-commit' }, requestId);
    expect([again.status, again.body]).toEqual([201, retry.body]);
  });

  it('stopped after its commit, before its answer: a retry past the lease is 409 REQUEST_ANSWER_LOST, never run twice', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'after-commit' }, requestId);
    await until(async () => (await effectsOf(name)) === 1);
    expectError(await post({ name, hold: 'after-commit' }, requestId), 409, 'REQUEST_IN_PROGRESS', 'X-Request-ID');
    pastTheLease();
    const lost = await post({ name, hold: 'after-commit' }, requestId);
    expectError(lost, 409, 'REQUEST_ANSWER_LOST', 'X-Request-ID');
    expect(await effectsOf(name)).toBe(1);
    const row = await server.database.db
      .selectFrom('idempotency_record')
      .select(['state'])
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('applied');

    // Had it only been slow: its answer is stored when it comes, and replayed.
    gates.release(name);
    const answered = await first;
    expect(answered.status).toBe(201);
    const replayed = await post({ name, hold: 'after-commit' }, requestId);
    expect([replayed.status, replayed.body]).toEqual([201, answered.body]);
    expect(await effectsOf(name)).toBe(1);
  });

  it('keeps the refusal of a request that committed its effect, and answers it to the retry without running again', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const refused = await post({ name, refuse: true }, requestId);
    expectError(refused, 400, 'FORMAT_ERROR', 'name');
    const retried = await post({ name, refuse: true }, requestId);
    expect([retried.status, retried.body.tppMessages]).toEqual([400, refused.body.tppMessages]);
    expect(await effectsOf(name)).toBe(1);
  });

  it('frees the id of a request refused before any effect for the corrected request', async () => {
    const requestId = randomUUID();
    expectError(await post({ name: 1 }, requestId), 400, 'FORMAT_ERROR', 'name');
    const name = randomUUID();
    expect((await post({ name }, requestId)).status).toBe(201);
    expect(await effectsOf(name)).toBe(1);
  });

  it('waits for the answer of a run still going when a retry comes, and answers that', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'before-commit' }, requestId);
    await until(() => gates.isHeld(name));
    const retry = post({ name, hold: 'before-commit' }, requestId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    gates.release(name);
    const [answered, retried] = await Promise.all([first, retry]);
    expect(answered.status).toBe(201);
    expect([retried.status, retried.text]).toEqual([201, answered.text]);
    expect(await effectsOf(name)).toBe(1);
  });

  it('stores the answer of a creation with the resource: stopped after that commit, a retry gets the 201, not REQUEST_ANSWER_LOST', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'after-commit' }, requestId, CREATIONS);
    await until(async () => (await effectsOf(name)) === 1);
    pastTheLease();
    const retry = await post({ name, hold: 'after-commit' }, requestId, CREATIONS);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers['location']).toBe(`${server.config.publicUrl}${CREATIONS}/${name}`);
    expect(retry.headers['aspsp-sca-approach']).toBe('REDIRECT');
    const row = await server.database.db
      .selectFrom('idempotency_record')
      .select(['state'])
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('completed');

    gates.release(name);
    const answered = await first;
    expect([answered.status, answered.text]).toEqual([201, retry.text]);
    expect(await effectsOf(name)).toBe(1);
  });

  it('leaves the claim of a creation free after a transaction on the way: stopped before the creation, a retry runs it once', async () => {
    const name = randomUUID();
    const requestId = randomUUID();
    const first = post({ name, hold: 'before-creation' }, requestId, CREATIONS);
    await until(() => gates.isHeld(name));
    pastTheLease();
    const retry = await post({ name, hold: 'before-creation' }, requestId, CREATIONS);
    expect(retry.status, retry.text).toBe(201);
    expect(await effectsOf(name)).toBe(1);

    gates.release(name);
    expectError(await first, 409, 'REQUEST_IN_PROGRESS', 'X-Request-ID');
    expect(await effectsOf(name)).toBe(1);
    const again = await post({ name, hold: 'before-creation' }, requestId, CREATIONS);
    expect([again.status, again.text]).toEqual([201, retry.text]);
  });
});
