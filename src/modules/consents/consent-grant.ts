import type { AccessKind } from './consent-access.js';

/** An account or card account a PSU granted access to, with what may be read of it. */
export interface GrantedAccount {
  /** The bank's own id (core-banking port); never shown to a TPP. */
  readonly bankAccountId: string;
  readonly type: 'account' | 'card';
  /** Details are readable whenever any access is granted; balances and transactions only when listed. */
  readonly kinds: readonly AccessKind[];
  readonly ownerName: boolean;
  /** How `GET /v1/consents/{id}` names it: IBAN, or masked PAN for a card account. */
  readonly reference: { readonly iban: string; readonly currency: string } | { readonly maskedPan: string; readonly currency: string };
}

/**
 * What an approved consent lets the TPP read, fixed at the PSU's approval: the accounts, and for an
 * account-list consent only the list (with balances when it asked for them).
 */
export interface Grant {
  readonly accounts: readonly GrantedAccount[];
  readonly listOnly?: { readonly withBalance: boolean } | undefined;
}
