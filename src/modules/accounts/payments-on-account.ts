import type { AccountReference } from '../../bank/core-banking.port.js';
import type { DbOrTx } from '../../db/create-db.js';
import type { IsoDate } from '../../domain/iso-date.js';
import { parseAmount, type Money } from '../../domain/money.js';
import { convertMinor, type NokRates } from '../../domain/regulatory-reporting.js';
import type { TransactionStatus } from '../payments/payment-status.js';
import type { PaymentStore } from '../payments/payment-store.js';
import type { Payment } from '../payments/payment.model.js';
import type { AccountReference as PaymentAccountReference, StructuredRemittance } from '../payments/payment.schemas.js';
import type { RemittanceReference, StandingOrderEntry, StatementEntry } from './transaction-views.js';

/*
 * What the payments made through this server add to an account's statement (docs/design.md §2b),
 * whichever TPP initiated them (at a real bank TPPs share the PSU's account; in the sandbox an
 * account is one TPP's): approved payments the bank has not executed yet are pending lines (with
 * the id the bank's booked line will have: the payment id, `-<n>` for a bulk's n-th payment),
 * active periodic payments are standing orders, and a booked line that executed one of them gets
 * the payment's end-to-end id, remittance and creditor where the bank's own line lacks them.
 */

/** Approved and not yet handed to the bank (ACSP and later: the bank's statement shows them). */
const NOT_YET_EXECUTED: readonly TransactionStatus[] = ['ACTC', 'PDNG', 'ACCP'];
/** A periodic payment is a standing order from its approval until it ends or is cancelled. */
const STANDING: readonly TransactionStatus[] = ['ACTC', 'PDNG', 'ACCP', 'ACSP'];

/** One transfer a payment makes: a single or periodic payment's one, or one of a bulk's. */
interface Transfer {
  readonly id: string;
  readonly amount: Money;
  readonly creditorName: string;
  readonly creditorAccount: AccountReference | undefined;
  readonly endToEndId: string | undefined;
  readonly remittanceUnstructured: string | undefined;
  readonly remittanceReferences: readonly RemittanceReference[] | undefined;
}

interface TransferFields {
  readonly instructedAmount: { readonly currency: string; readonly amount: string };
  readonly creditorName: string;
  readonly creditorAccount: PaymentAccountReference;
  readonly endToEndIdentification?: string | undefined;
  readonly remittanceInformationUnstructured?: string | undefined;
  /** (A KID sent in the deprecated single `remittanceInformationStructured` is stored here: payment-document.ts.) */
  readonly remittanceInformationStructuredArray?: readonly StructuredRemittance[] | undefined;
}

function referenceOf(reference: PaymentAccountReference): AccountReference | undefined {
  if (reference.iban !== undefined) return { iban: reference.iban };
  return reference.bban === undefined ? undefined : { bban: reference.bban };
}

function transferOf(id: string, fields: TransferFields): Transfer | undefined {
  const amount = parseAmount(fields.instructedAmount.amount, fields.instructedAmount.currency);
  if (!amount.ok) return undefined;
  const structured = fields.remittanceInformationStructuredArray ?? [];
  return {
    id,
    amount: amount.value,
    creditorName: fields.creditorName,
    creditorAccount: referenceOf(fields.creditorAccount),
    endToEndId: fields.endToEndIdentification,
    remittanceUnstructured: fields.remittanceInformationUnstructured,
    remittanceReferences:
      structured.length === 0
        ? undefined
        : structured.map((item) => ({ reference: item.reference, referenceType: item.referenceType ?? 'SCOR' })),
  };
}

/** The transfers of a payment, by the transaction ids the bank books them under. */
function transfersOf(payment: Payment): Transfer[] {
  switch (payment.service) {
    case 'payments':
    case 'periodic-payments': {
      const transfer = transferOf(payment.id, payment.body);
      return transfer ? [transfer] : [];
    }
    case 'bulk-payments':
      return payment.body.payments.flatMap((item, index) => transferOf(`${payment.id}-${index + 1}`, item) ?? []);
  }
}

/** The day it is due: its requested date, else the bank's today (the next batch run executes it). */
function executionDateOf(payment: Payment, today: IsoDate): IsoDate {
  const requested = payment.service === 'bulk-payments' || payment.service === 'payments' ? payment.body.requestedExecutionDate : undefined;
  return requested !== undefined && requested > today ? requested : today;
}

function pendingEntry(payment: Payment, transfer: Transfer, today: IsoDate): StatementEntry {
  const date = executionDateOf(payment, today);
  return {
    id: transfer.id,
    status: 'pending',
    bookingDate: date,
    valueDate: date,
    amount: { minor: -transfer.amount.minor, currency: transfer.amount.currency },
    counterpartyName: transfer.creditorName,
    counterpartyAccount: transfer.creditorAccount,
    remittanceUnstructured: transfer.remittanceUnstructured,
    remittanceReferences: transfer.remittanceReferences,
    endToEndId: transfer.endToEndId,
  };
}

/** The payment id a transaction id of ours names (a bulk's n-th payment ends in `-<n>`). */
function paymentIdOf(transactionId: string): string {
  return /^(.+)-[1-9][0-9]{0,3}$/.exec(transactionId)?.[1] ?? transactionId;
}

export interface PaymentsOnAccount {
  /** The approved payments from the account not yet executed: their ids and their pending lines, due `today` at the earliest. */
  pending(db: DbOrTx, bankAccountId: string, today: IsoDate): Promise<{ paymentIds: string[]; entries: StatementEntry[] }>;
  /**
   * What those same pending lines take off the account, in its currency (positive): the sum of
   * the approved, not yet executed payments from it, which the bank does not know of yet. A
   * payment in another currency counts at the rate table's value (the sandbox bank debits it so).
   */
  pendingDebit(db: DbOrTx, account: { readonly id: string; readonly currency: string }): Promise<bigint>;
  /** The pending lines of these payments from the account, whatever their status now (a snapshot's). */
  pendingOf(db: DbOrTx, bankAccountId: string, paymentIds: readonly string[], today: IsoDate): Promise<StatementEntry[]>;
  /** One not yet executed payment's pending line, by its transaction id. */
  pendingById(db: DbOrTx, bankAccountId: string, transactionId: string, today: IsoDate): Promise<StatementEntry | undefined>;
  /** The account's standing orders: its active periodic payments. */
  standingOrders(db: DbOrTx, bankAccountId: string): Promise<StandingOrderEntry[]>;
  /**
   * Bank lines that executed our payments, with what the payment says where the bank's line is
   * silent; `debtorNameOf` names the payer of a payment credited to this account.
   */
  describe(
    db: DbOrTx,
    entries: readonly (StatementEntry & { readonly paymentId?: string | undefined })[],
    debtorNameOf: (debtorAccountId: string) => Promise<string | undefined>,
  ): Promise<StatementEntry[]>;
}

export function paymentsOnAccount(store: PaymentStore, rates: NokRates): PaymentsOnAccount {
  const pendingLines = (payments: readonly Payment[], bankAccountId: string, today: IsoDate) =>
    payments
      .filter((payment) => payment.debtorAccountId === bankAccountId && payment.service !== 'periodic-payments')
      .flatMap((payment) => transfersOf(payment).map((transfer) => pendingEntry(payment, transfer, today)));

  /** The payments whose transfers are the account's pending lines (a periodic payment's are standing orders). */
  const notYetExecuted = async (db: DbOrTx, bankAccountId: string) =>
    (await store.listOnDebtorAccount(db, bankAccountId, NOT_YET_EXECUTED)).filter((payment) => payment.service !== 'periodic-payments');

  return {
    async pending(db, bankAccountId, today) {
      const executable = await notYetExecuted(db, bankAccountId);
      return { paymentIds: executable.map((payment) => payment.id), entries: pendingLines(executable, bankAccountId, today) };
    },

    async pendingDebit(db, account) {
      let debit = 0n;
      for (const payment of await notYetExecuted(db, account.id)) {
        for (const transfer of transfersOf(payment)) {
          // Without a rate the bank cannot execute it (it rejects the payment): nothing to hold.
          debit += convertMinor(transfer.amount, account.currency, rates) ?? 0n;
        }
      }
      return debit;
    },

    async pendingOf(db, bankAccountId, paymentIds, today) {
      // pendingLines keeps those from this account: an id names no other account's payment here.
      return pendingLines(await store.findManyByIdOfAnyTpp(db, paymentIds), bankAccountId, today);
    },

    async pendingById(db, bankAccountId, transactionId, today) {
      const [payment] = await store.findManyByIdOfAnyTpp(db, [paymentIdOf(transactionId)]);
      if (!payment || !NOT_YET_EXECUTED.includes(payment.status)) return undefined;
      return pendingLines([payment], bankAccountId, today).find((entry) => entry.id === transactionId);
    },

    async standingOrders(db, bankAccountId) {
      const payments = await store.listOnDebtorAccount(db, bankAccountId, STANDING);
      return payments.flatMap((payment): StandingOrderEntry[] => {
        if (payment.service !== 'periodic-payments') return [];
        const transfer = transferOf(payment.id, payment.body);
        if (!transfer) return [];
        return [
          {
            id: payment.id,
            amount: { minor: -transfer.amount.minor, currency: transfer.amount.currency },
            counterpartyName: transfer.creditorName,
            counterpartyAccount: transfer.creditorAccount,
            remittanceUnstructured: transfer.remittanceUnstructured,
            remittanceReferences: transfer.remittanceReferences,
            endToEndId: transfer.endToEndId,
            startDate: payment.body.startDate,
            endDate: payment.body.endDate,
            frequency: payment.body.frequency,
            executionRule: payment.body.executionRule,
            dayOfExecution: payment.body.dayOfExecution,
            monthsOfExecution: payment.body.monthsOfExecution,
          },
        ];
      });
    },

    async describe(db, entries, debtorNameOf) {
      const ids = [...new Set(entries.flatMap((entry) => (entry.paymentId === undefined ? [] : [entry.paymentId])))];
      // The bank's lines of the account name the payments they executed, whoever initiated them.
      const payments = new Map((await store.findManyByIdOfAnyTpp(db, ids)).map((payment) => [payment.id, payment]));
      const described: StatementEntry[] = [];
      for (const entry of entries) {
        const payment = entry.paymentId === undefined ? undefined : payments.get(entry.paymentId);
        const transfer = payment && transfersOf(payment).find((candidate) => candidate.id === entry.id);
        if (!payment || !transfer) {
          described.push(entry);
          continue;
        }
        const credited = entry.amount.minor > 0n;
        described.push({
          ...entry,
          counterpartyName: entry.counterpartyName ?? (credited ? await debtorNameOf(payment.debtorAccountId) : transfer.creditorName),
          counterpartyAccount: entry.counterpartyAccount ?? (credited ? referenceOf(payment.body.debtorAccount) : transfer.creditorAccount),
          remittanceUnstructured: entry.remittanceUnstructured ?? transfer.remittanceUnstructured,
          remittanceReferences: entry.remittanceReferences ?? transfer.remittanceReferences,
          endToEndId: entry.endToEndId ?? transfer.endToEndId,
        });
      }
      return described;
    },
  };
}
