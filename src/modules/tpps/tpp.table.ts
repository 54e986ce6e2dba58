/** A TPP as recorded on its first signed request, refreshed when its certificate changes. */
export interface TppTable {
  /** organizationIdentifier of the QSealC, e.g. PSDNO-FSA-123456789. */
  id: string;
  name: string;
  nca_id: string;
  /** Comma-separated PSD2 roles. */
  roles: string;
  certificate_fingerprint: string;
  certificate_serial: string;
  certificate_issuer: string;
  first_seen_at: string;
  last_certificate_at: string;
}

/** The TPP dialogue contact: one official mailbox per TPP. */
export interface TppContactTable {
  tpp_id: string;
  email: string;
  updated_at: string;
  updated_by_request_id: string;
}
