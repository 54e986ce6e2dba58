import { randomInt, randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db.js';
import { rollToBankDay } from '../../domain/bank-calendar.js';
import { makeNorwegianBban } from '../../domain/bban.js';
import { checkCurrencyCode } from '../../domain/currencies.js';
import { ibanFromNorwegianBban } from '../../domain/iban.js';
import { localized } from '../../domain/localized.js';
import type { Money } from '../../domain/money.js';
import { accountRepository, type NewAccountRow } from './account.repository.js';
import type { AccountUpdate, BalanceUpdate, NewAccount } from './account.schemas.js';
import type { SandboxAccount, SandboxBalances, SandboxCaller } from './sandbox-bank.model.js';
import { amountIn, norwegianAccount, refuse, valid } from './sandbox-checks.js';
import { addDays } from './sandbox-dates.js';
import { alreadyExists, audit, customerNamed, inSandbox, type SandboxDeps, unknown } from './sandbox-deps.js';

/** The bank code of generated sandbox accounts (BBAN digits 1–4). */
export const SANDBOX_BANK_CODE = '1234';

const GENERATION_ATTEMPTS = 20;

export interface AccountWithBalances {
  readonly account: SandboxAccount;
  readonly balances: SandboxBalances;
}

/**
 * Mock accounts: Norwegian accounts whose BBAN and IBAN carry valid check digits, generated when
 * the TPP gives none; their balances are read from the ledger every time.
 */
export function createAccountService({ db, bookkeeping, now, today }: SandboxDeps) {
  // `from`: the transaction that wrote, so an answer shows what it wrote (a concurrent initialize
  // may remove it right after the commit).
  async function find(caller: SandboxCaller, id: string, from: DbOrTx = db): Promise<SandboxAccount> {
    const account = await accountRepository.findById(from, caller.tppId, id);
    if (!account) unknown('mockAccountId', localized(`your sandbox has no account ${id}`, `sandkassen din har ingen konto ${id}`));
    return account;
  }

  async function withBalances(account: SandboxAccount, from: DbOrTx = db): Promise<AccountWithBalances> {
    return { account, balances: await bookkeeping.balances(from, account.id, account.currency, account.creditLimit) };
  }

  return {
    find,

    async create(caller: SandboxCaller, input: NewAccount): Promise<AccountWithBalances> {
      const currency = valid(checkCurrencyCode(input.currency ?? 'NOK'), 'currency');
      const given = input.bban !== undefined || input.iban !== undefined ? norwegianAccount(input, '').bban : undefined;
      const creditLimit = input.creditLimit ? creditLimitIn(input.creditLimit, currency) : undefined;
      const name = input.name ?? input.product ?? 'Brukskonto';
      const at = now().toISOString();
      const id = randomUUID();
      return inSandbox(db, caller, at, async (trx) => {
        const owner = await customerNamed(trx, caller.tppId, input.customerNumber, 'customerNumber');
        const row = (bban: string): NewAccountRow => ({
          id,
          customerId: owner.id,
          bban,
          iban: ibanFromNorwegianBban(bban),
          currency,
          name,
          product: input.product ?? name,
          cashAccountType: input.cashAccountType ?? 'CACC',
          creditLimitMinor: creditLimit?.minor,
        });
        if (given !== undefined) {
          if (!(await accountRepository.insert(trx, caller.tppId, row(given), at))) {
            alreadyExists('bban', localized(`your sandbox already has account ${given}`, `sandkassen din har allerede konto ${given}`));
          }
        } else {
          await insertGenerated(trx, caller.tppId, row, at);
        }
        await audit(trx, caller, 'sandbox.account.created', { type: 'sandbox-account', id }, at);
        return withBalances(await find(caller, id, trx), trx);
      });
    },

    async get(caller: SandboxCaller, id: string): Promise<AccountWithBalances> {
      return withBalances(await find(caller, id));
    },

    async list(caller: SandboxCaller): Promise<AccountWithBalances[]> {
      const accounts = await accountRepository.list(db, caller.tppId);
      const balances = await bookkeeping.balancesOfMany(db, accounts);
      return accounts.map((account, index) => ({ account, balances: balances[index]! }));
    },

    /** `PATCH`: sets the credit line. */
    async update(caller: SandboxCaller, id: string, input: AccountUpdate): Promise<AccountWithBalances> {
      const account = await find(caller, id);
      if (input.creditLimit === undefined) refuse('creditLimit', localized('is missing', 'mangler'));
      const creditLimit = creditLimitIn(input.creditLimit, account.currency);
      const at = now().toISOString();
      return inSandbox(db, caller, at, async (trx) => {
        if (!(await accountRepository.setCreditLimit(trx, caller.tppId, id, creditLimit))) {
          unknown('mockAccountId', localized(`your sandbox has no account ${id}`, `sandkassen din har ingen konto ${id}`));
        }
        await audit(trx, caller, 'sandbox.account.updated', { type: 'sandbox-account', id }, at, {
          creditLimitMinor: creditLimit.minor.toString(),
        });
        return withBalances(await find(caller, id, trx), trx);
      });
    },

    /**
     * Posts one booked adjustment so that closingBooked becomes exactly the requested amount; a
     * PUT because it sets a value: repeating it changes nothing. The account's row lock keeps
     * two concurrent updates from both reading the old balance.
     */
    async setBalance(caller: SandboxCaller, id: string, input: BalanceUpdate): Promise<AccountWithBalances> {
      const account = await find(caller, id);
      const target = amountIn(input.balanceAmount, account.currency, 'balanceAmount');
      const at = now().toISOString();
      await inSandbox(db, caller, at, async (trx) => {
        if (!(await accountRepository.lock(trx, caller.tppId, id))) {
          unknown('mockAccountId', localized(`your sandbox has no account ${id}`, `sandkassen din har ingen konto ${id}`));
        }
        const difference = await bookkeeping.setClosingBooked(trx, caller.tppId, id, target, {
          key: `sandbox:balance:${randomUUID()}`,
          // Dated the previous bank day: the balance set is one the bank closed a day with, so
          // closingBooked (the end of that day, docs/design.md §2b) shows it too, not only expected.
          date: rollToBankDay(addDays(await today(caller.tppId, trx), -1), 'preceding'),
          description: 'Sandbox balance update',
        });
        if (difference !== 0n) {
          await audit(trx, caller, 'sandbox.account.balance-set', { type: 'sandbox-account', id }, at, {
            adjustmentMinor: difference.toString(),
            currency: account.currency,
          });
        }
      });
      return withBalances(account);
    },
  };
}

/** A credit line: in the account's currency and not negative. */
function creditLimitIn(amount: { currency: string; amount: string }, currency: string): Money {
  const limit = amountIn(amount, currency, 'creditLimit');
  if (limit.minor < 0n) refuse('creditLimit.amount', localized('must not be negative', 'kan ikke være negativ'));
  return limit;
}

/** A free BBAN with the sandbox bank code; a taken one (or a check digit of 10) is drawn again. */
async function insertGenerated(trx: DbOrTx, tppId: string, row: (bban: string) => NewAccountRow, at: string): Promise<void> {
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const bban = makeNorwegianBban(`${SANDBOX_BANK_CODE}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`);
    if (bban !== undefined && (await accountRepository.insert(trx, tppId, row(bban), at))) return;
  }
  throw new Error(`no free account number found in ${GENERATION_ATTEMPTS} attempts`);
}

export type AccountService = ReturnType<typeof createAccountService>;
