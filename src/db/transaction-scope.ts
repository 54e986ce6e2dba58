import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from './create-db.js';

/** Work that must commit with the first transaction of a unit of work, or not at all. */
type BeforeFirstCommit = (trx: Tx) => Promise<void>;

interface Scope {
  pending: BeforeFirstCommit | undefined;
}

const scopes = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` so that the first transaction it commits (through withTransaction) also runs
 * `beforeFirstCommit` inside it. The request-record plugin uses it to mark a POST as carried out
 * atomically with its effect, without the services knowing of requests.
 */
export function runInTransactionScope<T>(beforeFirstCommit: BeforeFirstCommit, work: () => T): T {
  return scopes.run({ pending: beforeFirstCommit }, work);
}

/** Called by withTransaction at the end of its work, still inside the transaction. */
export async function beforeCommit(trx: Tx): Promise<Scope | undefined> {
  const scope = scopes.getStore();
  if (scope?.pending) await scope.pending(trx);
  return scope;
}

/** Called by withTransaction once its transaction committed: the scope's work is done. */
export function committed(scope: Scope | undefined): void {
  if (scope) scope.pending = undefined;
}
