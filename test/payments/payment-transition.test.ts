/**
 * The one way a payment's status changes (docs/design.md §3), on each database of DIALECTS:
 * - a legal transition updates the row and writes exactly one `payment.status-changed` audit event;
 * - an illegal transition is refused with STATUS_INVALID and changes nothing;
 * - a stale payment object (its status changed meanwhile) is refused and changes nothing;
 * - inside a transaction that fails afterwards, neither the status nor the audit event remains;
 * - fundsAvailable reads back as a boolean;
 * - the executor's changes of many payments at once (transitionPayments) move each and audit each
 *   step as one by one would; one payment moved meanwhile, an illegal step or a change that is not
 *   the executor's changes none of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/create-db.js';
import { AppError } from '../../src/errors/app-error.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import { paymentRepository } from '../../src/modules/payments/payment.repository.js';
import type { NewPayment, Payment } from '../../src/modules/payments/payment.model.js';
import type { TransactionStatus } from '../../src/modules/payments/payment-status.js';
import { transitionPayment, transitionPayments, type StatusChange } from '../../src/modules/payments/payment-transition.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { NO_HEADERS } from '../support/stored-payment.js';

const TPP = 'PSDNO-FSA-123456789';
const PSU = '13039319955';
const CREATED = '2026-11-20T08:00:00.000Z';
const T1 = '2026-11-20T08:05:00.000Z';
const T2 = '2026-11-20T09:30:00.000Z';
const T3 = '2026-11-20T11:30:00.000Z';

function newPayment(status: TransactionStatus): NewPayment {
  const id = randomUUID();
  return {
    id,
    tppId: TPP,
    service: 'payments',
    product: 'norwegian-domestic-credit-transfers',
    status,
    requestId: randomUUID(),
    psuId: PSU,
    psuCorporateId: undefined,
    debtorAccountId: 'account-12345678903',
    currency: 'NOK',
    amountMinor: 10_000n,
    requestedExecutionDate: undefined,
    body: {
      debtorAccount: { bban: '12345678903' },
      instructedAmount: { currency: 'NOK', amount: '100.00' },
      creditorAccount: { bban: '86011117947' },
      creditorName: 'Kari Nordmann',
    },
    requestContext: NO_HEADERS,
    createdAt: CREATED,
    logicalKey: `key-${id}`,
  };
}

function change(to: TransactionStatus, at: string, extra: Partial<StatusChange> = {}): StatusChange {
  return { to, actor: { type: 'psu', id: PSU }, requestId: randomUUID(), at, ...extra };
}

describe.each(DIALECTS)('transitionPayment on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  async function stored(status: TransactionStatus = 'RCVD'): Promise<Payment> {
    const payment = newPayment(status);
    await paymentRepository.insert(database.db, payment);
    return reread(payment);
  }

  async function reread(payment: Pick<Payment, 'id' | 'service'>): Promise<Payment> {
    const found = await paymentRepository.find(database.db, TPP, payment.service, payment.id);
    if (found === undefined) throw new Error(`payment ${payment.id} not found`);
    return found;
  }

  const events = (payment: Payment) => auditRepository.listForResource(database.db, 'payment', payment.id);

  async function expectStatusInvalid(promise: Promise<unknown>): Promise<void> {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('STATUS_INVALID');
  }

  it('moves RCVD to ACTC, stores it and writes exactly one audit event', async () => {
    const payment = await stored();
    expect(payment.status).toBe('RCVD');
    expect(payment.statusChangedAt).toBe(CREATED);
    const requestId = randomUUID();

    const returned = await transitionPayment(database.db, payment, change('ACTC', T1, { requestId }));

    expect(returned).toEqual({ ...payment, status: 'ACTC', statusReason: undefined, statusChangedAt: T1 });
    expect(await reread(payment)).toEqual(returned);
    const audit = await events(payment);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'payment.status-changed',
      actor: { type: 'psu', id: PSU },
      requestId,
      resource: { type: 'payment', id: payment.id },
      occurredAt: T1,
    });
    expect(audit[0]!.details).toEqual({ from: 'RCVD', to: 'ACTC' });
  });

  it('records the reason of a rejection in the row and the audit event', async () => {
    const payment = await stored();
    await transitionPayment(database.db, payment, change('RJCT', T1, { reason: 'SCA failed', actor: { type: 'system', id: 'sca' } }));
    const after = await reread(payment);
    expect(after.status).toBe('RJCT');
    expect(after.statusReason).toBe('SCA failed');
    const audit = await events(payment);
    expect(audit.map((entry) => entry.details)).toEqual([{ from: 'RCVD', to: 'RJCT', reason: 'SCA failed' }]);
    expect(audit[0]!.actor).toEqual({ type: 'system', id: 'sca' });
  });

  it.each([
    ['RCVD', 'ACSP'],
    ['RCVD', 'RCVD'],
    ['CANC', 'ACTC'],
    ['RJCT', 'ACTC'],
    ['PDNG', 'CANC'],
    ['ACCC', 'RJCT'],
  ] as const)('refuses %s → %s with STATUS_INVALID and changes nothing', async (from, to) => {
    const payment = await stored(from);
    await expectStatusInvalid(transitionPayment(database.db, payment, change(to, T1)));
    expect(await reread(payment)).toEqual(payment);
    expect(await events(payment)).toEqual([]);
  });

  it('refuses a stale payment whose status another transition already changed, and changes nothing', async () => {
    const payment = await stored();
    const approved = await transitionPayment(database.db, payment, change('ACTC', T1));
    const before = await events(payment);
    expect(before).toHaveLength(1);

    // RCVD → CANC is legal by the table, but the row is no longer RCVD.
    await expectStatusInvalid(transitionPayment(database.db, payment, change('CANC', T2, { actor: { type: 'tpp', id: TPP } })));
    expect(await reread(payment)).toEqual(approved);
    expect(await events(payment)).toEqual(before);

    // The up-to-date object still moves on.
    await transitionPayment(database.db, approved, change('ACSP', T3, { actor: { type: 'system', id: 'batch' } }));
    expect((await reread(payment)).status).toBe('ACSP');
    expect((await events(payment)).map((entry) => entry.details)).toEqual([
      { from: 'RCVD', to: 'ACTC' },
      { from: 'ACTC', to: 'ACSP' },
    ]);
  });

  it('lets only one of two transitions from the same status win', async () => {
    const payment = await stored();
    const results = await Promise.allSettled([
      transitionPayment(database.db, payment, change('ACTC', T1)),
      transitionPayment(database.db, payment, change('CANC', T1, { actor: { type: 'tpp', id: TPP } })),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((result) => result.status === 'rejected');
    expect(loser?.reason).toBeInstanceOf(AppError);
    expect((loser?.reason as AppError).code).toBe('STATUS_INVALID');
    const after = await reread(payment);
    expect(['ACTC', 'CANC']).toContain(after.status);
    const audit = await events(payment);
    expect(audit.map((entry) => entry.details)).toEqual([{ from: 'RCVD', to: after.status }]);
  });

  it('leaves neither the status change nor the audit event when the transaction fails afterwards', async () => {
    const payment = await stored();
    await expect(
      withTransaction(database.db, async (trx) => {
        const moved = await transitionPayment(trx, payment, change('ACTC', T1));
        expect(moved.status).toBe('ACTC');
        expect((await paymentRepository.find(trx, TPP, payment.service, payment.id))?.status).toBe('ACTC');
        expect(await auditRepository.listForResource(trx, 'payment', payment.id)).toHaveLength(1);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await reread(payment)).toEqual(payment);
    expect(await events(payment)).toEqual([]);
  });

  it('keeps the status change and the audit event of a transaction that commits', async () => {
    const payment = await stored();
    await withTransaction(database.db, (trx) => transitionPayment(trx, payment, change('ACTC', T1)));
    expect((await reread(payment)).status).toBe('ACTC');
    expect(await events(payment)).toHaveLength(1);
  });

  it('stores fundsAvailable as a boolean that reads back as one', async () => {
    const payment = await stored('ACTC');
    expect(payment.fundsAvailable).toBeUndefined();

    const lacking = await transitionPayment(database.db, payment, change('ACCP', T1, { fundsAvailable: false }));
    expect(lacking.fundsAvailable).toBe(false);
    expect((await reread(payment)).fundsAvailable).toBe(false);

    const taken = await transitionPayment(database.db, lacking, change('ACSP', T2, { fundsAvailable: true }));
    expect(taken.fundsAvailable).toBe(true);
    expect((await reread(payment)).fundsAvailable).toBe(true);

    // A change without fundsAvailable keeps the stored value.
    const settled = await transitionPayment(database.db, taken, change('ACSC', T3));
    expect(settled.fundsAvailable).toBe(true);
    const after = await reread(payment);
    expect(after).toEqual(settled);
    expect(typeof after.fundsAvailable).toBe('boolean');
  });
});

describe.each(DIALECTS)("transitionPayments (a batch run's chunk) on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  const executor = { type: 'system' as const, id: 'batch-run:test' };
  const executed = (at: string): StatusChange => ({
    to: 'ACSC',
    through: ['ACSP'],
    fundsAvailable: true,
    actor: executor,
    at,
    byExecutor: true,
  });

  async function storedMany(count: number, status: TransactionStatus): Promise<Payment[]> {
    const payments: Payment[] = [];
    for (let i = 0; i < count; i++) {
      const payment = newPayment(status);
      await paymentRepository.insert(database.db, payment);
      payments.push((await paymentRepository.findById(database.db, TPP, payment.id))!);
    }
    return payments;
  }

  it("moves every payment as transitionPayment would, each step audited, over more than one statement's slice", async () => {
    const payments = await storedMany(260, 'ACTC');
    const waiting = await storedMany(3, 'ACTC');
    await withTransaction(database.db, (trx) =>
      transitionPayments(trx, [
        ...payments.map((payment) => ({ payment, change: executed(T1) })),
        ...waiting.map((payment) => ({
          payment,
          change: { to: 'ACCP' as const, fundsAvailable: false, actor: executor, at: T1, byExecutor: true },
        })),
      ]),
    );
    const states = await paymentRepository.findStatesById(
      database.db,
      TPP,
      [...payments, ...waiting].map((payment) => payment.id),
    );
    expect(states.filter((state) => state.status === 'ACSC')).toHaveLength(260);
    expect(states.filter((state) => state.status === 'ACCP')).toHaveLength(3);
    const one = (await paymentRepository.findById(database.db, TPP, payments[200]!.id))!;
    expect(one).toMatchObject({ status: 'ACSC', fundsAvailable: true, statusChangedAt: T1, statusReason: undefined });
    const audit = await auditRepository.listForResource(database.db, 'payment', payments[200]!.id);
    expect(audit.map((entry) => [entry.details, entry.actor, entry.occurredAt])).toEqual([
      [{ from: 'ACTC', to: 'ACSP' }, executor, T1],
      [{ from: 'ACSP', to: 'ACSC' }, executor, T1],
    ]);
  });

  it("changes nothing when one payment had moved meanwhile (STATUS_INVALID), nor for an illegal step or a change not the executor's", async () => {
    const payments = await storedMany(3, 'ACTC');
    // The third was cancelled after the caller read it.
    await transitionPayment(database.db, payments[2]!, change('CANC', T1));
    const attempt = (changes: Parameters<typeof transitionPayments>[1]) =>
      withTransaction(database.db, (trx) => transitionPayments(trx, changes)).then(
        () => undefined,
        (error: unknown) => error,
      );
    const stale = await attempt(payments.map((payment) => ({ payment, change: executed(T2) })));
    expect(stale).toBeInstanceOf(AppError);
    expect((stale as AppError).code).toBe('STATUS_INVALID');
    const illegal = await attempt([{ payment: payments[0]!, change: { ...executed(T2), through: [], to: 'ACCC' } }]);
    expect((illegal as AppError).code).toBe('STATUS_INVALID');
    expect(await attempt([{ payment: payments[0]!, change: { ...executed(T2), byExecutor: false } }])).toBeInstanceOf(Error);
    const states = await paymentRepository.findStatesById(
      database.db,
      TPP,
      payments.map((payment) => payment.id),
    );
    expect(states.map((state) => state.status).sort()).toEqual(['ACTC', 'ACTC', 'CANC']);
    expect(await auditRepository.listForResource(database.db, 'payment', payments[0]!.id)).toEqual([]);
  });
});
