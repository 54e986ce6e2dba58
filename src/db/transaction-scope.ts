import type { Transaction } from 'kysely';
import { currentContext, runWithContext } from './async-context.js';
import type { Database } from './database.js';

/** A transaction (create-db.ts names it Tx; spelled out here so the two files do not import each other). */
type Tx = Transaction<Database>;

/**
 * Work that joins a transaction of a unit of work just before it commits, told the value the
 * transaction's work returned. True when it joined this transaction: once that one committed, it
 * is not called again; false leaves it for a later transaction.
 */
export type BeforeCommit = (trx: Tx, value: unknown) => Promise<boolean>;

interface Scope {
  pending: BeforeCommit | undefined;
}

/**
 * Runs `work` so that its transactions (through withTransaction) run `beforeCommit` inside them,
 * until one it joined has committed. The idempotency layer uses it to record a POST as carried
 * out, and to store its answer, atomically with its effect, without the services knowing of
 * requests (docs/adr/0009-one-idempotency-mechanism-in-the-http-layer.md).
 */
export function runInTransactionScope<T>(beforeCommit: BeforeCommit, work: () => T): T {
  return runWithContext({ scope: { pending: beforeCommit } }, work);
}

/** Called by withTransaction at the end of its work, still inside the transaction: the scope it joined, if any. */
export async function beforeCommit(trx: Tx, value: unknown): Promise<Scope | undefined> {
  const scope = currentContext<Scope, unknown>()?.scope;
  return scope?.pending && (await scope.pending(trx, value)) ? scope : undefined;
}

/** Called by withTransaction once its transaction committed: the scope's work is done. */
export function committed(scope: Scope | undefined): void {
  if (scope) scope.pending = undefined;
}
