import { randomUUID } from 'node:crypto';
import { localized } from '../../domain/localized.js';
import { checkNorwegianIdentityNumber } from '../../domain/norwegian-identity-number.js';
import { customerRepository } from './customer.repository.js';
import type { NewCustomer } from './customer.schemas.js';
import type { SandboxCaller, SandboxCustomer } from './sandbox-bank.model.js';
import { sandboxBankRepository } from './sandbox-bank.repository.js';
import { valid } from './sandbox-checks.js';
import { alreadyExists, audit, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';

/**
 * Test customers (research/seed-system.md §12). The customer number is a national identity
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
     * bank. All of it in one transaction under the sandbox lock, which batch runs take too
     * before they move money.
     */
    async delete(caller: SandboxCaller, id: string): Promise<void> {
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        const customer = await customerRepository.findById(trx, caller.tppId, id);
        if (!customer) unknown('customerId', localized(`your sandbox has no customer ${id}`, `sandkassen din har ingen kunde ${id}`));
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
