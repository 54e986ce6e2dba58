/** A sandbox link to the PSU's own page, on one TPP's sandbox bank (migration 0022). */
export interface PsuPageLinkTable {
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  /** The TPP that obtained the link: the page opens on its sandbox bank. */
  tpp_id: string;
  created_at: string;
  expires_at: string;
}
