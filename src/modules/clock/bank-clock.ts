import type { Db, DbOrTx } from '../../db/create-db.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { todayIn, type IsoDate } from '../../domain/iso-date.js';
import { sandboxClockRepository } from './sandbox-clock.repository.js';

/**
 * The bank's time as one TPP sees it. In the sandbox each TPP may move its own clock
 * ahead (`POST /v1/sandbox/clock`) to see future-dated payments fall due without waiting; the
 * execution-date rules, approval (PDNG or ACTC), batch runs and booking dates use it. SCA
 * deadlines and signatures keep the real clock: they are about real people and real messages; a
 * consent's SCA time is taken from this clock, since its 180 days and fresh-SCA hour are checked by it.
 */
/** One reading of a TPP's bank clock: the instant and the bank date it falls on. */
export interface BankMoment {
  readonly now: Date;
  /** The bank date (Europe/Oslo) of `now`. */
  readonly today: IsoDate;
}

export interface BankClock {
  /** `within`: the caller's transaction, when it is in one (SQLite has one connection). */
  now(tppId: string, within?: DbOrTx): Promise<Date>;
  /** The TPP's bank date (Europe/Oslo). */
  today(tppId: string, within?: DbOrTx): Promise<IsoDate>;
  /** Both from one reading of the TPP's clock: a check that needs the date and the time sees one instant. */
  moment(tppId: string, within?: DbOrTx): Promise<BankMoment>;
  /** Every TPP's offset from the real clock that is not 0, for a run over all TPPs. */
  offsets(): Promise<ReadonlyMap<string, number>>;
  /** The real clock. */
  realNow(): Date;
}

export function createBankClock(db: Db, realNow: () => Date, sandbox: boolean): BankClock {
  async function now(tppId: string, within: DbOrTx = db): Promise<Date> {
    if (!sandbox) return realNow();
    const offset = await sandboxClockRepository.offsetOf(within, tppId);
    return new Date(realNow().getTime() + offset);
  }
  return {
    now,
    async today(tppId, within) {
      return todayIn(BANK_TIME_ZONE, await now(tppId, within));
    },
    async moment(tppId, within) {
      const at = await now(tppId, within);
      return { now: at, today: todayIn(BANK_TIME_ZONE, at) };
    },
    async offsets() {
      return sandbox ? sandboxClockRepository.offsets(db) : new Map();
    },
    realNow,
  };
}
