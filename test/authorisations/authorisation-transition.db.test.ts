/**
 * The one way an authorisation's scaStatus changes (docs/design.md §3), on each database of DIALECTS:
 * - a legal move updates the row and writes exactly one `authorisation.sca-status-changed` audit
 *   event with from and to (and the reason and resource when there are);
 * - an illegal move is refused with STATUS_INVALID and changes nothing;
 * - a stale authorisation object (its status changed meanwhile) is refused and writes no audit;
 * - of two moves from the same status only one wins;
 * - inside a transaction that fails afterwards, neither the move nor its audit event remains.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { AppError } from '../../src/errors/app-error.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import { transitionAuthorisation, type ScaStatusChange } from '../../src/modules/authorisations/authorisation-transition.js';
import { authorisationRepository } from '../../src/modules/authorisations/authorisation.repository.js';
import type { Authorisation, AuthorisationPurpose, NewAuthorisation } from '../../src/modules/authorisations/authorisation.model.js';
import type { ScaStatus } from '../../src/modules/authorisations/sca-status.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const TPP = 'PSDNO-FSA-123456789';
const PSU = '13039319955';
const CREATED = '2026-11-20T08:00:00.000Z';
const T1 = '2026-11-20T08:01:00.000Z';
const T2 = '2026-11-20T08:02:00.000Z';
const T3 = '2026-11-20T08:03:00.000Z';

function newAuthorisation(purpose: AuthorisationPurpose = 'payment'): NewAuthorisation {
  return {
    id: randomUUID(),
    tppId: TPP,
    tppName: 'Budget App AS',
    purpose,
    resourceId: purpose === 'psu-login' ? undefined : randomUUID(),
    expectedPsuId: undefined,
    psuCorporateId: undefined,
    redirectUri: 'https://tpp.example/ok',
    nokRedirectUri: undefined,
    biometric: false,
    expiresAt: '2026-11-20T08:30:00.000Z',
    createdAt: CREATED,
  };
}

function change(to: ScaStatus, at: string, extra: Partial<ScaStatusChange> = {}): ScaStatusChange {
  return { to, actor: { type: 'psu', id: PSU }, at, ...extra };
}

describe.each(DIALECTS)('transitionAuthorisation on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  async function reread(authorisation: Pick<Authorisation, 'id'>): Promise<Authorisation> {
    const found = await authorisationRepository.find(database.db, authorisation.id);
    if (found === undefined) throw new Error(`authorisation ${authorisation.id} not found`);
    return found;
  }

  /** A stored authorisation, forced into `status` without the table (and without audit). */
  async function stored(status: ScaStatus = 'received', purpose: AuthorisationPurpose = 'payment'): Promise<Authorisation> {
    const inserted = await authorisationRepository.insert(database.db, newAuthorisation(purpose));
    if (status !== 'received') {
      // Straight to the table: the repository writes only moves the table approves.
      await database.db.updateTable('authorisation').set({ sca_status: status }).where('id', '=', inserted.id).execute();
    }
    return reread(inserted);
  }

  const events = (authorisation: Pick<Authorisation, 'id'>) =>
    auditRepository.listForResource(database.db, 'authorisation', authorisation.id);

  async function expectStatusInvalid(promise: Promise<unknown>): Promise<void> {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('STATUS_INVALID');
  }

  it('moves received to psuIdentified with the PSU, stores it and writes exactly one audit event', async () => {
    const authorisation = await stored();
    expect(authorisation.psuId).toBeUndefined();

    const returned = await transitionAuthorisation(database.db, authorisation, change('psuIdentified', T1, { psuId: PSU }));

    expect(returned).toEqual({ ...authorisation, scaStatus: 'psuIdentified', psuId: PSU, statusChangedAt: T1 });
    expect(await reread(authorisation)).toEqual(returned);
    const audit = await events(authorisation);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'authorisation.sca-status-changed',
      actor: { type: 'psu', id: PSU },
      resource: { type: 'authorisation', id: authorisation.id },
      occurredAt: T1,
    });
    expect(audit[0]!.details).toEqual({ purpose: 'payment', resourceId: authorisation.resourceId, from: 'received', to: 'psuIdentified' });
  });

  it('records the reason of a failure in the row and in the audit event', async () => {
    const authorisation = await stored('psuIdentified');
    const failed = await transitionAuthorisation(
      database.db,
      authorisation,
      change('failed', T1, { reason: 'wrong codes', actor: { type: 'system', id: 'sca' } }),
    );
    expect(failed.statusReason).toBe('wrong codes');
    const after = await reread(authorisation);
    expect(after).toEqual(failed);
    expect(after.scaStatus).toBe('failed');
    const audit = await events(authorisation);
    expect(audit.map((entry) => entry.details)).toEqual([
      { purpose: 'payment', resourceId: authorisation.resourceId, from: 'psuIdentified', to: 'failed', reason: 'wrong codes' },
    ]);
    expect(audit[0]!.actor).toEqual({ type: 'system', id: 'sca' });
  });

  it('names no resource in the audit event of a PSU login', async () => {
    const login = await stored('received', 'psu-login');
    await transitionAuthorisation(database.db, login, change('psuIdentified', T1, { psuId: PSU }));
    expect((await events(login)).map((entry) => entry.details)).toEqual([{ purpose: 'psu-login', from: 'received', to: 'psuIdentified' }]);
  });

  it('walks the whole flow, one audit event per move, in order', async () => {
    let authorisation = await stored();
    const moves: ScaStatus[] = ['psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'started', 'finalised'];
    for (const to of moves) authorisation = await transitionAuthorisation(database.db, authorisation, change(to, T2));
    expect((await reread(authorisation)).scaStatus).toBe('finalised');
    expect((await events(authorisation)).map((entry) => [entry.details?.['from'], entry.details?.['to']])).toEqual([
      ['received', 'psuIdentified'],
      ['psuIdentified', 'psuAuthenticated'],
      ['psuAuthenticated', 'scaMethodSelected'],
      ['scaMethodSelected', 'started'],
      ['started', 'finalised'],
    ]);
  });

  it('keeps the PSU and the reason it already has when a later move names none', async () => {
    const identified = await transitionAuthorisation(database.db, await stored(), change('psuIdentified', T1, { psuId: PSU }));
    const authenticated = await transitionAuthorisation(database.db, identified, change('psuAuthenticated', T2));
    expect(authenticated.psuId).toBe(PSU);
    expect((await reread(identified)).psuId).toBe(PSU);
  });

  it.each([
    ['received', 'finalised'],
    ['received', 'psuAuthenticated'],
    ['received', 'scaMethodSelected'],
    ['received', 'received'],
    ['psuIdentified', 'scaMethodSelected'],
    ['psuIdentified', 'finalised'],
    ['scaMethodSelected', 'finalised'],
    ['started', 'scaMethodSelected'],
    ['finalised', 'failed'],
    ['failed', 'psuIdentified'],
    ['failed', 'failed'],
    ['exempted', 'finalised'],
  ] as const)('refuses %s → %s with STATUS_INVALID and changes nothing', async (from, to) => {
    const authorisation = await stored(from);
    await expectStatusInvalid(transitionAuthorisation(database.db, authorisation, change(to, T1, { reason: 'x', psuId: PSU })));
    expect(await reread(authorisation)).toEqual(authorisation);
    expect(await events(authorisation)).toEqual([]);
  });

  it('refuses a stale authorisation whose status another move already changed, and writes no audit', async () => {
    const authorisation = await stored();
    const identified = await transitionAuthorisation(database.db, authorisation, change('psuIdentified', T1, { psuId: PSU }));
    const before = await events(authorisation);
    expect(before).toHaveLength(1);

    // received → failed is legal by the table, but the row is no longer received.
    await expectStatusInvalid(transitionAuthorisation(database.db, authorisation, change('failed', T2, { reason: 'expired' })));
    expect(await reread(authorisation)).toEqual(identified);
    expect(await events(authorisation)).toEqual(before);

    // The up-to-date object still moves on.
    await transitionAuthorisation(database.db, identified, change('psuAuthenticated', T3));
    expect((await reread(authorisation)).scaStatus).toBe('psuAuthenticated');
    expect(await events(authorisation)).toHaveLength(2);
  });

  it('lets only one of two moves from the same status win', async () => {
    const authorisation = await stored('scaMethodSelected');
    const results = await Promise.allSettled([
      transitionAuthorisation(database.db, authorisation, change('started', T1)),
      transitionAuthorisation(
        database.db,
        authorisation,
        change('failed', T1, { reason: 'expired', actor: { type: 'system', id: 'sweep' } }),
      ),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((result) => result.status === 'rejected');
    expect((loser?.reason as AppError).code).toBe('STATUS_INVALID');
    const after = await reread(authorisation);
    expect(['started', 'failed']).toContain(after.scaStatus);
    expect((await events(authorisation)).map((entry) => entry.details?.['to'])).toEqual([after.scaStatus]);
  });

  it('leaves neither the move nor the audit event when the transaction fails afterwards', async () => {
    const authorisation = await stored();
    await expect(
      withTransaction(database.db, async (trx) => {
        await transitionAuthorisation(trx, authorisation, change('psuIdentified', T1, { psuId: PSU }));
        expect((await authorisationRepository.find(trx, authorisation.id))?.scaStatus).toBe('psuIdentified');
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await reread(authorisation)).toEqual(authorisation);
    expect(await events(authorisation)).toEqual([]);
  });
});
