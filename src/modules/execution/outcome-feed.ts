import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CoreBanking } from '../../bank/core-banking.port.js';
import { withTransaction, type Db } from '../../db/create-db.js';
import type { BankClock } from '../clock/bank-clock.js';
import type { PaymentExecutor } from './payment-executor.js';
import { paymentSubmissionRepository } from './payment-submission.repository.js';

/** The name the server's cursor in the bank's feed is stored under. */
const CURSOR = 'core-banking';
const PAGE = 200;

export interface OutcomeFeedDeps {
  readonly db: Db;
  readonly coreBanking: CoreBanking;
  readonly executor: PaymentExecutor;
  readonly clock: BankClock;
  readonly logger?: FastifyBaseLogger | undefined;
}

/**
 * Reads the bank's outcome feed (`outcomesSince`) from the stored cursor on and applies each
 * outcome (docs/design.md §3): a payment the bank accepted waits in ACSP until the feed says executed or
 * rejected. Each outcome is applied in a transaction of its own and idempotently (an item's final
 * outcome is never replaced), and the cursor is stored after its page: a stop in between reads the
 * page again, harmlessly. Several processes may poll at once.
 */
export function createOutcomeFeedPoller(deps: OutcomeFeedDeps) {
  const { db, coreBanking, executor, clock } = deps;

  return {
    /** Reads the feed to its end; how many outcomes it read. */
    async pollOnce(): Promise<number> {
      let read = 0;
      for (;;) {
        const cursor = await paymentSubmissionRepository.feedCursor(db, CURSOR);
        const page = await coreBanking.outcomesSince(cursor, PAGE);
        for (const reported of page.outcomes) {
          const at = clock.realNow().toISOString();
          await withTransaction(db, (trx) =>
            executor.applyReported(trx, reported.paymentId, reported.item ?? 0, reported.outcome, {
              at,
              actor: { type: 'system', id: 'outcome-feed' },
              todayOf: (tppId, trx) => clock.today(tppId, trx),
            }),
          );
        }
        if (page.outcomes.length === 0) return read;
        await paymentSubmissionRepository.saveFeedCursor(db, CURSOR, page.cursor, clock.realNow().toISOString());
        read += page.outcomes.length;
      }
    },
  };
}

export type OutcomeFeedPoller = ReturnType<typeof createOutcomeFeedPoller>;

/**
 * Polls the feed every `intervalMs` while the server runs (from when it is ready until it closes),
 * one poll at a time; a failed poll is logged and tried again at the next tick.
 */
export function installOutcomeFeed(app: FastifyInstance, poller: OutcomeFeedPoller, intervalMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<unknown> = Promise.resolve();
  let closed = false;
  const tick = () => {
    polling = poller
      .pollOnce()
      .catch((error: unknown) => app.log.error({ err: error }, 'outcome feed: poll failed'))
      .finally(() => {
        if (!closed) timer = setTimeout(tick, intervalMs);
      });
  };
  app.addHook('onReady', async () => {
    timer = setTimeout(tick, 0);
  });
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await polling;
  });
}
