/**
 * The Berlin Group scaStatus of an authorisation and the one table of its legal moves (docs/design.md §3):
 * received → psuIdentified → psuAuthenticated → scaMethodSelected → started → finalised | failed.
 *
 * How the redirect pages walk it: the PSU identifies (psuIdentified), enters the right one-time
 * code (psuAuthenticated, and at once scaMethodSelected: the confirmation in the bank's own page
 * is the only method, chosen implicitly), then approves (started, then finalised in the same
 * transaction once the bank's checks pass) or rejects (failed). Any open status may fail: a
 * rejection, the third wrong code, another PSU, a missing right or expiry.
 */
export const SCA_STATUSES = [
  'received',
  'psuIdentified',
  'psuAuthenticated',
  'scaMethodSelected',
  'started',
  'finalised',
  'failed',
  'exempted',
] as const;
export type ScaStatus = (typeof SCA_STATUSES)[number];

const MOVES: Readonly<Record<ScaStatus, readonly ScaStatus[]>> = {
  received: ['psuIdentified', 'failed'],
  psuIdentified: ['psuAuthenticated', 'failed'],
  psuAuthenticated: ['scaMethodSelected', 'finalised', 'failed'],
  scaMethodSelected: ['started', 'failed'],
  started: ['finalised', 'failed'],
  finalised: [],
  failed: [],
  exempted: [],
};

/** Statuses an authorisation never leaves. */
export const FINAL_SCA_STATUSES: readonly ScaStatus[] = ['finalised', 'failed', 'exempted'];

export function isScaStatus(value: string): value is ScaStatus {
  return (SCA_STATUSES as readonly string[]).includes(value);
}

export function isFinalScaStatus(status: ScaStatus): boolean {
  return FINAL_SCA_STATUSES.includes(status);
}

export function canMoveSca(from: ScaStatus, to: ScaStatus): boolean {
  return MOVES[from].includes(to);
}

declare const approvedByTable: unique symbol;

/**
 * A move the table allows. Only {@link approvedScaMove} makes one, and the repository writes an
 * scaStatus only from one: no code path can store a status the table did not approve.
 */
export interface ScaMove {
  readonly from: ScaStatus;
  readonly to: ScaStatus;
  readonly [approvedByTable]: true;
}

/** The move from `from` to `to`, or undefined when the table does not allow it. */
export function approvedScaMove(from: ScaStatus, to: ScaStatus): ScaMove | undefined {
  return canMoveSca(from, to) ? ({ from, to } as ScaMove) : undefined;
}
