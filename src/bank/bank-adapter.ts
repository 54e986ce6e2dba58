import type { CoreBanking } from './core-banking.port.js';
import type { PsuAuthenticator } from './psu-authenticator.port.js';

/**
 * What a bank writes to put this server in front of its own core system (docs/bank-adapter.md):
 * one ES module, named by `XS2A_BANK_ADAPTER`, whose export `createBankAdapter` gives the two
 * ports. The server calls it once at start, before it listens, and `close` once when it stops.
 */
export interface BankAdapter {
  /** Accounts, balances, transactions, funds checks, and the execution of authorised payments. */
  readonly coreBanking: CoreBanking;
  /** How the PSU proves who it is on the SCA pages: a code typed on our page, or the bank's own login. */
  readonly psuAuthenticator: PsuAuthenticator;
  /** Releases what the adapter holds (connections, timers); called after the server stopped taking requests. */
  close?(): Promise<void>;
}

/** What the server tells the adapter when it makes it. */
export interface BankAdapterContext {
  /** `XS2A_PUBLIC_URL`: the base of the server's own addresses (the SCA return route lives under it). */
  readonly publicUrl: string;
  /**
   * The process environment, for the adapter's own settings (its core system's address, its
   * credentials): the server reads only its own variables and leaves the rest to the adapter.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The server's logger (pino): one line per call is the adapter's choice. */
  readonly log: BankAdapterLog;
}

export interface BankAdapterLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The export `XS2A_BANK_ADAPTER`'s module must have. */
export type CreateBankAdapter = (context: BankAdapterContext) => BankAdapter | Promise<BankAdapter>;

/** The operations of the core-banking port an adapter's `coreBanking` must have, for the check at start. */
export const CORE_BANKING_OPERATIONS = [
  'findAccount',
  'account',
  'accountsOf',
  'permission',
  'balances',
  'transactions',
  'transaction',
  'cardAccountsOf',
  'cardAccount',
  'cardTransactions',
  'fundsAvailable',
  'instantPaymentFee',
  'submitPayment',
  'submitPayments',
  'outcomesSince',
] as const satisfies readonly (keyof CoreBanking)[];

/**
 * What is wrong with what `createBankAdapter` gave, one line per missing part, or nothing. A
 * JavaScript adapter has no compiler to tell it; the server refuses to start instead of failing on
 * the first payment.
 */
export function bankAdapterProblems(adapter: unknown): string[] {
  if (typeof adapter !== 'object' || adapter === null) {
    return ['createBankAdapter must return an object with coreBanking and psuAuthenticator'];
  }
  const { coreBanking, psuAuthenticator, close } = adapter as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof coreBanking !== 'object' || coreBanking === null) {
    problems.push('coreBanking is missing');
  } else {
    const missing = CORE_BANKING_OPERATIONS.filter((name) => typeof (coreBanking as Record<string, unknown>)[name] !== 'function');
    if (missing.length > 0) problems.push(`coreBanking lacks ${missing.join(', ')}`);
  }
  problems.push(...authenticatorProblems(psuAuthenticator));
  if (close !== undefined && typeof close !== 'function') problems.push('close must be a function');
  return problems;
}

function authenticatorProblems(authenticator: unknown): string[] {
  if (typeof authenticator !== 'object' || authenticator === null) return ['psuAuthenticator is missing'];
  const given = authenticator as Record<string, unknown>;
  const needed = ['isCustomer', 'confirmedInApp'];
  const problems: string[] = [];
  if (given['kind'] === 'in-page-code') {
    needed.push('verifyOneTimeCode');
  } else if (given['kind'] === 'external-redirect') {
    needed.push('startUrl', 'verifyAssertion');
    if (!isOrigin(given['identityProviderOrigin'])) {
      problems.push('psuAuthenticator.identityProviderOrigin must be an origin such as https://login.bank.example');
    }
  } else {
    return ['psuAuthenticator.kind must be "in-page-code" or "external-redirect"'];
  }
  problems.unshift(...needed.filter((name) => typeof given[name] !== 'function').map((name) => `psuAuthenticator lacks ${name}`));
  if (typeof given['offersAppConfirmation'] !== 'boolean') problems.push('psuAuthenticator.offersAppConfirmation must be true or false');
  return problems;
}

/** Whether `value` is an http(s) origin and nothing more (no path, query or fragment). */
export function isOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
