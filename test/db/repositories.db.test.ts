/**
 * Storage (docs/design.md §7, §8): one code path for SQLite and PostgreSQL. Every test runs on each
 * dialect of DIALECTS (PostgreSQL when TEST_POSTGRES_URL is set):
 * - the versioned migrations create the tpp, tpp_contact, idempotency_record and audit_event
 *   tables, and running migrateToLatest again changes nothing;
 * - tppRepository: recordContact inserts then refreshes (first_seen_at kept), saveContact keeps
 *   one row per TPP, findContact, contacts only for known TPPs;
 * - auditRepository: append then listForResource in order, details JSON round trip;
 * - idempotencyRepository: reserved / in-progress / replay / conflict, release, complete once,
 *   and exactly one winner among concurrent reserves of one key;
 * - timestamps come back as the ISO strings that were written, on both dialects.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import { idempotencyRepository, type StoredResponse } from '../../src/http/idempotency/idempotency.repository.js';
import { tppRepository } from '../../src/modules/tpps/tpp.repository.js';
import type { TppIdentity } from '../../src/security/tpp-identity.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const T0 = '2026-11-20T08:00:00.000Z';
const T1 = '2026-11-21T09:30:15.250Z';
const T2 = '2026-12-01T23:59:59.999Z';

function tpp(id: string, overrides: Partial<TppIdentity> = {}): TppIdentity {
  return {
    id,
    name: `${id} AS`,
    roles: ['PSP_PI', 'PSP_AI'],
    ncaId: 'NO-FSA',
    certificateFingerprint: 'a'.repeat(64),
    certificateSerial: '3E1C1DAD0A1B2C3D',
    certificateIssuer: 'C=NO, O=Test QTSP AS, CN=Test PSD2 QSealC CA',
    publicKeyFingerprint: 'ab'.repeat(32),
    ...overrides,
  };
}

describe.each(DIALECTS)('storage on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  describe('migrations', () => {
    it('create the tables of the foundation migration', async () => {
      // On PostgreSQL other test files' schemas are in the same database, and may be dropped
      // while this runs: read the columns of ours (the search path) from the catalogue alone.
      const rows =
        dialect === 'postgres'
          ? (
              await sql<{ table: string; column: string }>`
                select c.relname as table, a.attname as column
                from pg_catalog.pg_attribute a
                join pg_catalog.pg_class c on c.oid = a.attrelid
                join pg_catalog.pg_namespace n on n.oid = c.relnamespace
                where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`.execute(database.db)
            ).rows
          : (await database.db.introspection.getTables()).flatMap((table) =>
              table.columns.map((column) => ({ table: table.name, column: column.name })),
            );
      const ours = [...new Set(rows.map((row) => row.table))];
      expect(ours).toEqual(expect.arrayContaining(['tpp', 'tpp_contact', 'idempotency_record', 'audit_event']));
      const columns = (name: string) => rows.filter((row) => row.table === name).map((row) => row.column);
      expect(columns('tpp')).toEqual(
        expect.arrayContaining(['id', 'name', 'nca_id', 'roles', 'certificate_fingerprint', 'first_seen_at', 'last_certificate_at']),
      );
      expect(columns('tpp_contact')).toEqual(expect.arrayContaining(['tpp_id', 'email', 'updated_at', 'updated_by_request_id']));
      expect(columns('idempotency_record')).toEqual(
        expect.arrayContaining(['tpp_id', 'request_id', 'request_hash', 'state', 'response_body']),
      );
      expect(columns('audit_event')).toEqual(
        expect.arrayContaining(['id', 'occurred_at', 'actor_type', 'action', 'resource_id', 'details']),
      );
    });

    it('record the applied version, and a second migrateToLatest applies nothing', async () => {
      const applied = async () =>
        (await database.db
          .selectFrom('kysely_migration' as never)
          .select('name' as never)
          .execute()) as { name: string }[];
      expect(await applied()).toEqual(MIGRATION_NAMES.map((name) => ({ name })));
      const again = await migrateToLatest(database.db);
      expect(again.results).toEqual([]);
      expect(await applied()).toEqual(MIGRATION_NAMES.map((name) => ({ name })));
    });
  });

  describe('tppRepository', () => {
    it('records a TPP on first contact', async () => {
      await tppRepository.recordContact(database.db, tpp('PSDNO-FSA-100000001'), T0);
      expect(await tppRepository.findById(database.db, 'PSDNO-FSA-100000001')).toEqual({
        id: 'PSDNO-FSA-100000001',
        name: 'PSDNO-FSA-100000001 AS',
        nca_id: 'NO-FSA',
        roles: 'PSP_PI,PSP_AI',
        certificate_fingerprint: 'a'.repeat(64),
        first_seen_at: T0,
        last_certificate_at: T0,
      });
    });

    it('refreshes name, roles and certificate on a later contact, keeping first_seen_at', async () => {
      const id = 'PSDNO-FSA-100000002';
      await tppRepository.recordContact(database.db, tpp(id), T0);
      await tppRepository.recordContact(
        database.db,
        tpp(id, { name: 'Renamed TPP AS', roles: ['PSP_AI'], certificateFingerprint: 'b'.repeat(64), certificateSerial: '01' }),
        T1,
      );
      expect(await tppRepository.findById(database.db, id)).toEqual({
        id,
        name: 'Renamed TPP AS',
        nca_id: 'NO-FSA',
        roles: 'PSP_AI',
        certificate_fingerprint: 'b'.repeat(64),
        first_seen_at: T0,
        last_certificate_at: T1,
      });
      const serial = await database.db.selectFrom('tpp').select('certificate_serial').where('id', '=', id).executeTakeFirst();
      expect(serial).toEqual({ certificate_serial: '01' });
      expect(await database.db.selectFrom('tpp').select('id').where('id', '=', id).execute()).toHaveLength(1);
    });

    it('takes concurrent first contacts of one TPP as one row', async () => {
      const id = 'PSDNO-FSA-100000003';
      await Promise.all(Array.from({ length: 10 }, () => tppRepository.recordContact(database.db, tpp(id), T0)));
      expect(await database.db.selectFrom('tpp').select('id').where('id', '=', id).execute()).toEqual([{ id }]);
    });

    it('finds nothing for an unknown TPP', async () => {
      expect(await tppRepository.findById(database.db, 'PSDNO-FSA-999999999')).toBeUndefined();
      expect(await tppRepository.findContact(database.db, 'PSDNO-FSA-999999999')).toBeUndefined();
    });

    it('saves one contact address per TPP, the last one winning', async () => {
      const id = 'PSDNO-FSA-100000004';
      await tppRepository.recordContact(database.db, tpp(id), T0);
      await tppRepository.saveContact(database.db, id, 'psd2@tpp.example', T0, 'request-1');
      expect(await tppRepository.findContact(database.db, id)).toEqual({ email: 'psd2@tpp.example', updatedAt: T0 });
      await tppRepository.saveContact(database.db, id, 'ops@tpp.example', T1, 'request-2');
      expect(await tppRepository.findContact(database.db, id)).toEqual({ email: 'ops@tpp.example', updatedAt: T1 });
      const rows = await database.db.selectFrom('tpp_contact').selectAll().where('tpp_id', '=', id).execute();
      expect(rows).toEqual([{ tpp_id: id, email: 'ops@tpp.example', updated_at: T1, updated_by_request_id: 'request-2' }]);
    });

    it("keeps each TPP's contact apart", async () => {
      await tppRepository.recordContact(database.db, tpp('PSDNO-FSA-100000005'), T0);
      await tppRepository.recordContact(database.db, tpp('PSDNO-FSA-100000006'), T0);
      await tppRepository.saveContact(database.db, 'PSDNO-FSA-100000005', 'five@tpp.example', T0, 'r5');
      await tppRepository.saveContact(database.db, 'PSDNO-FSA-100000006', 'six@tpp.example', T1, 'r6');
      expect(await tppRepository.findContact(database.db, 'PSDNO-FSA-100000005')).toEqual({ email: 'five@tpp.example', updatedAt: T0 });
      expect(await tppRepository.findContact(database.db, 'PSDNO-FSA-100000006')).toEqual({ email: 'six@tpp.example', updatedAt: T1 });
    });

    it('refuses a contact for a TPP that was never recorded (foreign key)', async () => {
      await expect(tppRepository.saveContact(database.db, 'PSDNO-FSA-NEVERSEEN', 'x@tpp.example', T0, 'r')).rejects.toThrow();
      expect(await tppRepository.findContact(database.db, 'PSDNO-FSA-NEVERSEEN')).toBeUndefined();
    });

    it('works inside a transaction, and a rolled-back transaction leaves nothing', async () => {
      const id = 'PSDNO-FSA-100000007';
      await expect(
        database.db.transaction().execute(async (trx) => {
          await tppRepository.recordContact(trx, tpp(id), T0);
          await tppRepository.saveContact(trx, id, 'tx@tpp.example', T0, 'r');
          expect(await tppRepository.findContact(trx, id)).toEqual({ email: 'tx@tpp.example', updatedAt: T0 });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await tppRepository.findById(database.db, id)).toBeUndefined();
    });
  });

  describe('auditRepository', () => {
    it('lists the events of one resource in the order they were appended', async () => {
      const resource = { type: 'tpp-contact', id: 'PSDNO-FSA-200000001' };
      await auditRepository.append(
        database.db,
        {
          actor: { type: 'tpp', id: 'PSDNO-FSA-200000001' },
          requestId: 'req-1',
          action: 'first',
          resource,
          details: { email: 'a@tpp.example' },
        },
        T0,
      );
      await auditRepository.append(database.db, { actor: { type: 'system', id: 'nordic-xs2a' }, action: 'second', resource }, T1);
      await auditRepository.append(
        database.db,
        { actor: { type: 'psu', id: 'psu-1' }, action: 'elsewhere', resource: { type: 'tpp-contact', id: 'other' } },
        T1,
      );
      await auditRepository.append(
        database.db,
        { actor: { type: 'psu', id: 'psu-1' }, action: 'other-type', resource: { type: 'payment', id: resource.id } },
        T1,
      );
      await auditRepository.append(database.db, { actor: { type: 'tpp', id: 'PSDNO-FSA-200000001' }, action: 'third', resource }, T0);

      const entries = await auditRepository.listForResource(database.db, resource.type, resource.id);
      expect(entries.map((entry) => entry.action)).toEqual(['first', 'second', 'third']);
      expect(entries[0]).toEqual({
        id: expect.any(Number),
        occurredAt: T0,
        actor: { type: 'tpp', id: 'PSDNO-FSA-200000001' },
        requestId: 'req-1',
        action: 'first',
        resource,
        details: { email: 'a@tpp.example' },
      });
      expect(entries[1]).toMatchObject({ occurredAt: T1, actor: { type: 'system', id: 'nordic-xs2a' }, requestId: undefined, details: {} });
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
    });

    it('keeps many events appended in a burst in order', async () => {
      const resource = { type: 'burst', id: dialect };
      for (let i = 0; i < 25; i++) {
        await auditRepository.append(database.db, { actor: { type: 'system', id: 's' }, action: `a${i}`, resource }, T0);
      }
      const entries = await auditRepository.listForResource(database.db, resource.type, resource.id);
      expect(entries.map((entry) => entry.action)).toEqual(Array.from({ length: 25 }, (_, i) => `a${i}`));
    });

    it('round-trips details as JSON (nesting, numbers, booleans, null, non-ASCII)', async () => {
      const details = { nested: { list: [1, 2.5, 'tre'], flag: true, nothing: null }, name: 'Ærlig Østbø Åsen', quote: 'say "hi"\n' };
      await auditRepository.append(
        database.db,
        { actor: { type: 'tpp', id: 't' }, action: 'json', resource: { type: 'json', id: '1' }, details },
        T2,
      );
      const [entry] = await auditRepository.listForResource(database.db, 'json', '1');
      expect(entry?.details).toEqual(details);
      expect(entry?.occurredAt).toBe(T2);
    });

    it('lists nothing for a resource without events', async () => {
      expect(await auditRepository.listForResource(database.db, 'nothing', 'here')).toEqual([]);
    });
  });

  describe('idempotencyRepository (every signed X-Request-ID: replay and idempotency)', () => {
    const post = { method: 'POST', path: '/v1/payments/norwegian-domestic-credit-transfers', hash: 'hash-1' };
    const get = { method: 'GET', path: '/v1/payments/norwegian-domestic-credit-transfers/p-1', hash: 'hash-get' };
    const del = { method: 'DELETE', path: '/v1/payments/norwegian-domestic-credit-transfers/p-1', hash: 'hash-get' };
    const response: StoredResponse = {
      status: 201,
      headers: { location: '/v1/payments/norwegian-domestic-credit-transfers/p-1', 'aspsp-sca-approach': 'REDIRECT' },
      body: '{"transactionStatus":"RCVD","paymentId":"p-1","note":"Ærø"}',
    };
    const LATER = '2026-11-20T08:05:00.000Z';
    /** Times of a claim at `at`: rows live an hour; claims made before `abandonedBefore` were abandoned. */
    const times = (at: string, abandonedBefore = '2000-01-01T00:00:00.000Z') => ({
      at,
      expiresAt: new Date(Date.parse(at) + 3_600_000).toISOString(),
      abandonedBefore,
    });
    let counter = 0;
    const newKey = () => ({ tppId: 'PSDNO-FSA-300000001', requestId: `${dialect}-request-${++counter}` });
    const rowOf = (key: { tppId: string; requestId: string }) =>
      database.db
        .selectFrom('idempotency_record')
        .selectAll()
        .where('tpp_id', '=', key.tppId)
        .where('request_id', '=', key.requestId)
        .executeTakeFirst();

    it('claims a new X-Request-ID, recording the request and when it expires', async () => {
      const key = newKey();
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0))).toEqual({ kind: 'new' });
      expect(await rowOf(key)).toEqual({
        tpp_id: key.tppId,
        request_id: key.requestId,
        method: 'POST',
        path: post.path,
        request_hash: 'hash-1',
        state: 'in_progress',
        response_status: null,
        response_headers: null,
        response_body: null,
        created_at: T0,
        completed_at: null,
        expires_at: '2026-11-20T09:00:00.000Z',
      });
    });

    it('answers in-progress to the same POST while the first is running', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER))).toEqual({ kind: 'in-progress' });
    });

    it('lets a retry take over a POST abandoned past its lease, once', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))).toEqual({ kind: 'new' });
      expect((await rowOf(key))?.created_at).toBe(LATER);
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))).toEqual({
        kind: 'in-progress',
      });
    });

    it('tells a retry of a POST carried out but never answered that its answer was lost, even past the lease', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      expect(
        await database.db.transaction().execute((trx) => idempotencyRepository.markApplied(trx, key, T0, '2026-11-23T08:00:00.000Z')),
      ).toBe(true);
      // Within the lease it is still finishing; past it, its answer was lost.
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER))).toEqual({ kind: 'in-progress' });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))).toEqual({ kind: 'applied' });
      expect((await rowOf(key))?.expires_at).toBe('2026-11-23T08:00:00.000Z');
    });

    it('fences a slow POST whose claim a retry took over: it can no longer mark its effect applied', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))).toEqual({ kind: 'new' });
      expect(await idempotencyRepository.markApplied(database.db, key, T0, T2)).toBe(false);
      expect(await idempotencyRepository.markApplied(database.db, key, LATER, T2)).toBe(true);
    });

    it('stores the refusal of a POST that committed its effect, and replays it', async () => {
      const key = newKey();
      const refusal: StoredResponse = { status: 400, headers: { 'content-type': 'application/json' }, body: '{"code":"FORMAT_ERROR"}' };
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.completeApplied(database.db, key, refusal, { at: T0, expiresAt: T2 });
      expect((await rowOf(key))?.state).toBe('in_progress'); // not applied: nothing stored
      await idempotencyRepository.markApplied(database.db, key, T0, T2);
      await idempotencyRepository.completeApplied(database.db, key, refusal, { at: T0, expiresAt: T2 });
      await idempotencyRepository.markRefused(database.db, key, post);
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0))).toEqual({
        kind: 'replay',
        response: refusal,
      });
    });

    it('answers conflict to another body for the same operation, running or completed', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      expect(await idempotencyRepository.claim(database.db, key, { ...post, hash: 'hash-2' }, 'in_progress', times(LATER))).toEqual({
        kind: 'conflict',
      });
      await idempotencyRepository.complete(database.db, key, response, { at: T1, expiresAt: T2 });
      expect(await idempotencyRepository.claim(database.db, key, { ...post, hash: 'hash-2' }, 'in_progress', times(T1))).toEqual({
        kind: 'conflict',
      });
    });

    it('names the earlier operation when the id comes back with another method or path (a replay)', async () => {
      const key = newKey();
      expect(await idempotencyRepository.claim(database.db, key, get, 'seen', times(T0))).toEqual({ kind: 'new' });
      expect(await idempotencyRepository.claim(database.db, key, del, 'seen', times(T0))).toEqual({
        kind: 'other-operation',
        method: 'GET',
        path: get.path,
      });
      expect(
        await idempotencyRepository.claim(database.db, key, { ...get, path: '/v1/signing-baskets/b-1' }, 'seen', times(T0)),
      ).toMatchObject({
        kind: 'other-operation',
      });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0))).toMatchObject({
        kind: 'other-operation',
        method: 'GET',
      });
    });

    it('lets the identical GET, PUT or DELETE run again (repeat)', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, get, 'seen', times(T0));
      expect(await idempotencyRepository.claim(database.db, key, get, 'seen', times(T0))).toEqual({ kind: 'repeat' });
    });

    it('replays the stored status, headers and body once the POST completed', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.complete(database.db, key, response, { at: T1, expiresAt: T2 });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T1))).toEqual({ kind: 'replay', response });
      expect(await rowOf(key)).toMatchObject({ state: 'completed', created_at: T0, completed_at: T1, expires_at: T2 });
    });

    it('replays an empty body and no headers as stored', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.complete(database.db, key, { status: 204, headers: {}, body: '' }, { at: T1, expiresAt: T2 });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T1))).toEqual({
        kind: 'replay',
        response: { status: 204, headers: {}, body: '' },
      });
    });

    it('completes a record once: a second complete does not overwrite the stored answer', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.complete(database.db, key, response, { at: T1, expiresAt: T2 });
      await idempotencyRepository.complete(database.db, key, { status: 500, headers: {}, body: 'late' }, { at: T1, expiresAt: T2 });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T1))).toEqual({ kind: 'replay', response });
    });

    it('lets a corrected request to the same operation use a refused id, but not another operation', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.markRefused(database.db, key, post);
      expect(await idempotencyRepository.claim(database.db, key, get, 'seen', times(T0))).toMatchObject({ kind: 'other-operation' });
      expect(await idempotencyRepository.claim(database.db, key, { ...post, hash: 'hash-2' }, 'in_progress', times(T0))).toEqual({
        kind: 'new',
      });
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0))).toEqual({ kind: 'conflict' });
    });

    it('records a request refused before its claim, and leaves an existing row alone', async () => {
      const key = newKey();
      await idempotencyRepository.recordRefused(database.db, key, get, { at: T0, expiresAt: T1 });
      expect(await idempotencyRepository.claim(database.db, key, del, 'seen', times(T0))).toMatchObject({ kind: 'other-operation' });
      await idempotencyRepository.recordRefused(database.db, key, del, { at: T0, expiresAt: T1 });
      expect(await rowOf(key)).toMatchObject({ method: 'GET', state: 'refused' });
    });

    it("does not mark a completed record refused, nor another request's row", async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      await idempotencyRepository.markRefused(database.db, key, { ...post, hash: 'hash-2' });
      expect((await rowOf(key))?.state).toBe('in_progress');
      await idempotencyRepository.complete(database.db, key, response, { at: T1, expiresAt: T2 });
      await idempotencyRepository.markRefused(database.db, key, post);
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T1))).toEqual({ kind: 'replay', response });
    });

    it('treats an expired row as gone, and purges expired rows only', async () => {
      const key = newKey();
      const kept = newKey();
      await idempotencyRepository.claim(database.db, key, get, 'seen', { at: T0, expiresAt: T1, abandonedBefore: T0 });
      await idempotencyRepository.claim(database.db, kept, get, 'seen', { at: T0, expiresAt: T2, abandonedBefore: T0 });
      expect(await idempotencyRepository.claim(database.db, key, del, 'seen', times(T2))).toEqual({ kind: 'new' });
      await idempotencyRepository.claim(database.db, newKey(), get, 'seen', { at: T0, expiresAt: T1, abandonedBefore: T0 });
      expect(await idempotencyRepository.purgeExpired(database.db, T2)).toBeGreaterThanOrEqual(1);
      expect(await rowOf(kept)).toBeDefined();
      expect(await rowOf(key)).toMatchObject({ method: 'DELETE' });
    });

    it('stores an answer with the effect that carries the request out, fenced by the claim, once', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      // Rolled back with its effect: the claim is as it was.
      await expect(
        database.db.transaction().execute(async (trx) => {
          expect(await idempotencyRepository.answerClaim(trx, key, T0, response, { at: T1, expiresAt: T2 })).toBe(true);
          throw new Error('the effect failed');
        }),
      ).rejects.toThrow('the effect failed');
      expect((await rowOf(key))?.state).toBe('in_progress');
      // A retry took the claim over: the slow run can no longer answer it.
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))).toEqual({ kind: 'new' });
      expect(await idempotencyRepository.answerClaim(database.db, key, T0, response, { at: T1, expiresAt: T2 })).toBe(false);
      expect(
        await database.db
          .transaction()
          .execute((trx) => idempotencyRepository.answerClaim(trx, key, LATER, response, { at: LATER, expiresAt: T2 })),
      ).toBe(true);
      expect(
        await idempotencyRepository.answerClaim(database.db, key, LATER, { ...response, body: 'late' }, { at: LATER, expiresAt: T2 }),
      ).toBe(false);
      expect(await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER))).toEqual({ kind: 'replay', response });
      expect(await rowOf(key)).toMatchObject({ state: 'completed', completed_at: LATER, expires_at: T2 });
    });

    it('keeps the same X-Request-ID of two TPPs apart', async () => {
      const requestId = `${dialect}-shared-id`;
      expect(await idempotencyRepository.claim(database.db, { tppId: 'PSDNO-FSA-A', requestId }, post, 'in_progress', times(T0))).toEqual({
        kind: 'new',
      });
      expect(await idempotencyRepository.claim(database.db, { tppId: 'PSDNO-FSA-B', requestId }, get, 'seen', times(T0))).toEqual({
        kind: 'new',
      });
    });

    it('lets exactly one of 20 concurrent claims of one key win; the rest are told it is in progress', async () => {
      const key = newKey();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0))),
      );
      expect(outcomes.filter((outcome) => outcome.kind === 'new')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === 'in-progress')).toHaveLength(19);
    });

    it('lets exactly one of 20 concurrent claims with different operations win; the rest are replays', async () => {
      const key = newKey();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          idempotencyRepository.claim(database.db, key, { ...get, path: `/v1/payments/x/p-${i}` }, 'seen', times(T0)),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.kind === 'new')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === 'other-operation')).toHaveLength(19);
    });

    it('lets exactly one of 20 concurrent take-overs of an abandoned POST win', async () => {
      const key = newKey();
      await idempotencyRepository.claim(database.db, key, post, 'in_progress', times(T0));
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => idempotencyRepository.claim(database.db, key, post, 'in_progress', times(LATER, LATER))),
      );
      expect(outcomes.filter((outcome) => outcome.kind === 'new')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === 'in-progress')).toHaveLength(19);
    });
  });

  describe('timestamps', () => {
    it.each([T0, T1, T2, '1999-12-31T23:00:00.001Z'])('come back as the ISO string written (%s)', async (at) => {
      const id = `PSDNO-FSA-TS${at.replace(/\D/g, '')}`;
      await tppRepository.recordContact(database.db, tpp(id), at);
      await tppRepository.saveContact(database.db, id, 'ts@tpp.example', at, 'r');
      const row = await tppRepository.findById(database.db, id);
      expect(row?.first_seen_at).toBe(at);
      expect(typeof row?.first_seen_at).toBe('string');
      expect((await tppRepository.findContact(database.db, id))?.updatedAt).toBe(at);
    });
  });
});
