import { allows, type TransactionStatus } from '../payments/payment-status.js';

/** Berlin Group transactionStatus of a signing basket (transactionStatus_SBS, as this server uses it). */
export const BASKET_STATUSES = ['RCVD', 'PATC', 'ACTC', 'RJCT', 'CANC'] as const;
export type BasketStatus = (typeof BASKET_STATUSES)[number];

/** The statuses a payment counts as in its basket, worst first (docs/design.md §2). */
const WORST_FIRST = ['RJCT', 'RCVD', 'PATC', 'ACTC'] as const;
type Counted = (typeof WORST_FIRST)[number];

/** A cancelled payment counts as rejected; anything past ACTC (pending, settling, settled) as ACTC. */
const COUNTED_AS: Readonly<Record<TransactionStatus, Counted>> = {
  RJCT: 'RJCT',
  CANC: 'RJCT',
  RCVD: 'RCVD',
  PATC: 'PATC',
  ACTC: 'ACTC',
  PDNG: 'ACTC',
  ACCP: 'ACTC',
  ACSP: 'ACTC',
  ACSC: 'ACTC',
  ACCC: 'ACTC',
  PART: 'ACTC',
};

export function countedAs(status: TransactionStatus): Counted {
  return COUNTED_AS[status];
}

/**
 * A basket's status (the requirement: "only the worst case of the payments inside it"): the worst
 * of its payments' statuses in the order RJCT < RCVD < PATC < ACTC, computed on every read so it
 * can never disagree with them. A deleted basket is CANC whatever its payments do.
 */
export function basketStatusOf(paymentStatuses: readonly TransactionStatus[], deleted: boolean): BasketStatus {
  if (deleted) return 'CANC';
  const counted = new Set(paymentStatuses.map(countedAs));
  // A basket always holds at least one payment; were none found, nothing in it could be executed.
  return WORST_FIRST.find((status) => counted.has(status)) ?? 'RJCT';
}

/**
 * What may be done to a signing basket, by its payments' statuses and whether the TPP deleted it;
 * its own status is not enough (a basket holding a rejected payment and a received one is RJCT,
 * yet the received one still waits for approval).
 * - authorise: an authorisation may be started for it, and a PSU's approval of it moves its
 *   payments on: it is not deleted and a payment in it waits for approval.
 */
export type BasketOperation = 'authorise';

export function basketAllows(paymentStatuses: readonly TransactionStatus[], deleted: boolean, operation: BasketOperation): boolean {
  switch (operation) {
    case 'authorise':
      return !deleted && paymentStatuses.some((status) => allows(status, 'approve'));
  }
}
