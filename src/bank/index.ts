/**
 * What a bank's adapter module imports, `nordic-xs2a/bank-adapter` (docs/bank-adapter.md): the
 * two ports it implements, the error it throws, and the list of operations the server checks for
 * at start. Only types and these two values: the adapter runs in the server's process, and
 * nothing here may hold state of its own.
 */
export type { BankAdapter, BankAdapterContext, BankAdapterLog, CreateBankAdapter } from './bank-adapter.js';
export { CORE_BANKING_OPERATIONS } from './bank-adapter.js';
export { BANK_ERROR_KINDS, BankError, type BankErrorKind } from './bank-error.js';
export type * from './core-banking.port.js';
export type * from './psu-authenticator.port.js';
