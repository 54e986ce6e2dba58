/** A signing basket (migration 0006). Its status is not stored: it is computed from its payments. */
export interface SigningBasketTable {
  id: string;
  tpp_id: string;
  /** The PSU who approves it (PSU-ID or PSU access token at creation). */
  psu_id: string;
  psu_corporate_id: string | null;
  /** JSON array of the payment ids, in the order the TPP listed them. */
  payment_ids: string;
  request_id: string;
  /** JSON: redirect URIs, PSU context headers and preferences sent with the creation. */
  request_context: string;
  created_at: string;
  /** Set by DELETE: the basket is cancelled and its payments are free again. */
  deleted_at: string | null;
}
