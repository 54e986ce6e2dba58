import { BankError } from '../../bank/bank-error.js';

/**
 * The faults a mock account's core system can be told to simulate (docs/design.md §2b): its
 * statement and balance reads then fail as a real core system's would, and the port reports it
 * as a {@link BankError} of the same kind. Pure.
 */
export const CORE_SYSTEM_FAULTS = ['missing-data', 'unavailable'] as const;
export type CoreSystemFault = (typeof CORE_SYSTEM_FAULTS)[number];

export function isCoreSystemFault(value: string): value is CoreSystemFault {
  return (CORE_SYSTEM_FAULTS as readonly string[]).includes(value);
}

/** What the port throws for a read of an account with this fault. */
export function faultError(fault: CoreSystemFault, accountId: string): BankError {
  const asked = { simulated: true };
  return fault === 'missing-data'
    ? new BankError('missing-data', `sandbox: the core system answered account ${accountId} without its data (simulated)`, asked)
    : new BankError('unavailable', `sandbox: the core system did not answer for account ${accountId} (simulated)`, asked);
}
