import type { CoreSystemFault } from './core-system-fault.js';

/** A mock account's simulated core-system fault (migration 0016). */
export interface SandboxCoreSystemFaultTable {
  tpp_id: string;
  /** A mock account's or card account's id. */
  account_id: string;
  fault: CoreSystemFault;
}
