import { randomUUID } from 'node:crypto';
import type { AccountReference } from '../../bank/core-banking.port.js';
import { checkKid } from '../../domain/kid.js';
import { localized } from '../../domain/localized.js';
import { accountRepository } from './account.repository.js';
import type { AccountService } from './account.service.js';
import type { SandboxAccount, SandboxCaller, SandboxTransaction } from './sandbox-bank.model.js';
import { amountIn, counterpartyAccount, notFuture, refuse, valid } from './sandbox-checks.js';
import { addDays } from './sandbox-dates.js';
import { audit, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';
import { asSandboxTransactions, generateTransactions, type TransactionProfile } from './transaction-generator.js';
import { transactionRepository } from './transaction.repository.js';
import type { FillRequest, NewTransaction } from './transaction.schemas.js';

export interface FillResult {
  readonly account: SandboxAccount;
  readonly seed: string;
  readonly profile: TransactionProfile;
  readonly transactions: readonly SandboxTransaction[];
}

/** How far ahead a pending item may be expected to be booked. */
const PENDING_DAYS_AHEAD = 30;

/** A pending item's date: the day it is expected to be booked, from today up to 30 days ahead. */
function pendingDate(date: string, today: string, path: string): void {
  const latest = addDays(today, PENDING_DAYS_AHEAD);
  if (date < today || date > latest) {
    refuse(
      path,
      localized(
        `of a pending transaction is the day it is expected to be booked: from today (${today}) to ${latest}, got ${date}`,
        `for en reservert transaksjon er dagen den ventes bokført: fra i dag (${today}) til ${latest}, men er ${date}`,
      ),
    );
  }
}

function isAccount(reference: AccountReference, account: SandboxAccount): boolean {
  return 'iban' in reference ? reference.iban === account.iban : reference.bban === account.bban;
}

/**
 * Mock account transactions (`POST /v1/sandbox/accounts/{mockAccountId}/transactions`): booked,
 * dated today or earlier, or pending (`bookingStatus: "pending"`), dated from today up to 30 days
 * ahead (when it is expected to be booked); the booking date never after the value date, in the account's
 * currency, and with the mock account on the right side: the debtor of a debit, the creditor of a
 * credit. The counterparty's side is posted to the TPP's clearing account.
 */
/**
 * A mock transaction's KID, sent in `remittanceInformationStructuredArray` (one entry) or in the
 * deprecated `remittanceInformationStructured`, never both, and never with a text: a line carries
 * a KID or a message.
 */
function kidOf(input: NewTransaction): string | undefined {
  const single = input.remittanceInformationStructured;
  const array = input.remittanceInformationStructuredArray;
  if (single !== undefined && array !== undefined) {
    refuse(
      'remittanceInformationStructuredArray',
      localized(
        'may not be sent together with remittanceInformationStructured, which it replaces (deprecated): send the KID in the array only',
        'kan ikke sendes sammen med remittanceInformationStructured, som den erstatter (foreldet): send KID-en bare i listen',
      ),
    );
  }
  const field = single !== undefined ? 'remittanceInformationStructured' : 'remittanceInformationStructuredArray';
  const entry = single ?? array?.[0];
  if (entry === undefined) return undefined;
  if (input.remittanceInformationUnstructured !== undefined) {
    refuse(
      field,
      localized(
        'and remittanceInformationUnstructured exclude each other: give a KID or a text',
        'og remittanceInformationUnstructured utelukker hverandre: oppgi KID eller tekst',
      ),
    );
  }
  return valid(checkKid(entry.reference), single !== undefined ? `${field}.reference` : `${field}[0].reference`).kid;
}

export function createTransactionService({ db, bookkeeping, now, today: todayOf }: SandboxDeps, accounts: AccountService) {
  async function book(
    caller: SandboxCaller,
    account: SandboxAccount,
    items: readonly SandboxTransaction[],
    action: string,
    resourceId: string,
  ) {
    const at = now().toISOString();
    await inSandbox(db, caller, at, async (trx) => {
      // Still there under the lock: an initialize may have wiped it since it was read.
      if (!(await accountRepository.lock(trx, caller.tppId, account.id))) {
        unknown('mockAccountId', localized(`your sandbox has no account ${account.id}`, `sandkassen din har ingen konto ${account.id}`));
      }
      await bookkeeping.bookTransactions(trx, caller.tppId, items, at);
      await audit(trx, caller, action, { type: 'sandbox-transaction', id: resourceId }, at, { count: items.length });
    });
  }

  return {
    async create(
      caller: SandboxCaller,
      accountId: string,
      input: NewTransaction,
    ): Promise<{ account: SandboxAccount; transaction: SandboxTransaction }> {
      const account = await accounts.find(caller, accountId);
      const today = await todayOf(caller.tppId);
      const status = input.bookingStatus ?? 'booked';
      if (status === 'booked') {
        notFuture(input.bookingDate, today, 'bookingDate');
        notFuture(input.valueDate, today, 'valueDate');
      } else {
        pendingDate(input.bookingDate, today, 'bookingDate');
        pendingDate(input.valueDate, today, 'valueDate');
      }
      if (input.bookingDate > input.valueDate) {
        refuse(
          'bookingDate',
          localized(
            `must not be after valueDate (${input.valueDate}), got ${input.bookingDate}`,
            `kan ikke være etter valueDate (${input.valueDate}), men er ${input.bookingDate}`,
          ),
        );
      }
      const amount = amountIn(input.transactionAmount, account.currency, 'transactionAmount');
      if (amount.minor === 0n) {
        refuse(
          'transactionAmount.amount',
          localized(
            'must not be zero: negative is a debit, positive a credit',
            'kan ikke være null: negativt er en belastning, positivt en godskrivning',
          ),
        );
      }
      const debit = amount.minor < 0n;
      const own = debit ? input.debtorAccount : input.creditorAccount;
      const ownPath = debit ? 'debtorAccount' : 'creditorAccount';
      const ownReference = own && counterpartyAccount(own, ownPath);
      if (ownReference && !isAccount(ownReference, account)) {
        refuse(
          ownPath,
          debit
            ? localized(
                `must be the mock account ${account.iban} itself: the mock account must be the debtor of a debit (negative amount); name the other party as creditorAccount`,
                `må være mock-kontoen ${account.iban} selv: mock-kontoen må være debitor for en belastning (negativt beløp); oppgi motparten som creditorAccount`,
              )
            : localized(
                `must be the mock account ${account.iban} itself: the mock account must be the creditor of a credit (positive amount); name the other party as debtorAccount`,
                `må være mock-kontoen ${account.iban} selv: mock-kontoen må være kreditor for en godskrivning (positivt beløp); oppgi motparten som debtorAccount`,
              ),
        );
      }
      const other = debit ? input.creditorAccount : input.debtorAccount;
      const counterparty = other && counterpartyAccount(other, debit ? 'creditorAccount' : 'debtorAccount');
      const kid = kidOf(input);
      const transaction: SandboxTransaction = {
        id: randomUUID(),
        accountId: account.id,
        status,
        bookingDate: input.bookingDate,
        valueDate: input.valueDate,
        amount,
        counterpartyName: debit ? input.creditorName : input.debtorName,
        counterpartyAccount: counterparty,
        remittanceUnstructured: input.remittanceInformationUnstructured,
        remittanceReference: kid,
      };
      await book(caller, account, [transaction], 'sandbox.transaction.created', transaction.id);
      return { account, transaction };
    },

    /** Data fill: `count` realistic transactions, the same for the same seed and request. */
    async fill(caller: SandboxCaller, accountId: string, input: FillRequest): Promise<FillResult> {
      const account = await accounts.find(caller, accountId);
      const today = await todayOf(caller.tppId);
      notFuture(input.dateFrom, today, 'dateFrom');
      notFuture(input.dateTo, today, 'dateTo');
      if (input.dateFrom > input.dateTo) {
        refuse('dateFrom', localized(`must not be after dateTo (${input.dateTo})`, `kan ikke være etter dateTo (${input.dateTo})`));
      }
      const seed = input.seed ?? account.bban;
      const profile = input.profile ?? (account.owner.customerType === 'CORPORATE' ? 'corporate' : 'private');
      const generated = generateTransactions({ ...input, seed, profile, currency: account.currency });
      const transactions = asSandboxTransactions(account.id, account.currency, generated);
      await book(caller, account, transactions, 'sandbox.transactions.filled', account.id);
      return { account, seed, profile, transactions };
    },

    async list(caller: SandboxCaller, accountId: string): Promise<{ account: SandboxAccount; transactions: SandboxTransaction[] }> {
      const account = await accounts.find(caller, accountId);
      return { account, transactions: await transactionRepository.listForAccount(db, caller.tppId, account.id) };
    },

    async get(caller: SandboxCaller, accountId: string, id: string): Promise<{ account: SandboxAccount; transaction: SandboxTransaction }> {
      const account = await accounts.find(caller, accountId);
      const transaction = await transactionRepository.findById(db, caller.tppId, account.id, id);
      if (!transaction) {
        unknown(
          'transactionId',
          localized(`account ${accountId} has no transaction ${id}`, `konto ${accountId} har ingen transaksjon ${id}`),
        );
      }
      return { account, transaction };
    },
  };
}

export type TransactionService = ReturnType<typeof createTransactionService>;
