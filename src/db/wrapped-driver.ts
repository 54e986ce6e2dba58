import type { Dialect, Driver } from 'kysely';

/**
 * The dialect `inner` with its driver wrapped: the layers around Kysely's drivers (the
 * transaction guard, deferred writes, commit groups, the direct SQLite path) change the driver
 * alone and keep the adapter, introspector and query compiler.
 */
export function withDriver(inner: Dialect, wrap: (driver: Driver) => Driver): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => wrap(inner.createDriver()),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}

/**
 * A driver that does what `inner` does, except for the methods in `changed`. The savepoint
 * methods are there only when `inner` has them, as Kysely asks.
 */
export function driverChanging(inner: Driver, changed: Partial<Driver>): Driver {
  const driver: Driver = {
    init: () => inner.init(),
    acquireConnection: () => inner.acquireConnection(),
    beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
    commitTransaction: (connection) => inner.commitTransaction(connection),
    rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
    releaseConnection: (connection) => inner.releaseConnection(connection),
    destroy: () => inner.destroy(),
  };
  if (inner.savepoint) driver.savepoint = inner.savepoint.bind(inner);
  if (inner.rollbackToSavepoint) driver.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
  if (inner.releaseSavepoint) driver.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  return Object.assign(driver, changed);
}
