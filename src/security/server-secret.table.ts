/** A secret of the server (migration 0026), per purpose. */
export interface ServerSecretTable {
  purpose: string;
  /** 32 random bytes, base64url. */
  secret: string;
}
