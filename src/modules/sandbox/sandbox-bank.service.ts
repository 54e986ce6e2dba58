import type { Db } from '../../db/create-db.js';
import type { BankClock } from '../clock/bank-clock.js';
import type { Ledger } from '../ledger/ledger.service.js';
import { createAccountService } from './account.service.js';
import { createAgreementService } from './agreement.service.js';
import { createCardAccountService } from './card-account.service.js';
import { createCoreSystemFaultService } from './core-system-fault.service.js';
import { createCustomerService } from './customer.service.js';
import { createInstantPaymentFeeService } from './instant-payment-fee.service.js';
import { sandboxBookkeeping } from './sandbox-bookkeeping.js';
import { createInitializeService } from './sandbox-initialize.service.js';
import { createTransactionService } from './transaction.service.js';

/**
 * The sandbox bank's mock-data use cases (docs/design.md §6), one service per
 * resource, all scoped to the calling TPP and all moving money only through the ledger. Mock data
 * is dated by the TPP's sandbox clock, as the reads and batch runs that see it are.
 */
export function createSandboxBank(db: Db, ledger: Ledger, clock: Pick<BankClock, 'realNow' | 'today'>) {
  const deps = { db, bookkeeping: sandboxBookkeeping(ledger), now: () => clock.realNow(), today: clock.today };
  const accounts = createAccountService(deps);
  return {
    initializer: createInitializeService(deps),
    customers: createCustomerService(deps),
    accounts,
    transactions: createTransactionService(deps, accounts),
    agreements: createAgreementService(deps),
    cardAccounts: createCardAccountService(deps),
    coreSystemFaults: createCoreSystemFaultService(deps),
    instantPaymentFees: createInstantPaymentFeeService(deps),
  };
}

export type SandboxBank = ReturnType<typeof createSandboxBank>;
