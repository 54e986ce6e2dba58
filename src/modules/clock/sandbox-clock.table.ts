/** How far a TPP has moved its sandbox clock ahead of the real one (migration 0008). */
export interface SandboxClockTable {
  tpp_id: string;
  /** Milliseconds added to the real clock; bigint, read with `cast(… as text)`. */
  offset_ms: bigint | number | string;
  changed_at: string;
}
