/** A PSU access token (stored as its SHA-256 only). */
export interface PsuTokenTable {
  token_hash: string;
  tpp_id: string;
  psu_id: string;
  /** The PSU login it was exchanged for. */
  login_id: string;
  expires_at: string;
  created_at: string;
}
