/**
 * The opaque account ids TPPs see (src/modules/accounts/account-resource.repository.ts, migration
 * 0014), on each dialect of DIALECTS: one per TPP and account, the same on every call (also when
 * two calls meet), different for another TPP or another kind of account, and resolvable only by
 * the TPP it was given to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountResourceRepository } from '../../src/modules/accounts/account-resource.repository.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const AT = '2026-11-20T08:00:00.000Z';

describe.each(DIALECTS)('account resource ids (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it('gives a TPP one stable id per account, also to calls that meet', async () => {
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => accountResourceRepository.idFor(database.db, 'TPP-A', 'account', 'bank-1', AT)),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await accountResourceRepository.idFor(database.db, 'TPP-A', 'account', 'bank-1', AT)).toBe(ids[0]);
    expect(ids[0]).not.toContain('bank-1');
  });

  it('gives another TPP, and another kind of account, ids of their own', async () => {
    const a = await accountResourceRepository.idFor(database.db, 'TPP-A', 'account', 'bank-2', AT);
    const b = await accountResourceRepository.idFor(database.db, 'TPP-B', 'account', 'bank-2', AT);
    const card = await accountResourceRepository.idFor(database.db, 'TPP-A', 'card', 'bank-2', AT);
    expect(new Set([a, b, card]).size).toBe(3);
  });

  it('resolves an id for the TPP and kind it was given to only', async () => {
    const id = await accountResourceRepository.idFor(database.db, 'TPP-A', 'account', 'bank-3', AT);
    expect(await accountResourceRepository.bankAccountOf(database.db, 'TPP-A', 'account', id)).toBe('bank-3');
    expect(await accountResourceRepository.bankAccountOf(database.db, 'TPP-B', 'account', id)).toBeUndefined();
    expect(await accountResourceRepository.bankAccountOf(database.db, 'TPP-A', 'card', id)).toBeUndefined();
  });
});
