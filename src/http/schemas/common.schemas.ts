import { Type, type TSchema } from 'typebox';
import type { Localized } from '../../domain/localized.js';
import { ISSUED_UUID } from '../issued-uuids.js';

/** Berlin Group `hrefType` / link object. */
export const Link = Type.Object({
  href: Type.String(),
  verbs: Type.Optional(
    Type.Array(Type.Union([Type.Literal('GET'), Type.Literal('PUT'), Type.Literal('POST'), Type.Literal('PATCH'), Type.Literal('DELETE')])),
  ),
});

/**
 * A resource id in a path or a body (paymentId, basketId, authorisationId): printable ASCII without
 * spaces. Anything else names no resource and is a 400, never a query (PostgreSQL refuses NUL in text).
 * The server issues them as lower-case UUIDs: one sent in capitals is read in lower case, in a path
 * and in a signing basket's body (http/issued-uuids.ts).
 */
export const ResourceId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[\\x21-\\x7E]+$', [ISSUED_UUID]: true });

/**
 * Marks a route's body schema as optional: a body not sent is read as `{}` (installOptionalBodies,
 * http/json-body.ts), while a JSON `null`, an array or an unknown member is refused as on every
 * other route.
 */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * Marks, on an object schema, the members the Berlin Group defines there that this bank does not
 * take, each with why. A body sending one is refused as that (400 PARAMETER_NOT_SUPPORTED naming
 * it as a Berlin Group field), not as a misspelt name: the error handler reads this beside the
 * `additionalProperties: false` that refused it (http/validation-errors.ts), so a request that
 * validates pays nothing for it. test/http/berlin-group-members.test.ts checks against the
 * Berlin Group file that every member it defines is either a property or listed here.
 */
export const BERLIN_GROUP_NOT_TAKEN = 'x-berlin-group-not-taken';
export type BerlinGroupNotTaken = Readonly<Record<string, Localized>>;

/**
 * On a string schema with a `pattern`: what the pattern asks for, in words. A value not matching
 * it is refused with these words instead of the expression (http/validation-errors.ts).
 */
export const PATTERN_TEXT = 'x-pattern-text';

/** The body of an operation that takes none (a DELETE, a sandbox action): nothing, an empty body or `{}`, which a conformant client may send. */
export const NoBody = Type.Object({}, { additionalProperties: false, description: 'None: send no body, or {}', [OPTIONAL_BODY]: true });

/** The error statuses a signed `/v1` operation can answer, for route response schemas. */
export function signedErrorResponses(extra: readonly number[] = []): Record<number, TSchema> {
  const statuses = [400, 401, 404, 405, 406, 409, 413, 415, 500, ...extra];
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('ErrorBody')]));
}

/** The request headers every `/v1` operation takes, for the OpenAPI document. */
export const SignedRequestHeaders = Type.Object({
  'x-request-id': Type.String({ format: 'uuid', description: 'UUID chosen by the TPP, echoed in the response' }),
  digest: Type.Optional(Type.String({ description: 'SHA-256=<base64> or SHA-512=<base64> of the body' })),
  date: Type.Optional(Type.String({ description: 'HTTP date; must be within the clock-skew window' })),
  signature: Type.Optional(Type.String({ description: 'draft-cavage-http-signatures-10 with keyId="SN=<serial>,CA=<issuer DN>"' })),
  'tpp-signature-certificate': Type.Optional(Type.String({ description: 'The QSealC, base64 DER or PEM' })),
});

/**
 * The status notification headers of a creating request (payment, signing basket, consent), for
 * the OpenAPI document; docs/notifications.md. The answer says ASPSP-Notification-Support and,
 * when true, ASPSP-Notification-Content.
 */
export const NotificationRequestHeaders = {
  'tpp-notification-uri': Type.Optional(
    Type.String({
      description:
        "Where the bank POSTs the resource's status changes, signed with its seal: https, on a host the TPP's certificate secures (subjectAltName or CN, subdomains included) or of its registered contact. Any other URI: ASPSP-Notification-Support: false",
    }),
  ),
  'tpp-notification-content-preferred': Type.Optional(
    Type.String({
      description: 'status=X1,…,Xn with each X one of SCA, PROCESS, LAST (default: all three); anything else is 400 FORMAT_ERROR',
    }),
  ),
} as const;
