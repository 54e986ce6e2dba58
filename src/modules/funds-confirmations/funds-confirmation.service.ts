import type { AccountReference, CoreBanking } from '../../bank/core-banking.port.js';
import { checkNorwegianBban } from '../../domain/bban.js';
import { checkIban } from '../../domain/iban.js';
import { localized } from '../../domain/localized.js';
import { parseAmount } from '../../domain/money.js';
import { AppError } from '../../errors/app-error.js';
import type { FundsConfirmationBody } from './funds-confirmation.schemas.js';

export interface FundsConfirmationService {
  /** Whether the amount can be debited from the account now (docs/design.md §2b). */
  confirm(tppId: string, body: FundsConfirmationBody): Promise<{ fundsAvailable: boolean }>;
}

/**
 * `POST /v1/funds-confirmations`: the bank's funds check on an account, by BBAN or IBAN. No
 * consent is needed (Berlin Group 1.3); an account that is not the bank's is 404 RESOURCE_UNKNOWN.
 */
export function createFundsConfirmationService(coreBanking: CoreBanking): FundsConfirmationService {
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
      return { fundsAvailable: await coreBanking.fundsAvailable({ tppId }, reference, amount.value) };
    },
  };
}
