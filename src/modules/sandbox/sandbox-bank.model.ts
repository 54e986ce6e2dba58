import type { AccountReference } from '../../bank/core-banking.port.js';
import type { Money } from '../../domain/money.js';

/**
 * The sandbox bank's domain types: what its services take and return. Rows stay in the
 * repositories; the Berlin Group-style wire JSON is made in `sandbox-bank.mapper.ts`.
 */

export const CUSTOMER_TYPES = ['PRIVATE', 'CORPORATE'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** Engagement roles of the real sandbox: VIEW shows the account, REGISTER lets the PSU pay from it. */
export const ENGAGEMENT_ROLES = ['REGISTER', 'VIEW'] as const;
export type EngagementRole = (typeof ENGAGEMENT_ROLES)[number];

export type BookingStatus = 'booked' | 'pending';

/** Who asks: the TPP whose sandbox is meant, and its X-Request-ID for the audit log. */
export interface SandboxCaller {
  readonly tppId: string;
  readonly requestId?: string | undefined;
}

export interface SandboxCustomer {
  readonly id: string;
  readonly customerNumber: string;
  readonly customerType: CustomerType;
  readonly name: string;
}

export interface SandboxAccount {
  readonly id: string;
  readonly owner: SandboxCustomer;
  readonly bban: string;
  readonly iban: string;
  readonly currency: string;
  readonly name: string;
  readonly product: string;
  readonly cashAccountType: string;
  /** The credit line (0 for none): interimAvailable and the funds check include it. */
  readonly creditLimit: Money;
  /** The owner's agreement, when the owner is a corporation that has one. */
  readonly organisationNumber?: string | undefined;
}

/** Berlin Group balance types, derived from the ledger every time. */
export interface SandboxBalances {
  readonly closingBooked: Money;
  readonly expected: Money;
  readonly interimAvailable: Money;
}

export interface SandboxAgreement {
  readonly id: string;
  readonly owner: SandboxCustomer;
  readonly organisationNumber: string;
  readonly name: string;
}

export interface SandboxEngagement {
  readonly id: string;
  readonly agreementId: string;
  /** The PSU. */
  readonly customer: SandboxCustomer;
  readonly account: { readonly id: string; readonly bban: string; readonly iban: string; readonly currency: string };
  readonly roles: readonly EngagementRole[];
  /** Undefined: no limit. Zero: no right to register (or to approve alone). */
  readonly registerLimit?: Money | undefined;
  readonly approvalLimit?: Money | undefined;
  /** A consent sharing the account through this engagement needs another approver of the agreement too. */
  readonly consentNeedsSecondApprover: boolean;
}

export interface SandboxTransaction {
  readonly id: string;
  readonly accountId: string;
  readonly status: BookingStatus;
  readonly bookingDate: string;
  readonly valueDate: string;
  /** Signed as seen from the mock account: negative is a debit. */
  readonly amount: Money;
  readonly counterpartyName?: string | undefined;
  readonly counterpartyAccount?: AccountReference | undefined;
  readonly remittanceUnstructured?: string | undefined;
  /** A KID. */
  readonly remittanceReference?: string | undefined;
}

export interface SandboxCardAccount {
  readonly id: string;
  readonly owner: SandboxCustomer;
  readonly maskedPan: string;
  readonly name: string;
  readonly product: string;
  readonly currency: string;
  readonly creditLimit: Money;
}

export interface SandboxCardTransaction {
  readonly id: string;
  readonly cardAccountId: string;
  readonly maskedPan: string;
  readonly status: BookingStatus;
  readonly transactionDate: string;
  readonly bookingDate?: string | undefined;
  /** Signed: a purchase is negative. */
  readonly amount: Money;
  /** What the merchant charged, when it was another currency than the card's. */
  readonly originalAmount?: Money | undefined;
  /** Card-currency units per unit of the original currency (decimal text), with originalAmount. */
  readonly exchangeRate?: string | undefined;
  readonly merchantCategoryCode?: string | undefined;
  readonly transactionDetails?: string | undefined;
}

/**
 * Ledger account ids of the sandbox's own side of every posting, per TPP: the clearing account
 * takes the counterparty leg of mock transactions and payments, the adjustment account the other
 * leg of opening balances and balance updates, the fee account the fees charged with payments.
 */
export function sandboxSystemAccount(tppId: string, kind: 'clearing' | 'adjustment' | 'fees'): string {
  return `sandbox-system:${tppId}:${kind}`;
}
