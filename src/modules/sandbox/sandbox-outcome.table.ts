/** The sandbox bank's outcome feed (migration 0012): each executed or rejected payment once. */
export interface SandboxPaymentOutcomeTable {
  /** Assigned from {@link SandboxOutcomeSequenceTable} under its row lock: commit order. */
  seq: string | number | bigint;
  payment_id: string;
  /** 0 for a single payment, n for a bulk's n-th payment. */
  item: number;
  /** executed | rejected */
  kind: string;
  reason: string | null;
  recorded_at: string;
}

/** One row (id 1): the last sequence number given. */
export interface SandboxOutcomeSequenceTable {
  id: number;
  last_seq: string | number | bigint;
}
