/*
 * The ids this server issues are lower-case UUIDs (payments, consents, signing baskets,
 * authorisations, account resources, the sandbox's mock data). A UUID is the same in any letter
 * case on input (RFC 9562 §4), so a TPP that sends one it was given in capitals names the same
 * resource: wherever a request names such an id it is read by {@link issuedUuid}. Each path
 * parameter holding one is read so before its schema validates it (validation.ts), for every route
 * alike; so are the Consent-ID header of account reads (account.routes.ts), a signing basket's
 * paymentIds and consentIds (signing-basket.routes.ts), and the path a request's X-Request-ID is
 * recorded with (idempotency.plugin.ts). A value that is not UUID-shaped is left as sent and
 * compared exactly, as is any parameter not marked (a transaction id is the bank's own).
 */

/** Marks, on a path parameter's schema, an id this server issues as a lower-case UUID. */
export const ISSUED_UUID = 'x-issued-uuid';

type Schema = Readonly<Record<string, unknown>>;

const UUID_IN_ANY_CASE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parameters of a path parameters schema marked {@link ISSUED_UUID}. */
export function issuedUuidParametersOf(schema: object): readonly string[] {
  const properties = ((schema as Schema).properties ?? {}) as Readonly<Record<string, Schema>>;
  return Object.entries(properties)
    .filter(([, property]) => property[ISSUED_UUID] === true)
    .map(([name]) => name);
}

/** An id as the server issued it: a UUID in any letter case in lower case; anything else as sent. */
export function issuedUuid(value: string): string {
  return UUID_IN_ANY_CASE.test(value) ? value.toLowerCase() : value;
}

/** Writes, in place, each of `names` that holds a UUID in lower case; anything else stays as sent. */
export function adoptIssuedUuids(params: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) {
    const value = params[name];
    if (typeof value === 'string') params[name] = issuedUuid(value);
  }
}
