/**
 * The sandbox certificate desk's memory (docs/design.md §5): the public key an organisation id was first
 * certified for, and the key after each proven rotation.
 */
export interface SandboxKeyBindingTable {
  organization_identifier: string;
  /** SHA-256 of the bound key's SubjectPublicKeyInfo DER, lower-case hex. */
  public_key_sha256: string;
  bound_at: string;
  rotated_at: string | null;
}
