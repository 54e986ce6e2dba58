/**
 * The helpers the layers around Kysely's drivers share (src/db/wrapped-driver.ts): a changed
 * driver does what the inner one does except where changed, and offers savepoints only when the
 * inner driver does (Kysely tells a dialect without them by their absence).
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver } from 'kysely';
import { describe, expect, it } from 'vitest';
import { driverChanging, withDriver } from '../../src/db/wrapped-driver.js';

const connection = { executeQuery: async () => ({ rows: [] }), streamQuery: async function* () {} } as unknown as DatabaseConnection;

function recordingDriver(calls: string[], savepoints: boolean): Driver {
  const driver: Driver = {
    init: async () => void calls.push('init'),
    acquireConnection: async () => (calls.push('acquire'), connection),
    beginTransaction: async () => void calls.push('begin'),
    commitTransaction: async () => void calls.push('commit'),
    rollbackTransaction: async () => void calls.push('rollback'),
    releaseConnection: async () => void calls.push('release'),
    destroy: async () => void calls.push('destroy'),
  };
  if (savepoints) {
    driver.savepoint = async (_c, name) => void calls.push(`savepoint ${name}`);
    driver.rollbackToSavepoint = async (_c, name) => void calls.push(`rollback to ${name}`);
    driver.releaseSavepoint = async (_c, name) => void calls.push(`release ${name}`);
  }
  return driver;
}

const compile = (() => ({})) as unknown as (node: unknown) => CompiledQuery;

describe('driverChanging', () => {
  it('forwards every method it does not change to the inner driver', async () => {
    const calls: string[] = [];
    const driver = driverChanging(recordingDriver(calls, true), { commitTransaction: async () => void calls.push('changed commit') });
    await driver.init();
    expect(await driver.acquireConnection()).toBe(connection);
    await driver.beginTransaction(connection, {});
    await driver.savepoint!(connection, 'a', compile);
    await driver.rollbackToSavepoint!(connection, 'a', compile);
    await driver.releaseSavepoint!(connection, 'a', compile);
    await driver.commitTransaction(connection);
    await driver.rollbackTransaction(connection);
    await driver.releaseConnection(connection);
    await driver.destroy();
    expect(calls).toEqual([
      'init',
      'acquire',
      'begin',
      'savepoint a',
      'rollback to a',
      'release a',
      'changed commit',
      'rollback',
      'release',
      'destroy',
    ]);
  });

  it('has no savepoint methods when the inner driver has none', () => {
    const driver = driverChanging(recordingDriver([], false), {});
    expect(['savepoint', 'rollbackToSavepoint', 'releaseSavepoint'].filter((method) => method in driver)).toEqual([]);
  });
});

describe('withDriver', () => {
  it('wraps the driver and keeps the rest of the dialect', () => {
    const calls: string[] = [];
    const parts = { adapter: {}, introspector: {}, compiler: {} };
    const inner = {
      createAdapter: () => parts.adapter,
      createDriver: () => recordingDriver(calls, false),
      createIntrospector: () => parts.introspector,
      createQueryCompiler: () => parts.compiler,
    } as unknown as Dialect;
    const wrapped = recordingDriver(calls, false);
    const dialect = withDriver(inner, () => wrapped);
    expect(dialect.createDriver()).toBe(wrapped);
    expect(dialect.createAdapter()).toBe(parts.adapter);
    expect(dialect.createIntrospector({} as never)).toBe(parts.introspector);
    expect(dialect.createQueryCompiler()).toBe(parts.compiler);
  });
});
