import { withTransaction, type Db, type DbOrTx, type Tx } from '../../db/create-db.js';
import type { IsoDate } from '../../domain/iso-date.js';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { auditService } from '../audit/audit.service.js';
import { customerRepository } from './customer.repository.js';
import { sandboxBankRepository } from './sandbox-bank.repository.js';
import type { SandboxCaller, SandboxCustomer } from './sandbox-bank.model.js';
import type { SandboxBookkeeping } from './sandbox-bookkeeping.js';
import { refuse } from './sandbox-checks.js';

/** What every mock-data service needs. */
export interface SandboxDeps {
  readonly db: Db;
  readonly bookkeeping: SandboxBookkeeping;
  /** The real clock: timestamps (created, audited) are about when a request was made. */
  readonly now: () => Date;
  /**
   * The calling TPP's bank date by its sandbox clock: what mock data is dated by (seeded history,
   * a balance set, which booking dates are in the future), the day its reads and batch runs see.
   * `within`: the caller's transaction, when it is in one (SQLite has one connection).
   */
  readonly today: (tppId: string, within?: DbOrTx) => Promise<IsoDate>;
}

/**
 * Runs a mock-data write in one transaction holding the TPP's sandbox lock, so it never
 * interleaves with another write of the same sandbox (an initialize wiping what it relies on).
 * Whatever the write relies on is read inside `work`, after the lock.
 */
export async function inSandbox<T>(db: Db, caller: SandboxCaller, at: string, work: (trx: Tx) => Promise<T>): Promise<T> {
  return withTransaction(db, async (trx) => {
    await sandboxBankRepository.lockTenant(trx, caller.tppId, at);
    return work(trx);
  });
}

/**
 * An id in the path that this TPP's sandbox does not have: 404, also when another TPP has it
 * (docs/design.md §5: no existence oracle).
 */
export function unknown(path: string, what: Localized): never {
  throw new AppError('RESOURCE_UNKNOWN', { detail: what, path });
}

export function alreadyExists(path: string, what: Localized): never {
  throw new AppError('RESOURCE_EXISTS', { detail: what, path });
}

/** A customer a body names by customer number: unknown is bad input (400), not a missing resource. */
export async function customerNamed(db: DbOrTx, tppId: string, customerNumber: string, path: string): Promise<SandboxCustomer> {
  const customer = await customerRepository.findByNumber(db, tppId, customerNumber);
  if (!customer) {
    refuse(
      path,
      localized(
        `names customer ${customerNumber}, which your sandbox does not have: create it with POST /v1/sandbox/customers or run POST /v1/sandbox/initialize`,
        `viser til kunde ${customerNumber}, som ikke finnes i sandkassen din: opprett den med POST /v1/sandbox/customers eller kjør POST /v1/sandbox/initialize`,
      ),
    );
  }
  return customer;
}

/** Records a mock-data change in the audit log, in the transaction that made it. */
export async function audit(
  trx: DbOrTx,
  caller: SandboxCaller,
  action: string,
  resource: { type: string; id: string },
  at: string,
  details?: Record<string, unknown>,
): Promise<void> {
  await auditService.append(
    trx,
    { actor: { type: 'tpp', id: caller.tppId }, requestId: caller.requestId, action, resource, ...(details ? { details } : {}) },
    at,
  );
}
