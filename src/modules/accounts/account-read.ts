import type { AcceptFixName } from '../../domain/accept-fix.js';
import type { TppIdentity } from '../../security/tpp-identity.js';

/** A read of account information: who, under which consent, with which accept-fixes asked. */
export interface AccountRead {
  readonly tpp: TppIdentity;
  readonly consentId: string;
  readonly acceptFixes: ReadonlySet<AcceptFixName>;
  readonly requestId: string;
  /** Whether the PSU takes part now (the request carries PSU-IP-Address): else frequencyPerDay counts. */
  readonly psuPresent: boolean;
}

/** A read's body, and the headers that go with it (the rate-limit fields of a read without the PSU). */
export interface ReadAnswer {
  readonly body: Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
}
