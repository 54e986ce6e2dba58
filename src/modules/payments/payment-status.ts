/**
 * The payment status model (docs/design.md §3): the one table of legal transitions, and the one
 * table of what a payment's status allows to be done to it. Every status change goes through
 * {@link canTransition} (payment-transition.ts writes it with its audit event in one transaction);
 * every "may this payment be approved, cancelled, executed…" asks {@link allows}.
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

/**
 * What may be done to a payment, by its status alone (docs/design.md §2, §3); other conditions
 * (the PSU's rights, an open signing basket, a submission in flight) are the callers' to check.
 * - approve: it waits for (more) approval: an authorisation may be started for it, and a PSU's
 *   approval (its own authorisation's, or its signing basket's) moves it on; a failed one rejects it.
 * - put-in-basket: a signing basket may take it: nobody has approved it yet.
 * - cancel: a DELETE cancels it at once.
 * - authorise-cancellation: a DELETE needs the PSU's cancellation authorisation, which may be
 *   started and, once approved, cancels it.
 * - execute: a batch run executes it once its date has come.
 */
export const PAYMENT_OPERATIONS = ['approve', 'put-in-basket', 'cancel', 'authorise-cancellation', 'execute'] as const;
export type PaymentOperation = (typeof PAYMENT_OPERATIONS)[number];

const ALLOWED: Readonly<Record<TransactionStatus, readonly PaymentOperation[]>> = {
  RCVD: ['approve', 'put-in-basket', 'cancel'],
  // Approved by some of several approvers: still approvable, and cancelled only by the PSU.
  PATC: ['approve', 'authorise-cancellation'],
  ACTC: ['authorise-cancellation', 'execute'],
  // PDNG: the bank has taken the payment into its queue; a DELETE is refused (docs/design.md §2).
  PDNG: ['execute'],
  ACCP: ['authorise-cancellation', 'execute'],
  // Being executed, or final: nothing more is done to it.
  ACSP: [],
  ACSC: [],
  ACCC: [],
  PART: [],
  RJCT: [],
  CANC: [],
};

export function allows(status: TransactionStatus, operation: PaymentOperation): boolean {
  return ALLOWED[status].includes(operation);
}

/** The statuses in which `operation` is allowed (for a query that selects by status). */
export function statusesAllowing(operation: PaymentOperation): TransactionStatus[] {
  return TRANSACTION_STATUSES.filter((status) => allows(status, operation));
}

/** What a DELETE of the payment does in its current status (docs/design.md §2). */
export type CancellationRule = 'cancel-now' | 'needs-authorisation' | 'refused';

export function cancellationRule(status: TransactionStatus): CancellationRule {
  if (allows(status, 'cancel')) return 'cancel-now';
  if (allows(status, 'authorise-cancellation')) return 'needs-authorisation';
  return 'refused';
}
