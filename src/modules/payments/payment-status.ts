/**
 * The payment status model (docs/design.md §3) and the one table of legal transitions. Every status
 * change goes through {@link checkTransition}; the service writes it with its audit event in one
 * transaction.
 */
export const TRANSACTION_STATUSES = ['RCVD', 'PATC', 'ACTC', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACCC', 'PART', 'RJCT', 'CANC'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

const TRANSITIONS: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  // Received: the PSU approves (ACTC), a first of several approvers approves (PATC), an approved
  // future-dated payment waits (PDNG), an instant payment settles (ACSC); SCA failure or expiry
  // rejects; the TPP cancels before approval.
  RCVD: ['PATC', 'ACTC', 'PDNG', 'ACSC', 'RJCT', 'CANC'],
  PATC: ['ACTC', 'PDNG', 'ACSC', 'RJCT', 'CANC'],
  // Approved: the batch run takes it (ACSP) or finds no funds (ACCP); a cancellation authorisation cancels it.
  ACTC: ['ACSP', 'ACCP', 'RJCT', 'CANC'],
  // Future-dated and approved: taken by the batch run of its date; a DELETE is refused (docs/design.md §2).
  PDNG: ['ACSP', 'ACCP', 'RJCT'],
  ACCP: ['ACSP', 'RJCT', 'CANC'],
  // Bulk payments end PART when some of their payments fail.
  ACSP: ['ACSC', 'ACCC', 'PART', 'RJCT'],
  ACSC: ['ACCC'],
  ACCC: [],
  PART: [],
  RJCT: [],
  CANC: [],
};

/**
 * Statuses after which the payment is neither executed nor cancelled any more: done, or dead.
 * Only ACSC may still become ACCC, when the bank learns the creditor was credited too.
 */
export const FINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'ACCC', 'PART', 'RJCT', 'CANC']);

/** Statuses of a payment that may still be executed: a logical duplicate of one of these is refused (docs/design.md §2). */
export const LIVE_STATUSES: readonly TransactionStatus[] = TRANSACTION_STATUSES.filter((status) => !FINAL_STATUSES.has(status));

export function isTransactionStatus(value: string): value is TransactionStatus {
  return (TRANSACTION_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** What a DELETE of the payment does in its current status (docs/design.md §2). */
export type CancellationRule = 'cancel-now' | 'needs-authorisation' | 'refused';

export function cancellationRule(status: TransactionStatus): CancellationRule {
  if (status === 'RCVD') return 'cancel-now';
  // Approved (fully or by some of several approvers) but not yet executed.
  if (status === 'ACTC' || status === 'PATC' || status === 'ACCP') return 'needs-authorisation';
  // PDNG: the bank has taken the payment into its queue; final states cannot be undone.
  return 'refused';
}
