import type { DbOrTx } from '../../db/create-db.js';
import type { RecordedOutcome } from './recorded-outcome.js';

export interface SubmissionRow {
  readonly paymentId: string;
  /** 0: a single payment; n: a bulk's n-th payment. */
  readonly item: number;
  readonly tppId: string;
  /** undefined: in flight (submitted, or about to be, with no answer recorded). */
  readonly outcome: RecordedOutcome | undefined;
  readonly submittedAt: string;
  /** What the outcome feed reported while the submission was in flight. */
  readonly reported: RecordedOutcome | undefined;
}

const FINAL: RecordedOutcome['kind'][] = ['executed', 'rejected'];

export function isFinalOutcome(outcome: RecordedOutcome | undefined): boolean {
  return outcome !== undefined && FINAL.includes(outcome.kind);
}

/** Payments per statement (both databases cap the bound parameters of one statement). */
const SLICE = 500;

function toRow(row: {
  payment_id: string;
  item: number;
  tpp_id: string;
  outcome: string | null;
  reason: string | null;
  submitted_at: string;
  reported: string | null;
  reported_reason: string | null;
}): SubmissionRow {
  return {
    paymentId: row.payment_id,
    item: row.item,
    tppId: row.tpp_id,
    outcome: outcomeOf(row),
    submittedAt: row.submitted_at,
    reported: outcomeOf({ outcome: row.reported, reason: row.reported_reason }),
  };
}

function outcomeOf(row: { outcome: string | null; reason: string | null }): RecordedOutcome | undefined {
  switch (row.outcome) {
    case null:
      return undefined;
    case 'rejected':
      return { kind: 'rejected', reason: row.reason ?? 'Rejected by the bank' };
    case 'executed':
    case 'pending-funds':
    case 'accepted':
      return { kind: row.outcome };
    default:
      throw new Error(`unknown submission outcome ${row.outcome}`);
  }
}

/** The only place that queries payment_submission and outcome_feed_cursor. */
export const paymentSubmissionRepository = {
  /** A payment's submissions, by item. */
  async ofPayment(db: DbOrTx, paymentId: string): Promise<SubmissionRow[]> {
    const rows = await db.selectFrom('payment_submission').selectAll().where('payment_id', '=', paymentId).orderBy('item').execute();
    return rows.map(toRow);
  },

  /** {@link ofPayment} of many payments at once: each payment's submissions by item (none: an empty list). */
  async ofPayments(db: DbOrTx, paymentIds: readonly string[]): Promise<Map<string, SubmissionRow[]>> {
    const found = new Map<string, SubmissionRow[]>(paymentIds.map((id) => [id, []]));
    for (let start = 0; start < paymentIds.length; start += SLICE) {
      const rows = await db
        .selectFrom('payment_submission')
        .selectAll()
        .where('payment_id', 'in', paymentIds.slice(start, start + SLICE))
        .orderBy('payment_id')
        .orderBy('item')
        .execute();
      for (const row of rows) found.get(row.payment_id)?.push(toRow(row));
    }
    return found;
  },

  /**
   * Marks items as submitted (in flight) before the bank is asked, in the caller's transaction:
   * new ones inserted, ones with a non-final answer (pending funds, accepted) made in flight again.
   * Items with a final outcome are left as they are.
   */
  async markInFlight(trx: DbOrTx, tppId: string, paymentId: string, items: readonly number[], at: string): Promise<void> {
    if (items.length === 0) return;
    await trx
      .insertInto('payment_submission')
      .values(items.map((item) => ({ payment_id: paymentId, item, tpp_id: tppId, submitted_at: at, outcome: null, reason: null })))
      .onConflict((conflict) =>
        conflict
          .columns(['payment_id', 'item'])
          .doUpdateSet({ outcome: null, reason: null, submitted_at: at })
          .where('payment_submission.outcome', 'not in', FINAL),
      )
      .execute();
  },

  /** {@link markInFlight} of many payments, in a few statements. */
  async markManyInFlight(
    trx: DbOrTx,
    entries: readonly { tppId: string; paymentId: string; items: readonly number[] }[],
    at: string,
  ): Promise<void> {
    const rows = entries.flatMap(({ tppId, paymentId, items }) =>
      items.map((item) => ({ payment_id: paymentId, item, tpp_id: tppId, submitted_at: at, outcome: null, reason: null })),
    );
    for (let start = 0; start < rows.length; start += SLICE) {
      await trx
        .insertInto('payment_submission')
        .values(rows.slice(start, start + SLICE))
        .onConflict((conflict) =>
          conflict
            .columns(['payment_id', 'item'])
            .doUpdateSet({ outcome: null, reason: null, submitted_at: at })
            .where('payment_submission.outcome', 'not in', FINAL),
        )
        .execute();
    }
  },

  /**
   * {@link record} of many answers, in one statement per kind of answer and item number (a batch
   * run's answers are mostly the same: executed, item 0).
   */
  async recordMany(trx: DbOrTx, answers: readonly { paymentId: string; item: number; outcome: RecordedOutcome }[]): Promise<void> {
    const groups = new Map<string, { item: number; outcome: RecordedOutcome; paymentIds: string[] }>();
    for (const { paymentId, item, outcome } of answers) {
      const key = JSON.stringify([item, outcome.kind, outcome.kind === 'rejected' ? outcome.reason : null]);
      const group = groups.get(key);
      if (group) group.paymentIds.push(paymentId);
      else groups.set(key, { item, outcome, paymentIds: [paymentId] });
    }
    for (const { item, outcome, paymentIds } of groups.values()) {
      for (let start = 0; start < paymentIds.length; start += SLICE) {
        await trx
          .updateTable('payment_submission')
          .set({ outcome: outcome.kind, reason: outcome.kind === 'rejected' ? outcome.reason : null })
          .where('payment_id', 'in', paymentIds.slice(start, start + SLICE))
          .where('item', '=', item)
          .where((eb) => eb.or([eb('outcome', 'is', null), eb('outcome', 'not in', FINAL)]))
          .execute();
      }
    }
  },

  /** Records the bank's answer for an item unless a final one is recorded already (the feed's, say). */
  async record(trx: DbOrTx, paymentId: string, item: number, outcome: RecordedOutcome): Promise<void> {
    await trx
      .updateTable('payment_submission')
      .set({ outcome: outcome.kind, reason: outcome.kind === 'rejected' ? outcome.reason : null })
      .where('payment_id', '=', paymentId)
      .where('item', '=', item)
      .where((eb) => eb.or([eb('outcome', 'is', null), eb('outcome', 'not in', FINAL)]))
      .execute();
  },

  /**
   * After a submission whose answer never came (the bank failed or timed out): still in flight,
   * as the bank may have executed it, but free for the next run to submit again at once.
   */
  async release(trx: DbOrTx, paymentId: string): Promise<void> {
    await trx
      .updateTable('payment_submission')
      .set({ submitted_at: new Date(0).toISOString() })
      .where('payment_id', '=', paymentId)
      .where('outcome', 'is', null)
      .execute();
  },

  /** {@link release} of many payments at once. */
  async releaseMany(trx: DbOrTx, paymentIds: readonly string[]): Promise<void> {
    for (let start = 0; start < paymentIds.length; start += SLICE) {
      await trx
        .updateTable('payment_submission')
        .set({ submitted_at: new Date(0).toISOString() })
        .where('payment_id', 'in', paymentIds.slice(start, start + SLICE))
        .where('outcome', 'is', null)
        .execute();
    }
  },

  /** Keeps what the feed reported for an item in flight, for the executor to find. */
  async keepReported(trx: DbOrTx, paymentId: string, item: number, outcome: RecordedOutcome): Promise<void> {
    await trx
      .updateTable('payment_submission')
      .set({ reported: outcome.kind, reported_reason: outcome.kind === 'rejected' ? outcome.reason : null })
      .where('payment_id', '=', paymentId)
      .where('item', '=', item)
      .where('reported', 'is', null)
      .execute();
  },

  /** Whether a submission of the payment is in flight: then only the executor may move it. */
  async isInFlight(db: DbOrTx, paymentId: string): Promise<boolean> {
    const row = await db
      .selectFrom('payment_submission')
      .select('item')
      .where('payment_id', '=', paymentId)
      .where('outcome', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The payments with a submission in flight (a crash between the bank's answer and its record), of one TPP or all. */
  async listInFlight(db: DbOrTx, tppId?: string): Promise<{ paymentId: string; tppId: string }[]> {
    let query = db.selectFrom('payment_submission').select(['payment_id', 'tpp_id']).distinct().where('outcome', 'is', null);
    if (tppId !== undefined) query = query.where('tpp_id', '=', tppId);
    return (await query.orderBy('payment_id').execute()).map((row) => ({ paymentId: row.payment_id, tppId: row.tpp_id }));
  },

  async feedCursor(db: DbOrTx, name: string): Promise<string | undefined> {
    const row = await db.selectFrom('outcome_feed_cursor').select('cursor').where('name', '=', name).executeTakeFirst();
    return row?.cursor;
  },

  async saveFeedCursor(db: DbOrTx, name: string, cursor: string, at: string): Promise<void> {
    await db
      .insertInto('outcome_feed_cursor')
      .values({ name, cursor, updated_at: at })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ cursor, updated_at: at }))
      .execute();
  },
};
