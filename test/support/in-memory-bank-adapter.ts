/**
 * A bank adapter module as a bank's integration team writes one (docs/bank-adapter.md), over the
 * small in-memory core of test/support/in-memory-core-banking.ts: `XS2A_BANK_ADAPTER` names this
 * file and the server, in production mode, runs on it with no sandbox code behind the API.
 *
 * Its core knows one customer, for every TPP that asks: `IN_MEMORY_BANK_PSU_ID` (a national
 * identity number) with one NOK account `IN_MEMORY_BANK_BBAN` holding `IN_MEMORY_BANK_BALANCE`
 * (NOK, default 1000.00). Its authenticator takes one code, `IN_MEMORY_BANK_CODE` (default
 * 123456), typed on the server's code page. Payments execute when submitted. An account the core
 * has blocked, `IN_MEMORY_BANK_BLOCKED_BBAN`, is refused with the adapter's own `BankError`, as a
 * bank's compiled adapter throws it: from its own copy of the class, not the server's.
 */
import type { BankAdapter, BankAdapterContext } from '../../src/bank/bank-adapter.js';
import { CORE_BANKING_OPERATIONS } from '../../src/bank/bank-adapter.js';
import { BankError } from '../../src/bank/bank-error.js';
import type { CoreBanking, RequestingTpp } from '../../src/bank/core-banking.port.js';
import type { InPageCodeAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import { createInMemoryCoreBanking } from './in-memory-core-banking.js';

export async function createBankAdapter(context: BankAdapterContext): Promise<BankAdapter> {
  const setting = (name: string, fallback?: string): string => {
    const value = context.env[name] ?? fallback;
    if (value === undefined) throw new Error(`${name} is not set`);
    return value;
  };
  const psuId = setting('IN_MEMORY_BANK_PSU_ID');
  const bban = setting('IN_MEMORY_BANK_BBAN');
  const balance = BigInt(Math.round(Number(setting('IN_MEMORY_BANK_BALANCE', '1000.00')) * 100));
  const code = setting('IN_MEMORY_BANK_CODE', '123456');
  const blockedBban = context.env['IN_MEMORY_BANK_BLOCKED_BBAN'];
  const core = createInMemoryCoreBanking();

  // Each TPP sees the bank through its own tenant of the in-memory core: the customer and the
  // account are opened there the first time the TPP asks anything.
  const opened = new Map<string, Promise<void>>();
  const open = (tpp: RequestingTpp): Promise<void> => {
    let done = opened.get(tpp.tppId);
    if (!done) {
      const seed = core.seed(tpp);
      done = seed
        .customer({ customerNumber: psuId, name: 'Kari Nordmann', type: 'PRIVATE' })
        .then(() => seed.account({ owner: psuId, currency: 'NOK', closingBooked: { minor: balance, currency: 'NOK' }, bban }))
        .then(() => undefined);
      opened.set(tpp.tppId, done);
    }
    return done;
  };
  const bank = core.bank as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const coreBanking: Record<string, unknown> = { outcomesSince: (...args: unknown[]) => bank['outcomesSince']!(...args) };
  for (const operation of CORE_BANKING_OPERATIONS) {
    if (operation === 'outcomesSince') continue;
    coreBanking[operation] = async (tpp: RequestingTpp, ...rest: unknown[]) => {
      await open(tpp);
      if (operation === 'findAccount' && blockedBban !== undefined && (rest[0] as { bban?: string }).bban === blockedBban) {
        throw new BankError('refused', 'The account is blocked by the bank');
      }
      return bank[operation]!(tpp, ...rest);
    };
  }

  const psuAuthenticator: InPageCodeAuthenticator = {
    kind: 'in-page-code',
    isCustomer: async (_tpp, psu) => psu === psuId,
    verifyOneTimeCode: async (_tpp, psu, typed) => psu === psuId && typed === code,
    offersAppConfirmation: false,
    confirmedInApp: async () => false,
  };
  context.log.info({ psuId, bban }, 'in-memory bank ready');
  return { coreBanking: coreBanking as unknown as CoreBanking, psuAuthenticator };
}
