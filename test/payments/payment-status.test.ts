/**
 * The payment status model (docs/design.md §3): the transition table as a full matrix against the legal
 * set written out here (so any change to the table shows up in review), final statuses with no
 * way out, what a DELETE does in every status, what each status allows (the operations table as a
 * full matrix against a literal one, and consistent with the transitions), and LIVE_STATUSES as
 * the complement of FINAL_STATUSES.
 */
import { describe, expect, it } from 'vitest';
import {
  allows,
  cancellationRule,
  canTransition,
  FINAL_STATUSES,
  isTransactionStatus,
  LIVE_STATUSES,
  PAYMENT_OPERATIONS,
  statusesAllowing,
  TRANSACTION_STATUSES,
  type CancellationRule,
  type PaymentOperation,
  type TransactionStatus,
} from '../../src/modules/payments/payment-status.js';

const ALL = ['RCVD', 'PATC', 'ACTC', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACCC', 'PART', 'RJCT', 'CANC'] as const;

/** The legal transitions, written out literally. */
const LEGAL: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  RCVD: ['PATC', 'ACTC', 'PDNG', 'ACSC', 'RJCT', 'CANC'],
  PATC: ['ACTC', 'PDNG', 'ACSC', 'RJCT', 'CANC'],
  ACTC: ['ACSP', 'ACCP', 'RJCT', 'CANC'],
  PDNG: ['ACSP', 'ACCP', 'RJCT'],
  ACCP: ['ACSP', 'RJCT', 'CANC'],
  ACSP: ['ACSC', 'ACCC', 'PART', 'RJCT'],
  ACSC: ['ACCC'],
  ACCC: [],
  PART: [],
  RJCT: [],
  CANC: [],
};

const FINAL = ['ACSC', 'ACCC', 'PART', 'RJCT', 'CANC'] as const;
const LIVE = ['RCVD', 'PATC', 'ACTC', 'PDNG', 'ACCP', 'ACSP'] as const;

const CANCELLATION: Readonly<Record<TransactionStatus, CancellationRule>> = {
  RCVD: 'cancel-now',
  PATC: 'needs-authorisation',
  ACTC: 'needs-authorisation',
  ACCP: 'needs-authorisation',
  PDNG: 'refused',
  // Being executed by the batch run: neither pending nor final, and not cancellable.
  ACSP: 'refused',
  ACSC: 'refused',
  ACCC: 'refused',
  PART: 'refused',
  RJCT: 'refused',
  CANC: 'refused',
};

function targets(from: TransactionStatus): TransactionStatus[] {
  return TRANSACTION_STATUSES.filter((to) => canTransition(from, to));
}

describe('transaction statuses', () => {
  it('are the eleven Berlin Group statuses the bank uses, in order', () => {
    expect([...TRANSACTION_STATUSES]).toEqual([...ALL]);
  });

  it('recognises exactly those as statuses', () => {
    for (const status of ALL) expect(isTransactionStatus(status)).toBe(true);
    for (const other of ['ACWC', 'ACWP', 'ACFC', 'rcvd', '', 'RCVD ']) expect(isTransactionStatus(other)).toBe(false);
  });
});

describe('canTransition', () => {
  const matrix = ALL.flatMap((from) => ALL.map((to) => ({ from, to, legal: LEGAL[from].includes(to) })));

  it.each(matrix)('$from → $to is legal: $legal', ({ from, to, legal }) => {
    expect(canTransition(from, to)).toBe(legal);
  });

  it('never moves a payment to the status it already has', () => {
    for (const status of ALL) expect(canTransition(status, status)).toBe(false);
  });

  it('never moves a payment back to RCVD', () => {
    for (const status of ALL) expect(canTransition(status, 'RCVD')).toBe(false);
  });

  it('reaches every status from RCVD', () => {
    const reached = new Set<TransactionStatus>(['RCVD']);
    const queue: TransactionStatus[] = ['RCVD'];
    for (let status = queue.shift(); status !== undefined; status = queue.shift()) {
      for (const next of targets(status)) {
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    expect([...reached].sort()).toEqual([...ALL].sort());
  });

  it.each(LIVE)('lets a live payment in %s still end in RJCT', (status) => {
    expect(canTransition(status, 'RJCT')).toBe(true);
  });
});

describe('final statuses', () => {
  it('are ACSC, ACCC, PART, RJCT and CANC', () => {
    expect([...FINAL_STATUSES].sort()).toEqual([...FINAL].sort());
  });

  it.each(FINAL)('%s has no way out, except ACSC to ACCC (the creditor side confirmed too)', (status) => {
    expect(targets(status)).toEqual(status === 'ACSC' ? ['ACCC'] : []);
  });
});

describe('cancellationRule', () => {
  it.each(ALL.map((status) => ({ status, rule: CANCELLATION[status] })))('$status: $rule', ({ status, rule }) => {
    expect(cancellationRule(status)).toBe(rule);
  });

  it.each(FINAL)('refuses to cancel a payment in final status %s', (status) => {
    expect(cancellationRule(status)).toBe('refused');
  });

  it.each(ALL)('allows a cancellation in %s exactly when the table lets it move to CANC', (status) => {
    expect(cancellationRule(status) !== 'refused').toBe(canTransition(status, 'CANC'));
  });
});

describe('allows', () => {
  const OPERATIONS = ['approve', 'put-in-basket', 'cancel', 'authorise-cancellation', 'execute'] as const;

  /** What each status allows, written out literally. */
  const ALLOWED: Readonly<Record<TransactionStatus, readonly PaymentOperation[]>> = {
    RCVD: ['approve', 'put-in-basket', 'cancel'],
    PATC: ['approve', 'authorise-cancellation'],
    ACTC: ['authorise-cancellation', 'execute'],
    PDNG: ['execute'],
    ACCP: ['authorise-cancellation', 'execute'],
    ACSP: [],
    ACSC: [],
    ACCC: [],
    PART: [],
    RJCT: [],
    CANC: [],
  };

  const matrix = ALL.flatMap((status) =>
    OPERATIONS.map((operation) => ({ status, operation, allowed: ALLOWED[status].includes(operation) })),
  );

  it('knows exactly these operations', () => {
    expect([...PAYMENT_OPERATIONS]).toEqual([...OPERATIONS]);
    expect(matrix).toHaveLength(55);
  });

  it.each(matrix)('$status allows $operation: $allowed', ({ status, operation, allowed }) => {
    expect(allows(status, operation)).toBe(allowed);
  });

  it.each(OPERATIONS)('lists the statuses allowing %s in status order', (operation) => {
    expect(statusesAllowing(operation)).toEqual(ALL.filter((status) => ALLOWED[status].includes(operation)));
  });

  it.each(ALL)('allows in %s only what the transitions let happen', (status) => {
    if (allows(status, 'approve')) expect(canTransition(status, 'ACTC') && canTransition(status, 'RJCT')).toBe(true);
    if (allows(status, 'cancel') || allows(status, 'authorise-cancellation')) expect(canTransition(status, 'CANC')).toBe(true);
    if (allows(status, 'execute')) expect(canTransition(status, 'ACSP')).toBe(true);
    // A basket takes only a payment nobody has approved: its approval is the payment's first.
    if (allows(status, 'put-in-basket')) expect(allows(status, 'approve') && allows(status, 'cancel')).toBe(true);
  });

  it.each(ALL)('never both cancels %s at once and asks for a cancellation authorisation', (status) => {
    expect(allows(status, 'cancel') && allows(status, 'authorise-cancellation')).toBe(false);
  });

  it.each(FINAL)('allows nothing in final status %s', (status) => {
    expect(OPERATIONS.filter((operation) => allows(status, operation))).toEqual([]);
  });

  it('agrees with cancellationRule', () => {
    for (const status of ALL) {
      const rule = allows(status, 'cancel') ? 'cancel-now' : allows(status, 'authorise-cancellation') ? 'needs-authorisation' : 'refused';
      expect(cancellationRule(status)).toBe(rule);
    }
  });
});

describe('LIVE_STATUSES', () => {
  it('are RCVD, PATC, ACTC, PDNG, ACCP and ACSP', () => {
    expect([...LIVE_STATUSES]).toEqual([...LIVE]);
  });

  it('are exactly the statuses that are not final', () => {
    expect(LIVE_STATUSES.filter((status) => FINAL_STATUSES.has(status))).toEqual([]);
    expect([...LIVE_STATUSES, ...FINAL_STATUSES].sort()).toEqual([...TRANSACTION_STATUSES].sort());
    expect(new Set(LIVE_STATUSES).size).toBe(LIVE_STATUSES.length);
  });
});
