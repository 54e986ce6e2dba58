import type { AccountReference, BankAccount, CoreBanking } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import { checkNorwegianBban } from '../../domain/bban.js';
import { referenceNamesCurrency } from '../../domain/currencies.js';
import { checkIban } from '../../domain/iban.js';
import { localized } from '../../domain/localized.js';
import { parseAmount, type Money } from '../../domain/money.js';
import { convertMinor, type NokRates } from '../../domain/regulatory-reporting.js';
import { AppError } from '../../errors/app-error.js';
import type { PaymentsOnAccount } from '../accounts/payments-on-account.js';
import type { FundsConfirmationBody } from './funds-confirmation.schemas.js';

export interface FundsConfirmationService {
  /** Whether the amount can be debited from the account now (docs/design.md §2b). */
  confirm(tppId: string, body: FundsConfirmationBody): Promise<{ fundsAvailable: boolean }>;
}

/**
 * `POST /v1/funds-confirmations`: the bank's funds check on an account, by BBAN or IBAN. No
 * consent is needed (Berlin Group 1.3); an account that is not the bank's is 404 RESOURCE_UNKNOWN,
 * and so is one named in a currency it is not held in (it names no account of the bank, as a
 * consent's reference would). Our approved payments from the account the bank has not executed yet
 * count as already spent. Card accounts are not checked: their references are refused by the
 * body's schema (funds-confirmation.schemas.ts).
 */
export function createFundsConfirmationService(
  db: Db,
  coreBanking: CoreBanking,
  payments: Pick<PaymentsOnAccount, 'pendingDebit'>,
  rates: NokRates,
): FundsConfirmationService {
  function referenceOf(account: FundsConfirmationBody['account']): AccountReference {
    if ((account.bban === undefined) === (account.iban === undefined)) {
      throw new AppError('FORMAT_ERROR', {
        path: 'account',
        detail: localized('name the account by bban or iban', 'oppgi kontoen med bban eller iban'),
      });
    }
    const checked = account.bban !== undefined ? checkNorwegianBban(account.bban) : checkIban(account.iban ?? '');
    if (!checked.ok) {
      throw new AppError('FORMAT_ERROR', { path: account.bban !== undefined ? 'account.bban' : 'account.iban', detail: checked.reason });
    }
    return account.bban !== undefined ? { bban: checked.value } : { iban: checked.value };
  }

  /**
   * The debit the bank is asked about: the amount and, on top, the approved payments from the
   * account (of any TPP) that the bank has not executed yet (the account's pending lines, which
   * expected and interimAvailable leave out too), in the account's currency. The amount as given when there are
   * none, or when it has no rate (the bank answers that, as it always did).
   */
  async function withHeld(account: BankAccount | undefined, amount: Money): Promise<Money> {
    if (account === undefined) return amount;
    const held = await payments.pendingDebit(db, account);
    if (held === 0n) return amount;
    const debit = convertMinor(amount, account.currency, rates);
    return debit === undefined ? amount : { minor: debit + held, currency: account.currency };
  }

  return {
    async confirm(tppId, body) {
      const reference = referenceOf(body.account);
      const amount = parseAmount(body.instructedAmount.amount, body.instructedAmount.currency);
      if (!amount.ok) throw new AppError('FORMAT_ERROR', { path: 'instructedAmount.amount', detail: amount.reason });
      if (amount.value.minor <= 0n) {
        throw new AppError('FORMAT_ERROR', {
          path: 'instructedAmount.amount',
          detail: localized('must be more than zero', 'må være større enn null'),
        });
      }
      const currency = body.account.currency;
      const account = await coreBanking.findAccount({ tppId }, reference);
      if (currency !== undefined && account !== undefined && !referenceNamesCurrency(currency, account.currency)) {
        throw new AppError('RESOURCE_UNKNOWN', {
          path: 'account.currency',
          detail: localized(`the bank holds no such account in ${currency}`, `banken har ingen slik konto i ${currency}`),
        });
      }
      // An account the bank does not know is the port's BankError `unknown-account`: 404 RESOURCE_UNKNOWN.
      return { fundsAvailable: await coreBanking.fundsAvailable({ tppId }, reference, await withHeld(account, amount.value)) };
    },
  };
}
