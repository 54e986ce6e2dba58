import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { checkNorwegianIdentityNumber } from '../../domain/norwegian-identity-number.js';
import { AppError } from '../../errors/app-error.js';
import { FINAL_STATUSES } from '../payments/payment-status.js';
import { paymentStore } from '../payments/payment-store.js';
import { signingBasketStore } from '../signing-baskets/signing-basket-store.js';
import { accountRepository } from './account.repository.js';
import { customerRepository } from './customer.repository.js';
import type { NewCustomer } from './customer.schemas.js';
import type { SandboxCaller, SandboxCustomer } from './sandbox-bank.model.js';
import { sandboxBankRepository } from './sandbox-bank.repository.js';
import { valid } from './sandbox-checks.js';
import { alreadyExists, audit, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';

/**
 * Test customers (docs/design.md §6). The customer number is a national identity
 * number with valid check digits: it is the PSU-ID the customer logs in with at SCA.
 */
export function createCustomerService({ db, bookkeeping, now }: SandboxDeps) {
  async function find(caller: SandboxCaller, id: string): Promise<SandboxCustomer> {
    const customer = await customerRepository.findById(db, caller.tppId, id);
    if (!customer) unknown('customerId', localized(`your sandbox has no customer ${id}`, `sandkassen din har ingen kunde ${id}`));
    return customer;
  }

  return {
    async create(caller: SandboxCaller, input: NewCustomer): Promise<SandboxCustomer> {
      const customer: SandboxCustomer = {
        id: randomUUID(),
        customerNumber: valid(checkNorwegianIdentityNumber(input.customerNumber), 'customerNumber').number,
        customerType: input.customerType,
        name: input.customerName,
      };
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        if (!(await customerRepository.insert(trx, caller.tppId, customer, at))) {
          alreadyExists(
            'customerNumber',
            localized(
              `your sandbox already has customer ${customer.customerNumber}`,
              `sandkassen din har allerede kunde ${customer.customerNumber}`,
            ),
          );
        }
        await audit(trx, caller, 'sandbox.customer.created', { type: 'sandbox-customer', id: customer.id }, at);
      });
      return customer;
    },

    list: (caller: SandboxCaller) => customerRepository.list(db, caller.tppId),

    get: find,

    /**
     * Deletes the customer with everything that hangs on it (accounts, card accounts, their
     * transactions and ledger postings, its agreement and engagements, its engagements as a PSU):
     * the mock-data API has no account deletion, so these go along rather than hold it.
     *
     * The rule: deleting never changes another customer's balance or history. The customer's own
     * mock data (transactions, card transactions, opening balances and balance updates, all
     * against the TPP's clearing or adjustment account) goes with all its legs. A payment that
     * moved money between it and another account of the bank stays on that account's statement:
     * the deleted account's side moves to the TPP's clearing account, as if it had been at another
     * bank. And while money may still move for the customer, it is not deleted (409, nothing
     * changed): while it is the debtor or the PSU of a live payment (not ACSC, ACCC, PART, RJCT or
     * CANC), or the PSU of an open signing basket. A live payment TO it does not hold the deletion:
     * executed afterwards, its money leaves the bank through the clearing account. All of it in
     * one transaction under the sandbox lock, which batch runs take too before they move money.
     */
    async delete(caller: SandboxCaller, id: string): Promise<void> {
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        const customer = await customerRepository.findById(trx, caller.tppId, id);
        if (!customer) unknown('customerId', localized(`your sandbox has no customer ${id}`, `sandkassen din har ingen kunde ${id}`));
        await refuseWhileMoneyMayMove(trx, caller.tppId, customer);
        const removal = await sandboxBankRepository.removeCustomer(trx, caller.tppId, id);
        const postings = await bookkeeping.forget(trx, caller.tppId, removal.ledgerAccountIds);
        await audit(trx, caller, 'sandbox.customer.deleted', { type: 'sandbox-customer', id }, at, {
          customerNumber: customer.customerNumber,
          accounts: removal.accounts,
          cardAccounts: removal.cardAccounts,
          postingsRemoved: postings.removed,
          postingsMovedToClearing: postings.kept,
        });
      });
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;

/**
 * How many payments or baskets a refusal names before it says how many more there are: the
 * message is capped at 500 characters, and with two of each it stays below that in both languages.
 */
const NAMED = 2;

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED).join(', ');
  return items.length > NAMED ? `${shown} (+${items.length - NAMED})` : shown;
}

/**
 * 409 while money may still move for the customer: a live payment debits one of its accounts or
 * has it as the PSU, or it is the PSU of an undeleted signing basket holding a live payment.
 */
async function refuseWhileMoneyMayMove(trx: DbOrTx, tppId: string, customer: SandboxCustomer): Promise<void> {
  const accounts = await accountRepository.listOwnedBy(trx, tppId, customer.id);
  const payments = await paymentStore.listLiveOf(trx, tppId, {
    debtorAccountIds: accounts.map((account) => account.id),
    psuId: customer.customerNumber,
  });
  const baskets = await signingBasketStore.listUndeletedOfPsu(trx, tppId, customer.customerNumber);
  const held = await paymentStore.findManyById(
    trx,
    tppId,
    baskets.flatMap((basket) => basket.paymentIds),
  );
  const live = new Set(held.filter((payment) => !FINAL_STATUSES.has(payment.status)).map((payment) => payment.id));
  const open = baskets.filter((basket) => basket.paymentIds.some((paymentId) => live.has(paymentId)));
  if (payments.length === 0 && open.length === 0) return;
  const final = [...FINAL_STATUSES].join(', ');
  const listed = named(payments.map((payment) => `${payment.id} (${payment.status})`));
  const en: string[] = [];
  const nb: string[] = [];
  if (payments.length > 0) {
    en.push(`it has live payments ${listed}, not yet ${final}: cancel or execute them first`);
    nb.push(`den har betalinger under behandling ${listed}, ennå ikke ${final}: kanseller eller utfør dem først`);
  }
  if (open.length > 0) {
    const ids = named(open.map((basket) => basket.id));
    en.push(`it is the PSU of open signing baskets ${ids}: delete them first`);
    nb.push(`den er PSU for åpne signeringskurver ${ids}: slett dem først`);
  }
  throw new AppError('REFERENCE_STATUS_INVALID', {
    path: 'customerId',
    detail: localized(
      `customer ${customer.customerNumber} cannot be deleted while money may still move for it; ${en.join('; ')}`,
      `kunde ${customer.customerNumber} kan ikke slettes mens penger fortsatt kan flyttes for den; ${nb.join('; ')}`,
    ),
  });
}
