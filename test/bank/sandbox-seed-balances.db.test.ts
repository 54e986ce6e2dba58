/**
 * The seeded sandbox's balances as the account information API reads them, on any day: its
 * closingBooked is the end of the previous bank day, and the seed's history is dated up to that
 * day, so every seeded account and card account shows the documented figure (README "Sandbox
 * data") even when initialize runs on a Monday or the day after a holiday.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestingTpp } from '../../src/bank/core-banking.port.js';
import { formatAmount } from '../../src/domain/money.js';
import { createBankClock } from '../../src/modules/clock/bank-clock.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { createSandboxBank } from '../../src/modules/sandbox/sandbox-bank.service.js';
import { createSandboxCoreBanking, type SandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';
import { SANDBOX_SEED } from '../../src/modules/sandbox/sandbox-seed.js';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

/** Days initialize runs on (10:00 in Oslo), with the previous bank day of each. */
const DAYS = [
  { label: 'a Monday', now: '2026-11-30T09:00:00Z', previousBankDay: '2026-11-27' },
  { label: 'the day after Easter Monday', now: '2027-03-30T08:00:00Z', previousBankDay: '2027-03-24' },
  { label: 'a Wednesday', now: '2026-11-25T09:00:00Z', previousBankDay: '2026-11-24' },
];

describe.each(DIALECTS)('the seeded balances, read on the previous bank day (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it.each(DAYS)('are the documented ones when initialize runs on $label', async ({ now: at, previousBankDay }) => {
    const now = () => new Date(at);
    const tpp: RequestingTpp = { tppId: `PSDNO-FSA-${at.slice(0, 10).replaceAll('-', '')}` };
    const ledger = createLedger(now);
    await createSandboxBank(database.db, ledger, createBankClock(database.db, now, true)).initializer.initialize({
      tppId: tpp.tppId,
      requestId: 'seed',
    });
    const core: SandboxCoreBanking = createSandboxCoreBanking(database.db, ledger, now, DEFAULT_NOK_RATES);

    for (const customer of SANDBOX_SEED.customers) {
      for (const seeded of customer.accounts) {
        const account = await core.findAccount(tpp, { bban: seeded.bban });
        const balances = await core.balances(tpp, account!.id, previousBankDay);
        expect(formatAmount(balances.closingBooked), seeded.bban).toBe(seeded.closingBooked);
        const latest = (await core.transactions(tpp, account!.id, { bookingStatus: 'booked', limit: 1 })).transactions[0];
        expect(latest!.bookingDate <= previousBankDay, `${seeded.bban} booked on ${latest!.bookingDate}`).toBe(true);
      }
      const cards = await core.cardAccountsOf(tpp, customer.customerNumber);
      for (const seeded of customer.cardAccounts) {
        const card = cards.find((candidate) => candidate.maskedPan === seeded.maskedPan);
        const balances = await core.balances(tpp, card!.id, previousBankDay);
        expect(formatAmount(balances.closingBooked), seeded.maskedPan).toBe(seeded.closingBooked);
      }
    }
  });
});
