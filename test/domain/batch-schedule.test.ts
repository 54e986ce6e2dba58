/**
 * When batch runs happen (docs/design.md §6): at the configured Europe/Oslo times of each
 * Norwegian bank day, none on weekends and bank holidays, summer time included; the next run after
 * any instant; which run is the day's last (a payment still lacking funds after it is rejected).
 */
import { describe, expect, it } from 'vitest';
import {
  batchRunsOn,
  checkBatchTimes,
  DEFAULT_BATCH_TIMES,
  isLastRunOfDay,
  nextBatchRun,
  type BatchTime,
} from '../../src/domain/batch-schedule.js';

function times(text = DEFAULT_BATCH_TIMES): readonly BatchTime[] {
  const checked = checkBatchTimes(text);
  if (!checked.ok) throw new Error(checked.reason.en);
  return checked.value;
}

const iso = (dates: readonly Date[]) => dates.map((date) => date.toISOString());

describe('checkBatchTimes', () => {
  it('reads the default five times', () => {
    expect(times()).toEqual([
      { hour: 5, minute: 35 },
      { hour: 9, minute: 30 },
      { hour: 11, minute: 30 },
      { hour: 13, minute: 35 },
      { hour: 15, minute: 35 },
    ]);
  });

  it('allows spaces around the commas, midnight and 23:59', () => {
    expect(times(' 00:00 , 23:59 ')).toEqual([
      { hour: 0, minute: 0 },
      { hour: 23, minute: 59 },
    ]);
  });

  it.each([
    ['', '"" is not a time HH:MM (00:00 to 23:59)'],
    ['5:35', '"5:35" is not a time HH:MM (00:00 to 23:59)'],
    ['24:00', '"24:00" is not a time HH:MM (00:00 to 23:59)'],
    ['09:60', '"09:60" is not a time HH:MM (00:00 to 23:59)'],
    ['09:30,09:30', '"09:30" is not later than the time before it'],
    ['11:30,09:30', '"09:30" is not later than the time before it'],
    ['09:30,', '"" is not a time HH:MM (00:00 to 23:59)'],
    [Array.from({ length: 25 }, (_, hour) => `${String(hour % 24).padStart(2, '0')}:00`).join(','), 'at most 24 runs a day, not 25'],
  ])('refuses %j: %s', (text, reason) => {
    const checked = checkBatchTimes(text);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason.en).toBe(reason);
  });
});

describe('batchRunsOn', () => {
  it('a winter bank day: the five local times at UTC+1', () => {
    expect(iso(batchRunsOn('2026-11-20', times()))).toEqual([
      '2026-11-20T04:35:00.000Z',
      '2026-11-20T08:30:00.000Z',
      '2026-11-20T10:30:00.000Z',
      '2026-11-20T12:35:00.000Z',
      '2026-11-20T14:35:00.000Z',
    ]);
  });

  it('a summer bank day: the same local times at UTC+2', () => {
    expect(iso(batchRunsOn('2026-06-16', times()))).toEqual([
      '2026-06-16T03:35:00.000Z',
      '2026-06-16T07:30:00.000Z',
      '2026-06-16T09:30:00.000Z',
      '2026-06-16T11:35:00.000Z',
      '2026-06-16T13:35:00.000Z',
    ]);
  });

  it('the Monday after summer time ends (25 October 2026) runs at UTC+1 again', () => {
    expect(iso(batchRunsOn('2026-10-26', times('05:35')))).toEqual(['2026-10-26T04:35:00.000Z']);
    expect(iso(batchRunsOn('2026-10-23', times('05:35')))).toEqual(['2026-10-23T03:35:00.000Z']);
  });

  it.each([
    ['2026-11-21', 'a Saturday'],
    ['2026-11-22', 'a Sunday'],
    ['2026-05-17', 'Constitution Day (a Sunday in 2026)'],
    ['2026-05-01', 'Labour Day'],
    ['2026-12-24', 'Christmas Eve (banks closed)'],
    ['2026-12-25', 'Christmas Day'],
    ['2026-04-02', 'Maundy Thursday'],
    ['2026-04-06', 'Easter Monday'],
    ['2027-05-17', 'Constitution Day on a Monday'],
  ])('none on %s (%s)', (date) => {
    expect(batchRunsOn(date, times())).toEqual([]);
  });

  it('a time that summer time skips is not run that day (02:30 on 29 March 2026 does not exist in Oslo)', () => {
    // 29 March 2026 is a Sunday; the same rule holds on any date, so a bank day is checked beside it.
    expect(iso(batchRunsOn('2026-03-30', times('02:30')))).toEqual(['2026-03-30T00:30:00.000Z']);
  });
});

describe('nextBatchRun', () => {
  it('the next run the same day', () => {
    expect(nextBatchRun(new Date('2026-11-20T09:00:00Z'), times()).toISOString()).toBe('2026-11-20T10:30:00.000Z');
  });

  it('strictly after: at a run instant, the one after it', () => {
    expect(nextBatchRun(new Date('2026-11-20T10:30:00Z'), times()).toISOString()).toBe('2026-11-20T12:35:00.000Z');
  });

  it("after a Friday's last run: Monday's first", () => {
    expect(nextBatchRun(new Date('2026-11-20T15:00:00Z'), times()).toISOString()).toBe('2026-11-23T04:35:00.000Z');
  });

  it('over Easter: from Wednesday evening to the Tuesday after Easter Monday', () => {
    expect(nextBatchRun(new Date('2026-04-01T18:00:00Z'), times()).toISOString()).toBe('2026-04-07T03:35:00.000Z');
  });

  it("over Christmas: from 23 December's last run past Christmas Eve (banks closed), Christmas and Boxing Day to 28 December", () => {
    expect(nextBatchRun(new Date('2026-12-23T15:00:00Z'), times()).toISOString()).toBe('2026-12-28T04:35:00.000Z');
  });
});

describe('isLastRunOfDay', () => {
  it("only the day's last run is the last", () => {
    const runs = batchRunsOn('2026-11-20', times());
    expect(runs.map((run) => isLastRunOfDay(run, times()))).toEqual([false, false, false, false, true]);
  });

  it('with one run a day, every run is the last', () => {
    const [run] = batchRunsOn('2026-11-20', times('09:30'));
    expect(isLastRunOfDay(run!, times('09:30'))).toBe(true);
  });
});
