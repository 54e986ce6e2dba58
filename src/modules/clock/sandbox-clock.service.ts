import { withTransaction, type Db } from '../../db/create-db.js';
import { BANK_TIME_ZONE, isBankDay } from '../../domain/bank-calendar.js';
import { batchRunsOn, nextBatchRun, type BatchTime } from '../../domain/batch-schedule.js';
import { checkIsoDate, todayIn } from '../../domain/iso-date.js';
import { localized } from '../../domain/localized.js';
import { auditService } from '../audit/audit.service.js';
import { refuse } from '../sandbox/sandbox-checks.js';
import type { BankClock } from './bank-clock.js';
import { sandboxClockRepository } from './sandbox-clock.repository.js';

/** How far ahead a TPP may move its clock: ten years is far past any execution date the API accepts. */
const MAX_YEARS_AHEAD = 10;

export interface SandboxClockView {
  readonly dateTime: string;
  readonly today: string;
  readonly bankDay: boolean;
  readonly offsetSeconds: number;
  /** The batch runs still to come on this date, by the TPP's clock. */
  readonly batchRunsLeftToday: number;
  readonly nextBatchRun: string;
}

export type ClockChange = { readonly dateTime?: string | undefined; readonly reset?: boolean | undefined };

/**
 * `GET|POST /v1/sandbox/clock`: a TPP's own "now", moved ahead of the real clock so a
 * future-dated payment falls due, or a day's last batch run passes, without waiting. It only moves
 * ahead of the real time, never behind it; `reset` goes back to the real time.
 */
export function createSandboxClockService(db: Db, clock: BankClock, batchTimes: readonly BatchTime[]) {
  async function view(tppId: string): Promise<SandboxClockView> {
    const now = await clock.now(tppId);
    const today = todayIn(BANK_TIME_ZONE, now);
    return {
      dateTime: now.toISOString(),
      today,
      bankDay: isBankDay(today),
      offsetSeconds: Math.round((now.getTime() - clock.realNow().getTime()) / 1000),
      batchRunsLeftToday: batchRunsOn(today, batchTimes).filter((run) => run > now).length,
      nextBatchRun: nextBatchRun(now, batchTimes).toISOString(),
    };
  }

  return {
    view,

    async set(caller: { tppId: string; requestId?: string | undefined }, change: ClockChange): Promise<SandboxClockView> {
      if (change.dateTime === undefined && change.reset === undefined) {
        refuse(
          'body',
          localized('must hold one of dateTime or reset: neither was sent', 'må ha én av dateTime eller reset: ingen av dem ble sendt'),
        );
      }
      if (change.dateTime !== undefined && change.reset !== undefined) {
        refuse('body', localized('must hold either dateTime or reset, not both', 'må ha enten dateTime eller reset, ikke begge'));
      }
      if (change.reset === false) refuse('reset', localized('can only be true', 'kan bare være true'));
      const real = clock.realNow();
      let offset = 0;
      if (change.dateTime !== undefined) {
        const target = Date.parse(change.dateTime);
        // Date.parse rolls 30 February on to March: the calendar date is checked on its own.
        const wellFormed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(change.dateTime);
        if (!wellFormed || !checkIsoDate(change.dateTime.slice(0, 10)).ok || Number.isNaN(target)) {
          refuse(
            'dateTime',
            localized(
              'is not a date and time with its offset, such as 2026-11-23T15:40:00+01:00',
              'er ikke dato og klokkeslett med tidssone, som 2026-11-23T15:40:00+01:00',
            ),
          );
        }
        offset = target - real.getTime();
        // A second's slack: "now" as the TPP read it a moment ago.
        if (offset < -1000) {
          refuse(
            'dateTime',
            localized(
              `the sandbox clock only moves ahead of the real time (${real.toISOString()}); use reset to go back to it`,
              `sandkasseklokken kan bare gå foran den virkelige tiden (${real.toISOString()}); bruk reset for å gå tilbake til den`,
            ),
          );
        }
        const limit = new Date(real);
        limit.setUTCFullYear(limit.getUTCFullYear() + MAX_YEARS_AHEAD);
        if (target > limit.getTime()) {
          refuse('dateTime', localized('is more than ten years ahead', 'er mer enn ti år fram i tid'));
        }
        offset = Math.max(offset, 0);
      }
      const at = real.toISOString();
      await withTransaction(db, async (trx) => {
        await sandboxClockRepository.set(trx, caller.tppId, offset, at);
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: caller.tppId },
            requestId: caller.requestId,
            action: 'sandbox.clock-set',
            resource: { type: 'sandbox-clock', id: caller.tppId },
            details: { offsetMs: offset },
          },
          at,
        );
      });
      return view(caller.tppId);
    },
  };
}

export type SandboxClockService = ReturnType<typeof createSandboxClockService>;
