/**
 * The contract suite against a small in-memory adapter: the port is implementable without this
 * project's database. Also its own price of an instant payment: the configured fee to another
 * bank, nothing within the bank.
 */
import { describe, expect, it } from 'vitest';
import { createInMemoryCoreBanking } from '../support/in-memory-core-banking.js';
import { runCoreBankingContract } from './core-banking.contract.js';

runCoreBankingContract('in memory', async () => createInMemoryCoreBanking());

describe('the in-memory bank’s instant payment fee', () => {
  it('charges the configured fee to another bank and nothing to an account of its own', async () => {
    const memory = createInMemoryCoreBanking({ instantPaymentFeeMinor: 350n });
    const bank = memory.bank;
    const tpp = { tppId: 'PSDNO-FSA-123456789' };
    const seed = (of: typeof tpp) => memory.seed(of);
    await seed(tpp).customer({ customerNumber: '13039319955', name: 'Ola Nordmann', type: 'PRIVATE' });
    const debtor = await seed(tpp).account({ owner: '13039319955', currency: 'NOK' });
    const own = await seed(tpp).account({ owner: '13039319955', currency: 'NOK' });
    const amount = { minor: 10_000n, currency: 'NOK' };
    expect(await bank.instantPaymentFee(tpp, { debtorAccountId: debtor.id, amount, creditorAccount: { bban: '86011117947' } })).toEqual({
      minor: 350n,
      currency: 'NOK',
    });
    expect(await bank.instantPaymentFee(tpp, { debtorAccountId: debtor.id, amount, creditorAccount: { iban: own.iban } })).toEqual({
      minor: 0n,
      currency: 'NOK',
    });
  });
});
