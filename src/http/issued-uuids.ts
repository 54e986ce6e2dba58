/*
 * The ids this server issues are lower-case UUIDs (payments, consents, signing baskets,
 * authorisations, account resources, the sandbox's mock data). A UUID is the same in any letter
 * case on input (RFC 9562 §4), so a TPP that sends one it was given in capitals names the same
 * resource: each path parameter holding such an id is read in lower case before its schema
 * validates it (validation.ts), for every route alike. A value that is not UUID-shaped is left as
 * sent and compared exactly, as is any parameter not marked (a transaction id is the bank's own).
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

/** Writes, in place, each of `names` that holds a UUID in lower case; anything else stays as sent. */
export function adoptIssuedUuids(params: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) {
    const value = params[name];
    if (typeof value === 'string' && UUID_IN_ANY_CASE.test(value)) params[name] = value.toLowerCase();
  }
}
