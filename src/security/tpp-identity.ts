/**
 * PSD2 roles of a payment service provider, as ETSI TS 119 495 puts them in the QSealC's PSD2
 * QCStatement: account servicing (AS), payment initiation (PI), account information (AI) and
 * issuing of card-based payment instruments (IC).
 */
export const PSD2_ROLES = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'] as const;
export type Psd2Role = (typeof PSD2_ROLES)[number];

export function isPsd2Role(value: string): value is Psd2Role {
  return (PSD2_ROLES as readonly string[]).includes(value);
}

/** Who a verified request came from: what its QSealC says about the TPP. */
export interface TppIdentity {
  /** organizationIdentifier of the certificate, e.g. `PSDNO-FSA-123456789`. */
  readonly id: string;
  readonly name: string;
  readonly roles: readonly Psd2Role[];
  /** The national competent authority, e.g. `NO-FSA`. */
  readonly ncaId: string;
  /** SHA-256 of the certificate's DER bytes, lower-case hex. */
  readonly certificateFingerprint: string;
  readonly certificateSerial: string;
  readonly certificateIssuer: string;
  /** SHA-256 of the certificate's public key (SubjectPublicKeyInfo DER), lower-case hex. */
  readonly publicKeyFingerprint: string;
  /**
   * The domains the certificate secures: its subjectAltName DNS names and IP addresses, and its CN
   * when that is a host name. Where the bank may send the TPP's status notifications. Absent: none.
   */
  readonly domains?: readonly string[];
}
