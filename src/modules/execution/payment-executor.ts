import type { DbOrTx } from '../../db/create-db.js';
import { bankDayOf } from '../../domain/batch-schedule.js';
import type { ActorType } from '../audit/audit.repository.js';
import { transitionPayment } from '../payments/payment-transition.js';
import { paymentRepository, type Payment } from '../payments/payment.repository.js';
import type { SandboxLedgerExecution, TransferResult } from '../sandbox/sandbox-core-banking.js';
import type { BatchOutcome } from './batch-run-report.js';
import { decideExecution, statusPath, type ExecutionDecision, type TransferOutcome } from './execution-decision.js';
import { transfersOf } from './payment-transfers.js';

export interface ExecutionContext {
  /** The TPP's bank date: the booking date, and the day a payment lacking funds waits on. */
  readonly today: string;
  /** No later run of this bank day will retry a payment lacking funds. */
  readonly lastChance: boolean;
  readonly at: string;
  readonly actor: { readonly type: ActorType; readonly id: string };
}

const OUTCOME_OF: Readonly<Record<ExecutionDecision['kind'], BatchOutcome>> = {
  executed: 'executed',
  'partially-executed': 'partiallyExecuted',
  'awaiting-funds': 'awaitingFunds',
  rejected: 'rejected',
};

/**
 * Moves a payment's money and its status by the result, in the caller's transaction (docs/design.md §3):
 * the postings and the status change commit together or not at all, and the postings' idempotency
 * keys make a second execution move nothing. The money moves through the sandbox's in-transaction
 * execution ({@link SandboxLedgerExecution}), not yet through the port's submitPayment.
 */
export function createPaymentExecutor(execution: SandboxLedgerExecution) {
  async function transferAll(trx: DbOrTx, payment: Payment, today: string): Promise<TransferOutcome[]> {
    const outcomes: TransferOutcome[] = [];
    // A bulk's payments in order, each funded or not by what the ones before it left.
    for (const transfer of transfersOf(payment, today)) {
      outcomes.push(outcomeOf(await execution.transfer(trx, { tppId: payment.tppId }, transfer)));
    }
    return outcomes;
  }

  async function apply(trx: DbOrTx, payment: Payment, decision: ExecutionDecision, context: ExecutionContext): Promise<Payment> {
    const path = statusPath(payment.status, decision);
    const to = path.at(-1);
    if (decision.kind === 'awaiting-funds' && payment.awaitingFundsSince === undefined) {
      await paymentRepository.setAwaitingFundsSince(trx, payment.id, bankDayOf(context.today));
    }
    if (to === undefined) return payment;
    return transitionPayment(trx, payment, {
      to,
      through: path.slice(0, -1),
      reason: reasonOf(decision),
      fundsAvailable: decision.kind === 'executed',
      actor: context.actor,
      at: context.at,
    });
  }

  return {
    /** A due payment (ACTC, PDNG or ACCP) in a batch run. */
    async execute(trx: DbOrTx, payment: Payment, context: ExecutionContext): Promise<BatchOutcome> {
      const lastChance = context.lastChance || (payment.awaitingFundsSince !== undefined && payment.awaitingFundsSince < context.today);
      const decision = decideExecution(await transferAll(trx, payment, context.today), { lastChance, today: context.today });
      await apply(trx, payment, decision, context);
      return OUTCOME_OF[decision.kind];
    },

    /**
     * An instant (Straks) payment at its approval: settled now (ACSC) or rejected now (RJCT, with
     * fundsAvailable false when funds were lacking). Never left waiting.
     */
    async settleInstant(trx: DbOrTx, payment: Payment, context: Omit<ExecutionContext, 'lastChance'>): Promise<Payment> {
      const outcomes = await transferAll(trx, payment, context.today);
      const decision = decideExecution(outcomes, { lastChance: true, today: context.today });
      if (decision.kind === 'executed') {
        return transitionPayment(trx, payment, { to: 'ACSC', fundsAvailable: true, actor: context.actor, at: context.at });
      }
      return transitionPayment(trx, payment, {
        to: 'RJCT',
        reason:
          outcomes[0] === 'insufficient-funds'
            ? 'Insufficient funds on the debtor account: the instant payment was not made'
            : reasonOf(decision),
        fundsAvailable: false,
        actor: context.actor,
        at: context.at,
      });
    },
  };
}

export type PaymentExecutor = ReturnType<typeof createPaymentExecutor>;

function outcomeOf(result: TransferResult): TransferOutcome {
  switch (result.kind) {
    case 'booked':
    case 'already-booked':
      return 'booked';
    case 'insufficient-funds':
      return 'insufficient-funds';
    case 'refused':
      return { refused: result.reason };
  }
}

function reasonOf(decision: ExecutionDecision): string | undefined {
  return decision.kind === 'partially-executed' || decision.kind === 'rejected' ? decision.reason : undefined;
}
