/** A TPP's own price list for instant payments in its sandbox (migration 0019); no row: the default list. */
export interface SandboxInstantPaymentFeeTable {
  tpp_id: string;
  /** JSON: the tiers as `[{ fromAmount, fee }]`, NOK amount strings (instant-payment-fee.ts). */
  tiers: string;
  changed_at: string;
}
