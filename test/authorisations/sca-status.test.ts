/**
 * The scaStatus model of an authorisation (docs/design.md §3): the move table as a full matrix against the
 * legal set written out here (so any change to the table shows up in review), the final statuses
 * with no way out, and the status guard.
 */
import { describe, expect, it } from 'vitest';
import {
  approvedScaMove,
  canMoveSca,
  FINAL_SCA_STATUSES,
  isFinalScaStatus,
  isScaStatus,
  SCA_STATUSES,
  type ScaStatus,
} from '../../src/modules/authorisations/sca-status.js';

const ALL = ['received', 'psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'started', 'finalised', 'failed', 'exempted'] as const;

/** The legal moves, written out literally. */
const LEGAL: Readonly<Record<ScaStatus, readonly ScaStatus[]>> = {
  received: ['psuIdentified', 'failed'],
  psuIdentified: ['psuAuthenticated', 'failed'],
  // finalised directly: a PSU login is done once the PSU is authenticated (no confirmation page).
  psuAuthenticated: ['scaMethodSelected', 'finalised', 'failed'],
  scaMethodSelected: ['started', 'failed'],
  started: ['finalised', 'failed'],
  finalised: [],
  failed: [],
  exempted: [],
};

const FINAL = ['finalised', 'failed', 'exempted'] as const;
const OPEN = ['received', 'psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'started'] as const;

function targets(from: ScaStatus): ScaStatus[] {
  return SCA_STATUSES.filter((to) => canMoveSca(from, to));
}

describe('SCA statuses', () => {
  it('are the Berlin Group scaStatus values the bank uses, in flow order', () => {
    expect([...SCA_STATUSES]).toEqual([...ALL]);
  });

  it('recognises exactly those as statuses', () => {
    for (const status of ALL) expect(isScaStatus(status)).toBe(true);
    for (const other of ['Received', 'FINALISED', 'unconfirmed', 'partiallyAuthorised', '', 'failed ', 'toString']) {
      expect(isScaStatus(other)).toBe(false);
    }
  });
});

describe('canMoveSca', () => {
  const matrix = ALL.flatMap((from) => ALL.map((to) => ({ from, to, legal: LEGAL[from].includes(to) })));

  it('covers all 64 pairs', () => {
    expect(matrix).toHaveLength(64);
  });

  it.each(matrix)('$from → $to is legal: $legal', ({ from, to, legal }) => {
    expect(canMoveSca(from, to)).toBe(legal);
  });

  it.each(matrix)('$from → $to is approved as a move for storage: $legal', ({ from, to, legal }) => {
    expect(approvedScaMove(from, to)).toEqual(legal ? { from, to } : undefined);
  });

  it('never moves an authorisation to the status it already has', () => {
    for (const status of ALL) expect(canMoveSca(status, status)).toBe(false);
  });

  it('never moves an authorisation back to received, nor into exempted', () => {
    for (const status of ALL) {
      expect(canMoveSca(status, 'received')).toBe(false);
      expect(canMoveSca(status, 'exempted')).toBe(false);
    }
  });

  it('never moves backwards in the flow order', () => {
    for (const [i, from] of ALL.entries()) {
      for (const to of ALL.slice(0, i)) expect(canMoveSca(from, to)).toBe(false);
    }
  });

  it('reaches finalised and failed from received, and every open status on the way', () => {
    const reached = new Set<ScaStatus>(['received']);
    const queue: ScaStatus[] = ['received'];
    for (let status = queue.shift(); status !== undefined; status = queue.shift()) {
      for (const next of targets(status)) {
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    expect([...reached].sort()).toEqual([...OPEN, 'finalised', 'failed'].sort());
  });

  it.each(OPEN)('lets an open authorisation in %s still fail (rejection, wrong codes, another PSU, expiry)', (status) => {
    expect(canMoveSca(status, 'failed')).toBe(true);
  });

  it('finalises only after authentication: never from received or psuIdentified', () => {
    expect(canMoveSca('received', 'finalised')).toBe(false);
    expect(canMoveSca('psuIdentified', 'finalised')).toBe(false);
    expect(canMoveSca('scaMethodSelected', 'finalised')).toBe(false);
  });
});

describe('final statuses', () => {
  it('are finalised, failed and exempted', () => {
    expect([...FINAL_SCA_STATUSES].sort()).toEqual([...FINAL].sort());
  });

  it.each(FINAL)('%s is final and has no way out', (status) => {
    expect(isFinalScaStatus(status)).toBe(true);
    expect(targets(status)).toEqual([]);
  });

  it.each(OPEN)('%s is not final and has a way out', (status) => {
    expect(isFinalScaStatus(status)).toBe(false);
    expect(targets(status).length).toBeGreaterThan(0);
  });

  it('final and open statuses together are every status, each once', () => {
    expect([...FINAL_SCA_STATUSES, ...OPEN].sort()).toEqual([...SCA_STATUSES].sort());
  });
});
