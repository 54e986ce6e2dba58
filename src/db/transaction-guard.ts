import type { Dialect } from 'kysely';
import { currentContext, runWithContext } from './async-context.js';
import { driverChanging, withDriver } from './wrapped-driver.js';

interface OpenTransaction {
  open: boolean;
}

/** The open transaction of the running work, if any. */
function openTransaction(): OpenTransaction | undefined {
  return currentContext<unknown, OpenTransaction>()?.transaction;
}

/**
 * Runs `work` marked as inside a transaction, until it settles. A query on the outer database
 * handle from there is a bug: on SQLite's single connection it waits for the transaction that
 * waits for it (a hang), on PostgreSQL it reads past the transaction's own writes and locks.
 */
export async function insideTransaction<T>(work: () => Promise<T>): Promise<T> {
  const marker = { open: true };
  try {
    return await runWithContext({ transaction: marker }, work);
  } finally {
    // Work that outlives the transaction (a promise it did not await) may use the handle again.
    marker.open = false;
  }
}

/** Whether the caller runs inside a transaction's work (see {@link insideTransaction}). */
export function inOpenTransaction(): boolean {
  return openTransaction()?.open === true;
}

/**
 * A dialect whose driver refuses, at once, a connection asked for by code that runs inside a
 * transaction: the transaction's own queries use the connection it holds, so a request for
 * another one can only come from the outer handle (docs/design.md §8: services pass the `trx` down).
 */
export function guardedDialect(inner: Dialect): Dialect {
  return withDriver(inner, (driver) =>
    driverChanging(driver, {
      acquireConnection: () => {
        if (openTransaction()?.open) {
          return Promise.reject(
            new Error('the outer database handle was used inside a transaction: pass the transaction (trx) down instead'),
          );
        }
        return driver.acquireConnection();
      },
    }),
  );
}
