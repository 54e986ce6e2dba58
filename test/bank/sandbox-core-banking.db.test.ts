import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
/**
 * The core-banking port over the sandbox bank, on each database: account lookup by BBAN or IBAN
 * within the TPP's scope; the accounts a PSU may use privately or through a corporate agreement;
 * what it may do with one (a private owner everything, a corporate PSU per engagement roles and
 * limits); balances from the ledger; a payment file spending an account's credit line, each
 * payment on what the ones before it left; postings applied once and only on the scope's own accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestingTpp } from '../../src/bank/core-banking.port.js';
import {
  createSandboxCoreBanking,
  sandboxClearingAccount,
  type SandboxCoreBanking,
} from '../../src/modules/sandbox/sandbox-core-banking.js';
import { withTransaction } from '../../src/db/create-db.js';
import { transferLegs, type LedgerPosting } from '../../src/modules/ledger/ledger-posting.js';
import { createBankClock } from '../../src/modules/clock/bank-clock.js';
import { createLedger } from '../../src/modules/ledger/ledger.service.js';
import { createSandboxBank, type SandboxBank } from '../../src/modules/sandbox/sandbox-bank.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const A: RequestingTpp = { tppId: 'PSDNO-FSA-111111111' };
const B: RequestingTpp = { tppId: 'PSDNO-FSA-222222222' };
const EMPTY: RequestingTpp = { tppId: 'PSDNO-FSA-333333333' };

const OLA = '13039319955';
const PER = '12085592767';
const FJORDBRIS = '923456783';
const NORDLYS = '998877660';

describe.each(DIALECTS)('sandbox core banking (%s)', (dialect) => {
  let database: TestDatabase;
  let bank: SandboxBank;
  let core: SandboxCoreBanking;
  const now = () => new Date();

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    const ledger = createLedger(now);
    bank = createSandboxBank(database.db, ledger, createBankClock(database.db, now, true));
    core = createSandboxCoreBanking(database.db, ledger, now, DEFAULT_NOK_RATES);
    await bank.initializer.initialize(A);
    await bank.initializer.initialize(B);
  });
  afterAll(() => database.dispose());

  const id = async (scope: RequestingTpp, bban: string) => (await core.findAccount(scope, { bban }))!.id;
  const bbans = (accounts: readonly { bban: string }[]) => accounts.map((account) => account.bban);

  describe('findAccount', () => {
    it('finds an account by BBAN or IBAN within the scope, with its owner and agreement', async () => {
      const byBban = await core.findAccount(A, { bban: '12343100017' });
      expect(byBban).toEqual({
        id: expect.any(String),
        bban: '12343100017',
        iban: 'NO9512343100017',
        currency: 'NOK',
        name: 'Driftskonto',
        product: expect.any(String),
        cashAccountType: 'CACC',
        ownerName: expect.any(String),
        ownerCustomerNumber: '18129215603',
        ownerType: 'CORPORATE',
        organisationNumber: FJORDBRIS,
      });
      expect(await core.findAccount(A, { iban: 'NO9512343100017' })).toEqual(byBban);
      expect((await core.findAccount(A, { bban: '12341100028' }))?.organisationNumber).toBeUndefined();
    });

    it("never finds another TPP's account, nor an unknown one", async () => {
      const inA = await core.findAccount(A, { bban: '12341100028' });
      const inB = await core.findAccount(B, { bban: '12341100028' });
      expect(inA!.id).not.toBe(inB!.id);
      expect(await core.findAccount(EMPTY, { bban: '12341100028' })).toBeUndefined();
      expect(await core.findAccount(A, { iban: 'NO9386011117947' })).toBeUndefined();
    });
  });

  describe('accountsOf', () => {
    it("gives a private PSU its own accounts, and never a corporation's without PSU-Corporate-ID", async () => {
      expect(bbans(await core.accountsOf(A, OLA))).toEqual(['12341100028', '12341200022']);
      expect(bbans(await core.accountsOf(A, PER))).toEqual(['12342100013', '12342200026']);
      expect(await core.accountsOf(A, '18129215603')).toEqual([]);
    });

    it('gives a corporate PSU the accounts its engagements name under the agreement of the organisation number', async () => {
      expect(bbans(await core.accountsOf(A, OLA, FJORDBRIS))).toEqual(['12343100017', '12343200038']);
      expect(bbans(await core.accountsOf(A, PER, FJORDBRIS))).toEqual(['12343100017']);
      expect(bbans(await core.accountsOf(A, PER, NORDLYS))).toEqual(['12344100010', '12344200023']);
      expect(bbans(await core.accountsOf(A, OLA, NORDLYS))).toEqual(['12344100010']);
    });

    it('gives nothing for a wrong organisation number, an unknown PSU or an empty scope', async () => {
      expect(await core.accountsOf(A, OLA, '931234560')).toEqual([]);
      expect(await core.accountsOf(A, '01019010046', FJORDBRIS)).toEqual([]);
      expect(await core.accountsOf(A, '18129215603', FJORDBRIS)).toEqual([]);
      expect(await core.accountsOf(EMPTY, OLA)).toEqual([]);
      expect(await core.accountsOf(EMPTY, OLA, FJORDBRIS)).toEqual([]);
    });
  });

  describe('permission', () => {
    it('lets a private owner view, register and approve without limit, and nobody else', async () => {
      const account = await id(A, '12341100028');
      expect(await core.permission(A, OLA, account)).toEqual({ canView: true, canRegister: true });
      expect(await core.permission(A, PER, account)).toEqual({ canView: false, canRegister: false });
      // A private account is not used in a corporate context.
      expect(await core.permission(A, OLA, account, FJORDBRIS)).toEqual({ canView: false, canRegister: false });
    });

    it('gives a corporate PSU its engagement roles and limits', async () => {
      const fjordbrisDrift = await id(A, '12343100017');
      expect(await core.permission(A, OLA, fjordbrisDrift, FJORDBRIS)).toEqual({
        canView: true,
        canRegister: true,
        registerLimit: undefined,
        approvalLimit: { minor: 10_000_000n, currency: 'NOK' },
      });
      expect(await core.permission(A, PER, fjordbrisDrift, FJORDBRIS)).toEqual({
        canView: true,
        canRegister: false,
        registerLimit: undefined,
        approvalLimit: undefined,
      });
      expect(await core.permission(A, PER, await id(A, '12344100010'), NORDLYS)).toEqual({
        canView: true,
        canRegister: true,
        registerLimit: { minor: 5_000_000n, currency: 'NOK' },
        approvalLimit: { minor: 0n, currency: 'NOK' },
      });
      expect(await core.permission(A, PER, await id(A, '12344200023'), NORDLYS)).toMatchObject({
        canRegister: true,
        registerLimit: undefined,
      });
    });

    it('gives nothing without the right organisation number, on an unengaged account, or across scopes', async () => {
      const fjordbrisDrift = await id(A, '12343100017');
      expect(await core.permission(A, OLA, fjordbrisDrift)).toEqual({ canView: false, canRegister: false });
      expect(await core.permission(A, OLA, fjordbrisDrift, NORDLYS)).toEqual({ canView: false, canRegister: false });
      expect(await core.permission(A, PER, await id(A, '12343200038'), FJORDBRIS)).toEqual({ canView: false, canRegister: false });
      expect(await core.permission(B, OLA, fjordbrisDrift, FJORDBRIS)).toEqual({ canView: false, canRegister: false });
      expect(await core.permission(A, OLA, 'no-such-account')).toEqual({ canView: false, canRegister: false });
    });

    it('takes a register limit of 0 as no right to register', async () => {
      const caller = { tppId: A.tppId };
      const corporation = await bank.customers.create(caller, {
        customerNumber: '01019010046',
        customerType: 'CORPORATE',
        customerName: 'Null AS',
      });
      const psu = await bank.customers.create(caller, {
        customerNumber: '01019010127',
        customerType: 'PRIVATE',
        customerName: 'Null Person',
      });
      const { account } = await bank.accounts.create(caller, { customerNumber: corporation.customerNumber });
      const { agreement } = await bank.agreements.create(caller, {
        owner: corporation.customerNumber,
        engagements: [{ customer: psu.customerNumber, account: { bban: account.bban }, roles: ['REGISTER', 'VIEW'], registerLimit: '0' }],
      });
      expect(await core.permission(A, psu.customerNumber, account.id, agreement.organisationNumber)).toEqual({
        canView: true,
        canRegister: false,
        registerLimit: undefined,
        approvalLimit: undefined,
      });
      expect(bbans(await core.accountsOf(A, psu.customerNumber, agreement.organisationNumber))).toEqual([account.bban]);
    });
  });

  describe('balances', () => {
    it('reads the Berlin Group balances from the ledger', async () => {
      expect(await core.balances(A, await id(A, '12341100028'))).toEqual({
        closingBooked: { minor: 3_456_789n, currency: 'NOK' },
        expected: { minor: 3_425_549n, currency: 'NOK' },
        interimAvailable: { minor: 3_425_549n, currency: 'NOK' },
      });
      expect((await core.balances(A, await id(A, '12344200023'))).closingBooked).toEqual({ minor: 4_512_075n, currency: 'EUR' });
    });

    it('adds the credit limit to what a card account has available', async () => {
      const card = (await bank.cardAccounts.list({ tppId: A.tppId })).find((item) => item.cardAccount.maskedPan === '525412******3241')!;
      expect(await core.balances(A, card.cardAccount.id)).toEqual({
        closingBooked: { minor: -345_670n, currency: 'NOK' },
        expected: { minor: -370_570n, currency: 'NOK' },
        interimAvailable: { minor: 4_629_430n, currency: 'NOK' },
      });
    });

    it("refuses an unknown account or another TPP's", async () => {
      await expect(core.balances(A, 'no-such-account')).rejects.toMatchObject({ name: 'BankError', kind: 'unknown-account' });
      await expect(core.balances(EMPTY, await id(A, '12341100028'))).rejects.toMatchObject({ name: 'BankError', kind: 'unknown-account' });
    });
  });

  describe('submitPayments', () => {
    it("spends an account's credit line too, each payment of a file on what the ones before it left", async () => {
      const accountId = await id(B, '12341200022');
      await bank.accounts.update({ tppId: B.tppId }, accountId, { creditLimit: { currency: 'NOK', amount: '1000.00' } });
      const before = await core.balances(B, accountId);
      const own = before.expected.minor;
      expect(before.interimAvailable.minor).toBe(own + 100_000n);
      const instruction = (n: number, minor: bigint) => ({
        paymentId: `${dialect}-credit-line-${n}`,
        debtorAccountId: accountId,
        amount: { minor, currency: 'NOK' },
        creditorName: 'Kreditor AS',
        executionDate: '2026-11-20',
        description: 'Kreditor AS',
      });
      expect(
        await core.submitPayments(B, [instruction(1, own + 60_000n), instruction(2, 50_000n), instruction(3, 40_000n), instruction(4, 1n)]),
      ).toEqual([{ kind: 'executed' }, { kind: 'pending-funds' }, { kind: 'executed' }, { kind: 'pending-funds' }]);
      expect(await core.balances(B, accountId)).toMatchObject({
        expected: { minor: -100_000n, currency: 'NOK' },
        interimAvailable: { minor: 0n, currency: 'NOK' },
      });
    });
  });

  describe('post', () => {
    const payment = (key: string, from: string, amountMinor: bigint, currency = 'NOK'): LedgerPosting => ({
      idempotencyKey: key,
      status: 'booked',
      bookingDate: '2026-11-20',
      valueDate: '2026-11-20',
      description: key,
      legs: transferLegs(from, sandboxClearingAccount(A), currency, amountMinor),
    });

    it('posts a debit once under its key, atomically with the caller', async () => {
      const account = await id(A, '12341200022');
      const before = (await core.balances(A, account)).closingBooked.minor;
      const posting = payment(`${dialect}-payment-1`, account, 10_000n);
      expect(await withTransaction(database.db, (trx) => core.post(trx, A, posting))).toEqual({ applied: true });
      expect(await withTransaction(database.db, (trx) => core.post(trx, A, posting))).toEqual({ applied: false });
      await expect(
        withTransaction(database.db, async (trx) => {
          await core.post(trx, A, payment(`${dialect}-payment-2`, account, 5_000n));
          throw new Error('the status change failed');
        }),
      ).rejects.toThrow('the status change failed');
      expect((await core.balances(A, account)).closingBooked.minor).toBe(before - 10_000n);
    });

    it("refuses legs on another TPP's account, an unknown account or in the wrong currency, and writes nothing", async () => {
      const theirs = await id(B, '12341200022');
      const mine = await id(A, '12341200022');
      for (const posting of [
        payment(`${dialect}-foreign`, theirs, 1n),
        payment(`${dialect}-unknown`, 'no-such-account', 1n),
        payment(`${dialect}-currency`, mine, 1n, 'EUR'),
      ]) {
        await expect(withTransaction(database.db, (trx) => core.post(trx, A, posting))).rejects.toThrow('is not an account of the sandbox');
      }
      const written = await database.db
        .selectFrom('ledger_transaction')
        .select('id')
        .where('idempotency_key', 'like', `${dialect}-%`)
        .execute();
      expect(written).toHaveLength(1);
    });
  });
});
