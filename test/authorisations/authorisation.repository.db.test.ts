/**
 * The authorisation table's only door, on each database of DIALECTS:
 * - insert and find round-trip every field, booleans as booleans and nulls as undefined;
 * - listFor filters by TPP, purpose and resource and lists oldest first;
 * - listOpenOf lists the open authorisations of a resource, whichever TPP started them;
 * - listExpired lists only open authorisations whose link is due, oldest due first, up to a limit;
 * - transition writes an approved status move, and update other fields, only from the expected
 *   status (update cannot write the status); takeLoginCode spends a code exactly once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorisationRepository } from '../../src/modules/authorisations/authorisation.repository.js';
import type { Authorisation, NewAuthorisation } from '../../src/modules/authorisations/authorisation.model.js';
import { approvedScaMove, type ScaMove, type ScaStatus } from '../../src/modules/authorisations/sca-status.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const TPP = 'PSDNO-FSA-123456789';
const OTHER_TPP = 'PSDSE-FINA-44059';
const PSU = '13039319955';
const CREATED = '2026-11-20T08:00:00.000Z';

function newAuthorisation(overrides: Partial<NewAuthorisation> = {}): NewAuthorisation {
  return {
    id: randomUUID(),
    tppId: TPP,
    tppName: 'Budget App AS',
    purpose: 'payment',
    resourceId: randomUUID(),
    expectedPsuId: undefined,
    psuCorporateId: undefined,
    redirectUri: undefined,
    nokRedirectUri: undefined,
    biometric: false,
    expiresAt: '2026-11-20T08:30:00.000Z',
    createdAt: CREATED,
    ...overrides,
  };
}

describe.each(DIALECTS)('authorisationRepository on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  const find = (id: string) => authorisationRepository.find(database.db, id);
  const insert = (overrides: Partial<NewAuthorisation> = {}) => authorisationRepository.insert(database.db, newAuthorisation(overrides));

  /** Straight to the table: the repository writes only moves the table approves. */
  async function forceStatus(authorisation: Authorisation, status: ScaStatus): Promise<void> {
    await database.db.updateTable('authorisation').set({ sca_status: status }).where('id', '=', authorisation.id).execute();
  }

  function move(from: ScaStatus, to: ScaStatus): ScaMove {
    const approved = approvedScaMove(from, to);
    if (!approved) throw new Error(`the table allows no move from ${from} to ${to}`);
    return approved;
  }

  describe('insert and find', () => {
    it('round-trips every field, with booleans as booleans', async () => {
      const full = newAuthorisation({
        tppName: 'Blåbær Økonomi AS',
        expectedPsuId: PSU,
        psuCorporateId: '974760673',
        redirectUri: 'https://tpp.example/ok?x=1',
        nokRedirectUri: 'https://tpp.example/nok',
        biometric: true,
        expiresAt: '2026-11-20T08:10:00.250Z',
      });
      const inserted = await authorisationRepository.insert(database.db, full);
      const expected: Authorisation = {
        ...full,
        scaStatus: 'received',
        statusReason: undefined,
        psuId: undefined,
        codeAttempts: 0,
        loginCodeHash: undefined,
        loginCodeExpiresAt: undefined,
        statusChangedAt: CREATED,
      };
      expect(inserted).toEqual(expected);
      const found = await find(full.id);
      expect(found).toEqual(expected);
      expect(found?.biometric).toBe(true);
      expect(typeof found?.codeAttempts).toBe('number');
    });

    it('reads absent values back as undefined (not null) and biometric false as false', async () => {
      const bare = await insert({ purpose: 'psu-login', resourceId: undefined, biometric: false });
      const found = await find(bare.id);
      expect(found).toEqual(bare);
      expect(found?.biometric).toBe(false);
      for (const key of [
        'resourceId',
        'statusReason',
        'expectedPsuId',
        'psuCorporateId',
        'psuId',
        'redirectUri',
        'nokRedirectUri',
      ] as const) {
        expect(found?.[key]).toBeUndefined();
        expect(found).toHaveProperty(key);
      }
    });

    it('finds nothing for an unknown id', async () => {
      expect(await find(randomUUID())).toBeUndefined();
    });
  });

  describe('listFor', () => {
    it('lists the authorisations of one resource, one purpose and one TPP, oldest first', async () => {
      const resourceId = randomUUID();
      const second = await insert({ resourceId, createdAt: '2026-11-20T09:00:00.000Z' });
      const first = await insert({ resourceId, createdAt: '2026-11-20T08:00:00.000Z' });
      const third = await insert({ resourceId, createdAt: '2026-11-20T10:00:00.000Z' });
      await insert({ resourceId, tppId: OTHER_TPP });
      await insert({ resourceId, purpose: 'payment-cancellation' });
      await insert({ resourceId: randomUUID() });

      const listed = await authorisationRepository.listFor(database.db, TPP, 'payment', resourceId);
      expect(listed.map((entry) => entry.id)).toEqual([first.id, second.id, third.id]);
      expect(listed[0]).toEqual(first);
    });

    it('orders authorisations created at the same instant by id', async () => {
      const resourceId = randomUUID();
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of ids) await insert({ id, resourceId, purpose: 'payment-cancellation' });
      const listed = await authorisationRepository.listFor(database.db, TPP, 'payment-cancellation', resourceId);
      expect(listed.map((entry) => entry.id)).toEqual([...ids].sort());
    });

    it('lists nothing for another TPP', async () => {
      const resourceId = randomUUID();
      await insert({ resourceId });
      expect(await authorisationRepository.listFor(database.db, OTHER_TPP, 'payment', resourceId)).toEqual([]);
    });
  });

  describe('listOpenOf', () => {
    it('lists the open authorisations of a resource and purpose, whichever TPP started them', async () => {
      const resourceId = randomUUID();
      const open = await insert({ resourceId });
      const identified = await insert({ resourceId });
      await forceStatus(identified, 'psuIdentified');
      const otherTpp = await insert({ resourceId, tppId: OTHER_TPP });
      for (const status of ['finalised', 'failed', 'exempted'] as const) {
        const closed = await insert({ resourceId });
        await forceStatus(closed, status);
      }
      await insert({ resourceId, purpose: 'payment-cancellation' });
      await insert();

      const listed = await authorisationRepository.listOpenOf(database.db, 'payment', [resourceId]);
      expect(listed.map((entry) => entry.id).sort()).toEqual([open.id, identified.id, otherTpp.id].sort());
    });
  });

  describe('listExpired', () => {
    it('lists only open authorisations due at or before now, oldest due first, up to the limit', async () => {
      // Times far in the future of every other test's rows, so only these can be due in the window.
      const NOW = '2099-01-01T12:00:00.000Z';
      const before = (await authorisationRepository.listExpired(database.db, '2099-01-01T00:00:00.000Z', 10_000)).length;
      const dueLater = await insert({ expiresAt: '2099-01-01T11:00:00.000Z' });
      const dueFirst = await insert({ expiresAt: '2099-01-01T10:00:00.000Z' });
      const dueNow = await insert({ expiresAt: NOW });
      const dueStarted = await insert({ expiresAt: '2099-01-01T11:30:00.000Z' });
      await forceStatus(dueStarted, 'started');
      await insert({ expiresAt: '2099-01-01T12:00:00.001Z' });
      for (const status of ['finalised', 'failed'] as const) {
        const closed = await insert({ expiresAt: '2099-01-01T09:00:00.000Z' });
        await forceStatus(closed, status);
      }

      const listed = await authorisationRepository.listExpired(database.db, NOW, 10_000);
      expect(listed.slice(before).map((entry) => entry.id)).toEqual([dueFirst.id, dueLater.id, dueStarted.id, dueNow.id]);
      expect(listed.every((entry) => entry.expiresAt <= NOW && !['finalised', 'failed', 'exempted'].includes(entry.scaStatus))).toBe(true);

      const limited = await authorisationRepository.listExpired(database.db, NOW, before + 2);
      expect(limited).toHaveLength(before + 2);
      expect(limited.slice(before).map((entry) => entry.id)).toEqual([dueFirst.id, dueLater.id]);
    });
  });

  describe('transition and update', () => {
    it('writes a status move only from its expected status', async () => {
      const authorisation = await insert();
      await forceStatus(authorisation, 'psuIdentified');
      const identified = { ...authorisation, scaStatus: 'psuIdentified' as const };
      expect(
        await authorisationRepository.transition(database.db, authorisation.id, move('received', 'failed'), {
          statusReason: 'x',
          at: '2026-11-20T08:05:00.000Z',
        }),
      ).toBe(false);
      expect(await find(authorisation.id)).toEqual(identified);

      expect(
        await authorisationRepository.transition(database.db, authorisation.id, move('psuIdentified', 'failed'), {
          statusReason: 'x',
          psuId: PSU,
          at: '2026-11-20T08:05:00.000Z',
        }),
      ).toBe(true);
      expect(await find(authorisation.id)).toEqual({
        ...authorisation,
        scaStatus: 'failed',
        statusReason: 'x',
        psuId: PSU,
        statusChangedAt: '2026-11-20T08:05:00.000Z',
      });
    });

    it('updates other fields only from the expected status, and never the status', async () => {
      const authorisation = await insert();
      expect(await authorisationRepository.update(database.db, authorisation.id, 'psuIdentified', { loginCodeHash: 'h' })).toBe(false);
      expect(await find(authorisation.id)).toEqual(authorisation);
      // @ts-expect-error the scaStatus changes only through a move the table approved (transition)
      const change: Parameters<typeof authorisationRepository.update>[3] = { loginCodeHash: 'h', scaStatus: 'failed' };
      expect(await authorisationRepository.update(database.db, authorisation.id, 'received', change)).toBe(true);
      expect(await find(authorisation.id)).toEqual({ ...authorisation, loginCodeHash: 'h' });
    });

    it('counts code attempts up to the limit without touching the status or its time; none for another status', async () => {
      const authorisation = await insert();
      expect(await authorisationRepository.countCodeAttempt(database.db, authorisation.id, 2)).toBeUndefined();
      await forceStatus(authorisation, 'psuIdentified');
      expect(await authorisationRepository.countCodeAttempt(database.db, authorisation.id, 2)).toBe(1);
      expect(await authorisationRepository.countCodeAttempt(database.db, authorisation.id, 2)).toBe(2);
      expect(await authorisationRepository.countCodeAttempt(database.db, authorisation.id, 2)).toBeUndefined();
      const after = await find(authorisation.id);
      expect(after?.codeAttempts).toBe(2);
      expect(after?.scaStatus).toBe('psuIdentified');
      expect(after?.statusChangedAt).toBe(CREATED);
    });

    it('changes nothing for an unknown id', async () => {
      expect(await authorisationRepository.transition(database.db, randomUUID(), move('received', 'failed'), { at: CREATED })).toBe(false);
    });
  });

  describe('takeLoginCode', () => {
    async function loginWithCode(hash: string): Promise<Authorisation> {
      const login = await insert({ purpose: 'psu-login', resourceId: undefined });
      await forceStatus(login, 'finalised');
      expect(
        await authorisationRepository.update(database.db, login.id, 'finalised', {
          loginCodeHash: hash,
          loginCodeExpiresAt: '2026-11-20T08:01:00.000Z',
        }),
      ).toBe(true);
      return login;
    }

    it('finds a login by its code hash and spends the code: a second take finds nothing', async () => {
      const hash = randomUUID().replace(/-/g, '').repeat(2);
      const login = await loginWithCode(hash);

      const taken = await authorisationRepository.takeLoginCode(database.db, hash);
      expect(taken?.id).toBe(login.id);
      expect(taken?.loginCodeExpiresAt).toBe('2026-11-20T08:01:00.000Z');
      expect(await authorisationRepository.takeLoginCode(database.db, hash)).toBeUndefined();
      expect((await find(login.id))?.loginCodeHash).toBeUndefined();
    });

    it('finds nothing for an unknown hash, and leaves other codes alone', async () => {
      const hash = randomUUID().replace(/-/g, '').repeat(2);
      const login = await loginWithCode(hash);
      const another = `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
      expect(await authorisationRepository.takeLoginCode(database.db, another)).toBeUndefined();
      expect((await find(login.id))?.loginCodeHash).toBe(hash);
    });

    it('lets only one of two concurrent takes of the same code succeed', async () => {
      const hash = randomUUID().replace(/-/g, '').repeat(2);
      const login = await loginWithCode(hash);
      const results = await Promise.all([
        authorisationRepository.takeLoginCode(database.db, hash),
        authorisationRepository.takeLoginCode(database.db, hash),
      ]);
      expect(results.filter((result) => result !== undefined).map((result) => result?.id)).toEqual([login.id]);
    });
  });
});
