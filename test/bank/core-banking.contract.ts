/**
 * The core-banking port's contract: the rules every adapter keeps, in the port's own terms. A bank
 * writing an adapter runs it with a factory for its adapter and a way to seed it:
 *
 *   runCoreBankingContract('my bank', async () => ({ bank, seed: (tpp) => mySeeder(tpp), dispose }));
 *
 * Run here against the sandbox adapter on each database (sandbox-core-banking.contract.db.test.ts)
 * and against a small in-memory adapter (in-memory-core-banking.contract.test.ts).
 *
 * Each test works in a TPP of its own (the sandbox keeps TPPs apart), so one adapter instance
 * serves the whole suite. The outcome feed is the bank's one feed: tests look for their own
 * payments in it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AccountReference,
  BankAccount,
  BankCardAccount,
  BankTransaction,
  CoreBanking,
  PaymentInstruction,
  ReportedOutcome,
  RequestingTpp,
  TransactionPage,
  TransactionQuery,
} from '../../src/bank/core-banking.port.js';
import { BANK_TIME_ZONE } from '../../src/domain/bank-calendar.js';
import { addDays, todayIn } from '../../src/domain/iso-date.js';
import type { Money } from '../../src/domain/money.js';

export interface SeedEngagement {
  /** The PSU's customer number. */
  readonly psu: string;
  readonly accountId: string;
  readonly roles: readonly ('REGISTER' | 'VIEW')[];
  readonly registerLimit?: Money | undefined;
  readonly approvalLimit?: Money | undefined;
  /** Sharing the account's information through this engagement takes a second approver of the agreement. */
  readonly consentNeedsSecondApprover?: boolean | undefined;
}

export interface SeedTransaction {
  readonly status: 'booked' | 'pending';
  /** YYYY-MM-DD, today (in Oslo) or earlier. */
  readonly bookingDate: string;
  /** Signed: negative is a debit. */
  readonly amount: Money;
  readonly counterpartyName?: string | undefined;
  readonly remittance?: string | undefined;
}

export interface SeedCardTransaction {
  readonly transactionDate: string;
  /** Absent: pending. */
  readonly bookingDate?: string | undefined;
  readonly amount: Money;
  readonly originalAmount?: Money | undefined;
  readonly merchant?: string | undefined;
}

/** How the suite puts a bank's data in place for one TPP; the adapter chooses ids and account numbers. */
export interface ContractSeed {
  customer(customer: { customerNumber: string; name: string; type: 'PRIVATE' | 'CORPORATE' }): Promise<void>;
  /** An account of `owner` (a customer number) whose closingBooked is `closingBooked` (0 when absent). */
  account(account: { owner: string; currency: string; closingBooked?: Money | undefined }): Promise<BankAccount>;
  /** The corporate agreement of `owner`, with the PSUs' engagements on its accounts. */
  agreement(agreement: { owner: string; engagements: readonly SeedEngagement[] }): Promise<{ organisationNumber: string }>;
  /** A transaction on the account; its id. */
  transaction(accountId: string, transaction: SeedTransaction): Promise<string>;
  /** Books a pending transaction. */
  book(accountId: string, transactionId: string): Promise<void>;
  cardAccount(card: { owner: string; currency: string; creditLimit: Money }): Promise<BankCardAccount>;
  cardTransaction(cardAccountId: string, transaction: SeedCardTransaction): Promise<string>;
}

export interface ContractAdapter {
  readonly bank: CoreBanking;
  seed(tpp: RequestingTpp): ContractSeed;
  dispose?(): Promise<void>;
}

/** Valid Norwegian national identity numbers (MOD11), as PSU-IDs and customer numbers. */
const OLA = '13039319955';
const KARI = '12085592767';
const FIRMA = '18129215603';

const nok = (minor: bigint): Money => ({ minor, currency: 'NOK' });

export function runCoreBankingContract(name: string, open: () => Promise<ContractAdapter>): void {
  describe(`core-banking contract: ${name}`, () => {
    let adapter: ContractAdapter;
    let bank: CoreBanking;
    beforeAll(async () => {
      adapter = await open();
      bank = adapter.bank;
    });
    afterAll(async () => adapter.dispose?.());

    let tenants = 0;
    /** A TPP of the test's own, with Ola (private), Kari (private) and Firma AS (corporate) as customers. */
    async function world() {
      const tpp: RequestingTpp = { tppId: `PSDNO-FSA-${String(100_000_000 + tenants++ * 7919 + Math.floor(Math.random() * 1000))}` };
      const seed = adapter.seed(tpp);
      await seed.customer({ customerNumber: OLA, name: 'Ola Nordmann', type: 'PRIVATE' });
      await seed.customer({ customerNumber: KARI, name: 'Kari Nordmann', type: 'PRIVATE' });
      await seed.customer({ customerNumber: FIRMA, name: 'Firma AS', type: 'CORPORATE' });
      return { tpp, seed };
    }

    const instruction = (debtor: BankAccount, amount: Money, overrides: Partial<PaymentInstruction> = {}): PaymentInstruction => ({
      paymentId: randomUUID(),
      debtorAccountId: debtor.id,
      amount,
      creditorName: 'Kari Nordmann',
      creditorAccount: { iban: 'NO9386011117947' },
      executionDate: '2025-06-02',
      description: 'Kari Nordmann: husleie',
      ...overrides,
    });

    /** The whole feed from the start: the adapter's every reported outcome. */
    async function wholeFeed(): Promise<ReportedOutcome[]> {
      const all: ReportedOutcome[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await bank.outcomesSince(cursor, 50);
        all.push(...page.outcomes);
        if (page.outcomes.length === 0) return all;
        cursor = page.cursor;
      }
    }

    async function allPages<T extends { id: string }>(
      read: (query: TransactionQuery) => Promise<TransactionPage<T>>,
      query: Omit<TransactionQuery, 'after'>,
      between?: (page: number) => Promise<void>,
    ): Promise<T[]> {
      const seen: T[] = [];
      let after: string | undefined;
      for (let page = 0; page < 100; page++) {
        const answer = await read({ ...query, after });
        expect(answer.transactions.length).toBeLessThanOrEqual(query.limit);
        seen.push(...answer.transactions);
        if (answer.next === undefined) return seen;
        after = answer.next;
        await between?.(page);
      }
      throw new Error('paging did not end');
    }

    describe('accounts', () => {
      it('finds an account by BBAN and by IBAN, and nothing for an unknown number', async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK' });
        const byBban = await bank.findAccount(tpp, { bban: account.bban });
        expect(byBban).toMatchObject({ id: account.id, bban: account.bban, iban: account.iban, currency: 'NOK' });
        expect(byBban?.ownerName).toBe('Ola Nordmann');
        expect(byBban?.ownerCustomerNumber).toBe(OLA);
        expect(await bank.findAccount(tpp, { iban: account.iban })).toEqual(byBban);
        expect(await bank.account(tpp, account.id)).toEqual(byBban);
        expect(await bank.findAccount(tpp, { bban: '86011117947' })).toBeUndefined();
        expect(await bank.account(tpp, randomUUID())).toBeUndefined();
      });

      it("lists a private PSU's own accounts, with the owner's name, and a corporate PSU's engaged ones", async () => {
        const { tpp, seed } = await world();
        const olas = [await seed.account({ owner: OLA, currency: 'NOK' }), await seed.account({ owner: OLA, currency: 'EUR' })];
        await seed.account({ owner: KARI, currency: 'NOK' });
        const [drift, spare] = [
          await seed.account({ owner: FIRMA, currency: 'NOK' }),
          await seed.account({ owner: FIRMA, currency: 'NOK' }),
        ];
        const { organisationNumber } = await seed.agreement({
          owner: FIRMA,
          engagements: [{ psu: KARI, accountId: drift.id, roles: ['REGISTER', 'VIEW'] }],
        });
        const mine = await bank.accountsOf(tpp, OLA);
        expect(mine.map((account) => account.id).sort()).toEqual(olas.map((account) => account.id).sort());
        expect(mine.every((account) => account.ownerName === 'Ola Nordmann')).toBe(true);
        const corporate = await bank.accountsOf(tpp, KARI, organisationNumber);
        expect(corporate.map((account) => account.id)).toEqual([drift.id]);
        expect(corporate[0]).toMatchObject({ ownerName: 'Firma AS', ownerType: 'CORPORATE', organisationNumber });
        expect(corporate.map((account) => account.id)).not.toContain(spare.id);
        expect(await bank.accountsOf(tpp, OLA, organisationNumber)).toEqual([]);
        expect(await bank.accountsOf(tpp, FIRMA)).toEqual([]);
      });
    });

    describe('permissions', () => {
      it('lets a private owner view and register without limit, and nobody else', async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK' });
        expect(await bank.permission(tpp, OLA, account.id)).toMatchObject({ canView: true, canRegister: true });
        expect((await bank.permission(tpp, OLA, account.id)).registerLimit).toBeUndefined();
        expect(await bank.permission(tpp, KARI, account.id)).toMatchObject({ canView: false, canRegister: false });
        expect(await bank.permission(tpp, OLA, randomUUID())).toMatchObject({ canView: false, canRegister: false });
      });

      it("gives a corporate PSU its engagement's roles and limits, only under the agreement's organisation number", async () => {
        const { tpp, seed } = await world();
        const drift = await seed.account({ owner: FIRMA, currency: 'NOK' });
        const { organisationNumber } = await seed.agreement({
          owner: FIRMA,
          engagements: [
            { psu: KARI, accountId: drift.id, roles: ['REGISTER', 'VIEW'], registerLimit: nok(5_000_000n), approvalLimit: nok(100_000n) },
            { psu: OLA, accountId: drift.id, roles: ['VIEW'] },
          ],
        });
        expect(await bank.permission(tpp, KARI, drift.id, organisationNumber)).toEqual({
          canView: true,
          canRegister: true,
          registerLimit: nok(5_000_000n),
          approvalLimit: nok(100_000n),
        });
        expect(await bank.permission(tpp, OLA, drift.id, organisationNumber)).toMatchObject({ canView: true, canRegister: false });
        expect(await bank.permission(tpp, KARI, drift.id)).toMatchObject({ canView: false, canRegister: false });
      });

      it('says when sharing an account of the agreement takes a second approver, per engagement; by default it does not', async () => {
        const { tpp, seed } = await world();
        const drift = await seed.account({ owner: FIRMA, currency: 'NOK' });
        const { organisationNumber } = await seed.agreement({
          owner: FIRMA,
          engagements: [
            { psu: KARI, accountId: drift.id, roles: ['REGISTER', 'VIEW'], consentNeedsSecondApprover: true },
            { psu: OLA, accountId: drift.id, roles: ['REGISTER', 'VIEW'] },
          ],
        });
        expect((await bank.permission(tpp, KARI, drift.id, organisationNumber)).consentNeedsSecondApprover).toBe(true);
        expect((await bank.permission(tpp, OLA, drift.id, organisationNumber)).consentNeedsSecondApprover ?? false).toBe(false);
        const own = await seed.account({ owner: OLA, currency: 'NOK' });
        expect((await bank.permission(tpp, OLA, own.id)).consentNeedsSecondApprover ?? false).toBe(false);
      });

      it('finds an account with a PSU’s permission, when it offers to, as findAccount and permission answer them apart', async () => {
        const findAccountWithPermission = bank.findAccountWithPermission?.bind(bank);
        if (findAccountWithPermission === undefined) return;
        const { tpp, seed } = await world();
        const own = await seed.account({ owner: OLA, currency: 'NOK' });
        const drift = await seed.account({ owner: FIRMA, currency: 'NOK' });
        const { organisationNumber } = await seed.agreement({
          owner: FIRMA,
          engagements: [{ psu: KARI, accountId: drift.id, roles: ['REGISTER', 'VIEW'], registerLimit: nok(5_000n) }],
        });
        const cases: [AccountReference, string, string | undefined][] = [
          [{ bban: own.bban }, OLA, undefined],
          [{ iban: own.iban }, OLA, undefined],
          [{ bban: own.bban }, KARI, undefined],
          [{ bban: own.bban }, OLA, organisationNumber],
          [{ bban: drift.bban }, KARI, organisationNumber],
          [{ bban: drift.bban }, OLA, organisationNumber],
          [{ bban: drift.bban }, KARI, undefined],
        ];
        for (const [reference, psuId, organisation] of cases) {
          const account = await bank.findAccount(tpp, reference);
          expect(
            await findAccountWithPermission(tpp, reference, psuId, organisation),
            JSON.stringify([reference, psuId, organisation]),
          ).toEqual({
            account,
            permission: await bank.permission(tpp, psuId, account!.id, organisation),
          });
        }
        expect(await findAccountWithPermission(tpp, { bban: '86011117947' }, OLA)).toBeUndefined();
      });
    });

    describe('balances', () => {
      it('gives closingBooked (booked), expected (with pending) and interimAvailable', async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        await seed.transaction(account.id, {
          status: 'pending',
          bookingDate: '2025-06-01',
          amount: nok(-25_000n),
          counterpartyName: 'Rema 1000',
        });
        expect(await bank.balances(tpp, account.id)).toEqual({
          closingBooked: nok(100_000n),
          expected: nok(75_000n),
          interimAvailable: nok(75_000n),
        });
      });

      it('gives closingBooked at the end of the closing date asked for: later bookings count in expected only', async () => {
        const { tpp, seed } = await world();
        const today = todayIn(BANK_TIME_ZONE, new Date());
        const yesterday = addDays(today, -1);
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-06-01', amount: nok(-5_000n) });
        await seed.transaction(account.id, { status: 'booked', bookingDate: today, amount: nok(-20_000n) });
        await seed.transaction(account.id, { status: 'pending', bookingDate: today, amount: nok(-1_000n) });
        expect(await bank.balances(tpp, account.id, yesterday)).toEqual({
          closingBooked: nok(95_000n),
          expected: nok(74_000n),
          interimAvailable: nok(74_000n),
        });
        expect((await bank.balances(tpp, account.id, today)).closingBooked).toEqual(nok(75_000n));
        expect((await bank.balances(tpp, account.id)).closingBooked).toEqual(nok(75_000n));
      });

      it("adds a card account's credit limit to what it has available", async () => {
        const { tpp, seed } = await world();
        const card = await seed.cardAccount({ owner: OLA, currency: 'NOK', creditLimit: nok(5_000_000n) });
        await seed.cardTransaction(card.id, { transactionDate: '2025-05-30', bookingDate: '2025-05-31', amount: nok(-40_000n) });
        await seed.cardTransaction(card.id, { transactionDate: '2025-06-01', amount: nok(-10_000n) });
        expect(await bank.balances(tpp, card.id)).toEqual({
          closingBooked: nok(-40_000n),
          expected: nok(-50_000n),
          interimAvailable: nok(4_950_000n),
        });
      });
    });

    describe('payments', () => {
      it('executes a payment submitted twice once: one debit, one executed outcome in the feed', async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const payment = instruction(debtor, nok(30_000n));
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(70_000n));
        const reported = (await wholeFeed()).filter((outcome) => outcome.paymentId === payment.paymentId);
        expect(reported).toEqual([{ paymentId: payment.paymentId, outcome: { kind: 'executed' } }]);
      });

      it("keeps a bulk's payments apart by item, each executed once", async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const first = instruction(debtor, nok(10_000n), { item: 1 });
        const second = { ...first, item: 2 };
        for (const item of [first, second, first, second]) expect(await bank.submitPayment(tpp, item)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(80_000n));
        const items = (await wholeFeed()).filter((outcome) => outcome.paymentId === first.paymentId).map((outcome) => outcome.item);
        expect(items.sort()).toEqual([1, 2]);
      });

      it('answers pending funds when the money is not there, moves nothing, and executes once funded', async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(10_000n) });
        const payment = instruction(debtor, nok(30_000n));
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'pending-funds' });
        expect(await bank.balances(tpp, debtor.id)).toMatchObject({ closingBooked: nok(10_000n), expected: nok(10_000n) });
        expect((await wholeFeed()).filter((outcome) => outcome.paymentId === payment.paymentId)).toEqual([]);
        await seed.transaction(debtor.id, { status: 'booked', bookingDate: '2025-06-01', amount: nok(50_000n), counterpartyName: 'Lønn' });
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(30_000n));
      });

      it('rejects, with a reason, what the bank cannot make, and moves nothing', async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const outcome = await bank.submitPayment(tpp, instruction(debtor, { minor: 100n, currency: 'HUF' }));
        expect(outcome).toMatchObject({ kind: 'rejected', reason: expect.stringMatching(/HUF/) });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(100_000n));
      });

      it('executes each payment of a file once, however often the file repeats it, and answers each repeat', async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const single = instruction(debtor, nok(20_000n));
        const first = instruction(debtor, nok(10_000n), { item: 1 });
        const second = { ...first, item: 2 };
        const file = [single, first, single, second, first];
        expect(await bank.submitPayments(tpp, file)).toEqual(file.map(() => ({ kind: 'executed' })));
        // The same file again moves nothing more.
        expect(await bank.submitPayments(tpp, file)).toEqual(file.map(() => ({ kind: 'executed' })));
        expect(await bank.submitPayment(tpp, single)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(60_000n));
        const reported = (await wholeFeed()).filter((outcome) => [single.paymentId, first.paymentId].includes(outcome.paymentId));
        expect(reported).toHaveLength(3);
        expect(reported.filter((outcome) => outcome.paymentId === single.paymentId)).toEqual([
          { paymentId: single.paymentId, outcome: { kind: 'executed' } },
        ]);
        expect(
          reported
            .filter((outcome) => outcome.paymentId === first.paymentId)
            .map((outcome) => outcome.item)
            .sort(),
        ).toEqual([1, 2]);
      });

      it('answers a file in its order, each payment funded by what the ones before it left, with mixed outcomes', async () => {
        const { tpp, seed } = await world();
        const ola = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(50_000n) });
        const kari = await seed.account({ owner: KARI, currency: 'NOK', closingBooked: nok(5_000n) });
        const file = [
          instruction(ola, nok(30_000n)),
          instruction(kari, nok(1_000n)),
          instruction(ola, nok(30_000n)), // 20 000 left after the first
          instruction(ola, { minor: 100n, currency: 'HUF' }),
          instruction(ola, nok(20_000n)),
          instruction(kari, nok(10_000n)),
        ];
        expect(await bank.submitPayments(tpp, file)).toEqual([
          { kind: 'executed' },
          { kind: 'executed' },
          { kind: 'pending-funds' },
          { kind: 'rejected', reason: expect.stringMatching(/HUF/) },
          { kind: 'executed' },
          { kind: 'pending-funds' },
        ]);
        expect((await bank.balances(tpp, ola.id)).closingBooked).toEqual(nok(0n));
        expect((await bank.balances(tpp, kari.id)).closingBooked).toEqual(nok(4_000n));
        const executed = (await wholeFeed())
          .filter((outcome) => outcome.outcome.kind === 'executed')
          .map((outcome) => outcome.paymentId)
          .filter((paymentId) => file.some((payment) => payment.paymentId === paymentId));
        expect(executed.sort()).toEqual([file[0]!, file[1]!, file[4]!].map((payment) => payment.paymentId).sort());
        // Pending funds stay submittable: once funded, the same payment executes.
        await seed.transaction(kari.id, { status: 'booked', bookingDate: '2025-06-01', amount: nok(6_000n), counterpartyName: 'Lønn' });
        expect(await bank.submitPayments(tpp, [file[5]!, file[2]!])).toEqual([{ kind: 'executed' }, { kind: 'pending-funds' }]);
        expect(await bank.submitPayments(tpp, [])).toEqual([]);
      });

      it('lets a credit earlier in a file fund a debit later in it, as one payment after the other would', async () => {
        const { tpp, seed } = await world();
        const ola = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(50_000n) });
        const kari = await seed.account({ owner: KARI, currency: 'NOK', closingBooked: nok(0n) });
        const file = [
          instruction(kari, nok(8_000n)), // nothing there yet
          instruction(ola, nok(10_000n), { creditorAccount: { bban: kari.bban } }),
          instruction(kari, nok(8_000n)), // funded by the credit before it
          instruction(kari, nok(5_000n)), // 2 000 left
        ];
        expect(await bank.submitPayments(tpp, file)).toEqual([
          { kind: 'pending-funds' },
          { kind: 'executed' },
          { kind: 'executed' },
          { kind: 'pending-funds' },
        ]);
        expect((await bank.balances(tpp, kari.id)).closingBooked).toEqual(nok(2_000n));
        expect((await bank.balances(tpp, ola.id)).closingBooked).toEqual(nok(40_000n));
      });

      it("executes an all-or-none bulk's payments all together or none, the others of the file on what it left", async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(60_000n) });
        const paymentId = randomUUID();
        const bulk = [nok(50_000n), nok(20_000n), nok(5_000n)].map((amount, index) =>
          instruction(debtor, amount, { paymentId, item: index + 1, allOrNone: true }),
        );
        const after = instruction(debtor, nok(55_000n));
        // One after another, 50 000 and 5 000 would be paid and 20 000 not; all or none, none is.
        expect(await bank.submitPayments(tpp, [...bulk, after])).toEqual([
          { kind: 'pending-funds' },
          { kind: 'pending-funds' },
          { kind: 'pending-funds' },
          { kind: 'executed' },
        ]);
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(5_000n));
        expect((await wholeFeed()).filter((outcome) => outcome.paymentId === paymentId)).toEqual([]);
        // Funded, all of it is paid at once; submitted again, nothing more moves.
        await seed.transaction(debtor.id, { status: 'booked', bookingDate: '2025-06-01', amount: nok(70_000n), counterpartyName: 'Lønn' });
        for (let round = 0; round < 2; round++) {
          expect(await bank.submitPayments(tpp, bulk)).toEqual(bulk.map(() => ({ kind: 'executed' })));
          expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(0n));
        }
        // One the bank cannot make answers why; the others of its bulk wait, and nothing moves.
        await seed.transaction(debtor.id, { status: 'booked', bookingDate: '2025-06-01', amount: nok(10_000n), counterpartyName: 'Lønn' });
        const refusedId = randomUUID();
        const refused = [nok(1_000n), { minor: 100n, currency: 'HUF' }].map((amount, index) =>
          instruction(debtor, amount, { paymentId: refusedId, item: index + 1, allOrNone: true }),
        );
        expect(await bank.submitPayments(tpp, refused)).toEqual([
          { kind: 'pending-funds' },
          { kind: 'rejected', reason: expect.stringMatching(/HUF/) },
        ]);
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(10_000n));
      });

      it("charges a payment's fee with it, once, as a statement line of its own; without funds for both, nothing moves", async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const payment = { ...instruction(debtor, nok(30_000n)), fee: nok(500n) };
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(69_500n));
        const lines = (await bank.transactions(tpp, debtor.id, { bookingStatus: 'booked', limit: 10 })).transactions;
        const ofPayment = lines.filter((line) => line.paymentId === payment.paymentId);
        const others = lines.filter((line) => line.paymentId !== payment.paymentId);
        expect(ofPayment.map((line) => line.amount)).toEqual([nok(-30_000n)]);
        expect(others.map((line) => line.amount)).toEqual([nok(-500n)]);
        expect(others[0]!.id).not.toBe(ofPayment[0]!.id);
        expect(await bank.transaction(tpp, debtor.id, others[0]!.id)).toEqual(others[0]);

        const short = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(30_200n) });
        const unfunded = { ...instruction(short, nok(30_000n)), fee: nok(500n) };
        expect(await bank.submitPayment(tpp, unfunded)).toEqual({ kind: 'pending-funds' });
        // Refused: no fee either.
        expect(await bank.submitPayment(tpp, { ...instruction(short, { minor: 100n, currency: 'HUF' }), fee: nok(500n) })).toMatchObject({
          kind: 'rejected',
        });
        expect(await bank.balances(tpp, short.id)).toMatchObject({ closingBooked: nok(30_200n), expected: nok(30_200n) });
      });

      it("charges each bulk payment's fee under its item, once each", async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const first = { ...instruction(debtor, nok(10_000n), { item: 1 }), fee: nok(300n) };
        const second = { ...first, item: 2 };
        for (const item of [first, second, first, second]) expect(await bank.submitPayment(tpp, item)).toEqual({ kind: 'executed' });
        expect((await bank.balances(tpp, debtor.id)).closingBooked).toEqual(nok(79_400n));
        const lines = (await bank.transactions(tpp, debtor.id, { bookingStatus: 'booked', limit: 10 })).transactions;
        const fees = lines.filter((line) => line.amount.minor === -300n);
        expect(fees).toHaveLength(2);
        expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
        for (const fee of fees) expect(await bank.transaction(tpp, debtor.id, fee.id)).toEqual(fee);
      });

      it('debits the debtor and credits a creditor account of the bank; the payment is a booked transaction on both', async () => {
        const { tpp, seed } = await world();
        const debtor = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(100_000n) });
        const creditor = await seed.account({ owner: KARI, currency: 'NOK', closingBooked: nok(5_000n) });
        const payment = instruction(debtor, nok(12_345n), { creditorAccount: { bban: creditor.bban } });
        expect(await bank.submitPayment(tpp, payment)).toEqual({ kind: 'executed' });
        expect(await bank.balances(tpp, debtor.id)).toEqual({
          closingBooked: nok(87_655n),
          expected: nok(87_655n),
          interimAvailable: nok(87_655n),
        });
        expect((await bank.balances(tpp, creditor.id)).closingBooked).toEqual(nok(17_345n));
        const [debit] = (await bank.transactions(tpp, debtor.id, { bookingStatus: 'booked', limit: 10 })).transactions;
        expect(debit).toMatchObject({ status: 'booked', bookingDate: '2025-06-02', amount: nok(-12_345n), paymentId: payment.paymentId });
        expect(await bank.transaction(tpp, debtor.id, debit!.id)).toEqual(debit);
        const [credit] = (await bank.transactions(tpp, creditor.id, { bookingStatus: 'booked', limit: 10 })).transactions;
        expect(credit).toMatchObject({ amount: nok(12_345n), paymentId: payment.paymentId });
      });
    });

    describe('transactions', () => {
      async function statement() {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(1_000_000n) });
        const ids: string[] = [];
        for (const [day, status] of [
          ['01', 'booked'],
          ['02', 'booked'],
          ['02', 'booked'],
          ['03', 'pending'],
          ['04', 'booked'],
          ['05', 'booked'],
          ['05', 'pending'],
        ] as const) {
          ids.push(
            await seed.transaction(account.id, {
              status,
              bookingDate: `2025-05-${day}`,
              amount: nok(-1_000n),
              counterpartyName: `Butikk ${day}`,
            }),
          );
        }
        return { tpp, seed, account, ids };
      }

      it('pages newest first, with no repeats and no gaps, while new transactions arrive', async () => {
        const { tpp, seed, account, ids } = await statement();
        const read = (query: TransactionQuery) => bank.transactions(tpp, account.id, query);
        const arrived: string[] = [];
        const pages = await allPages(read, { bookingStatus: 'both', limit: 3 }, async (page) => {
          // A transaction booked today, and a late one dated in the middle of what is being paged.
          if (page === 0) {
            arrived.push(await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-05-20', amount: nok(-7n) }));
          }
          if (page === 1) {
            arrived.push(await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-05-02', amount: nok(-8n) }));
          }
        });
        const seen = pages.map((item) => item.id);
        expect(new Set(seen).size).toBe(seen.length);
        for (const id of ids) expect(seen).toContain(id);
        expect(seen.filter((id) => !ids.includes(id)).every((id) => arrived.includes(id))).toBe(true);
        const dates = pages.map((item) => item.bookingDate);
        expect(dates).toEqual([...dates].sort().reverse());
        // Read again from the start: the new ones are there, the order the same.
        const again = (await allPages(read, { bookingStatus: 'both', limit: 4 })).map((item) => item.id);
        expect(again.filter((id) => seen.includes(id))).toEqual(seen);
        expect(again).toHaveLength(ids.length + arrived.length);
      });

      it('read as of a page’s asOf, leaves out what was recorded later; an asOf it did not give is ignored', async () => {
        const { tpp, seed, account, ids } = await statement();
        const first = await bank.transactions(tpp, account.id, { bookingStatus: 'both', limit: 2 });
        // A bank that cannot bound a list by a moment gives no asOf: nothing more to hold it to.
        if (first.asOf === undefined) return;
        await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-05-20', amount: nok(-7n) });
        await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-05-02', amount: nok(-8n) });
        const asOfThen = await allPages((q) => bank.transactions(tpp, account.id, q), {
          bookingStatus: 'both',
          limit: 3,
          asOf: first.asOf,
        });
        expect(new Set(asOfThen.map((item) => item.id))).toEqual(new Set(ids));
        const unknown = await bank.transactions(tpp, account.id, { bookingStatus: 'both', limit: 100, asOf: 'not-a-mark-of-this-bank' });
        expect(unknown.transactions).toHaveLength(ids.length + 2);
      });

      it('filters by booking status and by dates (inclusive)', async () => {
        const { tpp, account } = await statement();
        const read = (query: Omit<TransactionQuery, 'limit' | 'after'>) =>
          allPages((q) => bank.transactions(tpp, account.id, q), { ...query, limit: 2 });
        expect((await read({ bookingStatus: 'booked' })).map((item) => item.status)).toEqual(Array(5).fill('booked'));
        expect((await read({ bookingStatus: 'pending' })).map((item) => item.bookingDate)).toEqual(['2025-05-05', '2025-05-03']);
        expect(
          (await read({ bookingStatus: 'both', dateFrom: '2025-05-02', dateTo: '2025-05-04' })).map((item) => item.bookingDate),
        ).toEqual(['2025-05-04', '2025-05-03', '2025-05-02', '2025-05-02']);
      });

      it('counts, when it offers to, as many entries as its pages give, filtered the same and as of the same asOf', async () => {
        const { tpp, seed, account } = await statement();
        const count = bank.transactionCount?.bind(bank);
        if (count === undefined) return;
        for (const query of [
          { bookingStatus: 'both' },
          { bookingStatus: 'booked' },
          { bookingStatus: 'pending' },
          { bookingStatus: 'both', dateFrom: '2025-05-02', dateTo: '2025-05-04' },
        ] as const) {
          const pages = await allPages((q) => bank.transactions(tpp, account.id, q), { ...query, limit: 2 });
          expect(await count(tpp, account.id, query), JSON.stringify(query)).toBe(pages.length);
        }
        const first = await bank.transactions(tpp, account.id, { bookingStatus: 'both', limit: 1 });
        await seed.transaction(account.id, { status: 'booked', bookingDate: '2025-05-20', amount: nok(-7n) });
        expect(await count(tpp, account.id, { bookingStatus: 'both', asOf: first.asOf })).toBe(first.asOf === undefined ? 8 : 7);
        expect(await count(tpp, account.id, { bookingStatus: 'both' })).toBe(8);
      });

      it('keeps a pending transaction’s id when it is booked', async () => {
        const { tpp, seed, account, ids } = await statement();
        const pendingId = ids[3]!;
        const before = await bank.transaction(tpp, account.id, pendingId);
        expect(before).toMatchObject({ id: pendingId, status: 'pending', amount: nok(-1_000n), counterpartyName: 'Butikk 03' });
        await seed.book(account.id, pendingId);
        expect(await bank.transaction(tpp, account.id, pendingId)).toEqual({ ...before, status: 'booked' });
        const booked = await allPages((q) => bank.transactions(tpp, account.id, q), { bookingStatus: 'booked', limit: 10 });
        expect(booked.map((item) => item.id)).toContain(pendingId);
        expect((await bank.balances(tpp, account.id)).closingBooked).toEqual(nok(1_000_000n - 6_000n));
      });

      it('gives one transaction’s details, and nothing for an unknown id or another account', async () => {
        const { tpp, seed, account, ids } = await statement();
        const other = await seed.account({ owner: OLA, currency: 'NOK' });
        const listed = (await bank.transactions(tpp, account.id, { bookingStatus: 'both', limit: 10 })).transactions;
        const one: BankTransaction | undefined = await bank.transaction(tpp, account.id, ids[0]!);
        expect(one).toEqual(listed.find((item) => item.id === ids[0]));
        expect(one).toMatchObject({ bookingDate: '2025-05-01', valueDate: expect.any(String), counterpartyName: 'Butikk 01' });
        expect(await bank.transaction(tpp, account.id, randomUUID())).toBeUndefined();
        expect(await bank.transaction(tpp, other.id, ids[0]!)).toBeUndefined();
      });
    });

    describe('card accounts', () => {
      it("lists a PSU's card accounts and pages their transactions with merchant and original amount", async () => {
        const { tpp, seed } = await world();
        const card = await seed.cardAccount({ owner: OLA, currency: 'NOK', creditLimit: nok(1_000_000n) });
        await seed.cardAccount({ owner: KARI, currency: 'NOK', creditLimit: nok(1_000_000n) });
        expect((await bank.cardAccountsOf(tpp, OLA)).map((item) => item.id)).toEqual([card.id]);
        expect(await bank.cardAccount(tpp, card.id)).toMatchObject({ id: card.id, maskedPan: card.maskedPan, ownerName: 'Ola Nordmann' });
        const abroad = await seed.cardTransaction(card.id, {
          transactionDate: '2025-05-10',
          bookingDate: '2025-05-12',
          amount: nok(-11_725n),
          originalAmount: { minor: -1_000n, currency: 'EUR' },
          merchant: 'Café de Flore, Paris',
        });
        for (const day of ['11', '12', '13']) {
          await seed.cardTransaction(card.id, { transactionDate: `2025-05-${day}`, bookingDate: `2025-05-${day}`, amount: nok(-100n) });
        }
        const pending = await seed.cardTransaction(card.id, { transactionDate: '2025-05-14', amount: nok(-200n), merchant: 'Narvesen' });
        const all = await allPages((q) => bank.cardTransactions(tpp, card.id, q), { bookingStatus: 'both', limit: 2 });
        expect(all.map((item) => item.transactionDate)).toEqual(['2025-05-14', '2025-05-13', '2025-05-12', '2025-05-11', '2025-05-10']);
        expect(all[0]).toMatchObject({ id: pending, status: 'pending', merchant: 'Narvesen' });
        expect(all[0]!.bookingDate).toBeUndefined();
        expect(all.at(-1)).toMatchObject({
          id: abroad,
          status: 'booked',
          amount: nok(-11_725n),
          originalAmount: { minor: -1_000n, currency: 'EUR' },
          merchant: 'Café de Flore, Paris',
        });
        const booked = await allPages((q) => bank.cardTransactions(tpp, card.id, q), {
          bookingStatus: 'booked',
          limit: 10,
          dateTo: '2025-05-11',
        });
        expect(booked.map((item) => item.transactionDate)).toEqual(['2025-05-11', '2025-05-10']);
      });
    });

    describe('funds check', () => {
      it('says yes up to what is available and no beyond, in the account currency', async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(50_000n) });
        await seed.transaction(account.id, { status: 'pending', bookingDate: '2025-06-01', amount: nok(-10_000n) });
        expect(await bank.fundsAvailable(tpp, { iban: account.iban }, nok(40_000n))).toBe(true);
        expect(await bank.fundsAvailable(tpp, { bban: account.bban }, nok(40_001n))).toBe(false);
      });
    });

    describe('instant payment fee', () => {
      it("answers a fee, in the debtor account's currency and never negative, the same for the same question", async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(50_000n) });
        const query = { debtorAccountId: account.id, amount: nok(10_000n), creditorAccount: { iban: 'NO9386011117947' } };
        const fee = await bank.instantPaymentFee(tpp, query);
        expect(fee.currency).toBe('NOK');
        expect(fee.minor >= 0n).toBe(true);
        expect(await bank.instantPaymentFee(tpp, query)).toEqual(fee);
        // Asking moves no money.
        expect((await bank.balances(tpp, account.id)).expected).toEqual(nok(50_000n));
      });

      it('answers unknown-account for an account that is not the TPP’s to ask about', async () => {
        const first = await world();
        const second = await world();
        const account = await first.seed.account({ owner: OLA, currency: 'NOK' });
        const query = (debtorAccountId: string) => ({ debtorAccountId, amount: nok(100n), creditorAccount: { bban: '86011117947' } });
        await expect(bank.instantPaymentFee(first.tpp, query(randomUUID()))).rejects.toMatchObject({
          name: 'BankError',
          kind: 'unknown-account',
        });
        await expect(bank.instantPaymentFee(second.tpp, query(account.id))).rejects.toMatchObject({
          name: 'BankError',
          kind: 'unknown-account',
        });
      });
    });

    describe('bank errors', () => {
      it('are typed: an unknown account, and a currency the bank will not take', async () => {
        const { tpp, seed } = await world();
        const account = await seed.account({ owner: OLA, currency: 'NOK', closingBooked: nok(50_000n) });
        const unknown = { name: 'BankError', kind: 'unknown-account' };
        await expect(bank.balances(tpp, randomUUID())).rejects.toMatchObject(unknown);
        await expect(bank.transactions(tpp, randomUUID(), { bookingStatus: 'both', limit: 10 })).rejects.toMatchObject(unknown);
        await expect(bank.cardTransactions(tpp, randomUUID(), { bookingStatus: 'both', limit: 10 })).rejects.toMatchObject(unknown);
        await expect(bank.fundsAvailable(tpp, { bban: '86011117947' }, nok(1n))).rejects.toMatchObject(unknown);
        await expect(bank.fundsAvailable(tpp, { bban: account.bban }, { minor: 1n, currency: 'HUF' })).rejects.toMatchObject({
          name: 'BankError',
          kind: 'refused',
          message: expect.stringMatching(/HUF/),
        });
      });

      it("keeps each TPP's data apart", async () => {
        const first = await world();
        const second = await world();
        const account = await first.seed.account({ owner: OLA, currency: 'NOK' });
        expect(await bank.findAccount(second.tpp, { bban: account.bban })).toBeUndefined();
        expect(await bank.account(second.tpp, account.id)).toBeUndefined();
        await expect(bank.balances(second.tpp, account.id)).rejects.toMatchObject({ kind: 'unknown-account' });
      });
    });
  });
}
