import type { PaymentService } from './payment-products.js';
import { bodyWithStoredRemittance } from './structured-remittance.js';
import type { BulkNdctBody, PeriodicNdctBody, SinglePaymentBody } from './payment.schemas.js';

/*
 * The stored body of a payment: a typed document per service, with a version.
 *
 * The document is the request body the TPP sent, after validation against the wire schemas of
 * payment.schemas.ts (so its type is theirs, `Static<>`), with the names it was sent in: an
 * address in street/postalCode/city stays so, one in streetName/postCode/townName too. GET echoes
 * it back as it is. The only changes made before storing: periodic `executionRule: preceeding` is
 * stored as `preceding`, a KID sent in the deprecated `remittanceInformationStructured` is
 * stored in `remittanceInformationStructuredArray` (version 2 below), and a message sent as a
 * `remittanceInformationUnstructuredArray` of one is stored as `remittanceInformationUnstructured`
 * (structured-remittance.ts; no version: no stored body held the array before, it was refused).
 *
 * Where the version lives: in a column of its own, `payment.body_version` (migration 0013), not
 * in the JSON as `{ v: 1, … }`. The body is the TPP's document and is spread into the GET answer:
 * a storage key inside it would have to be stripped on every read, and a TPP member named like it
 * could never be told apart (the schemas refuse unknown members today; a later profile may not).
 * A column also costs nothing to read, lets the old versions still stored be counted and
 * upgraded with a query (`where body_version < …`), and gets its value for the rows written
 * before it from the column default, on both databases, without rewriting any JSON.
 */

/**
 * Versions of the stored body:
 * - 1: the validated request body, names as sent (only `preceeding` normalised). Every row
 *   written before the version column existed is this version too (the column's default).
 * - 2: as 1, but a transfer's structured remittance is always `remittanceInformationStructuredArray`:
 *   one sent as the single, deprecated `remittanceInformationStructured` is stored as an array of
 *   one, so GET answers the array whichever was sent. Version 1 is upgraded so when read.
 *
 * A later version adds its number here and an upgrade from the one before in
 * {@link readPaymentDocument}; {@link writePaymentDocument} writes only the newest.
 */
export const PAYMENT_BODY_VERSIONS = [1, 2] as const;
export type PaymentBodyVersion = (typeof PAYMENT_BODY_VERSIONS)[number];
export const CURRENT_PAYMENT_BODY_VERSION: PaymentBodyVersion = 2;

/** The body of each service, as the wire schemas type it. Single payments: the union of the five products' bodies. */
export interface PaymentBodies {
  payments: SinglePaymentBody;
  'bulk-payments': BulkNdctBody;
  'periodic-payments': PeriodicNdctBody;
}

export type PaymentBody<S extends PaymentService = PaymentService> = PaymentBodies[S];

/** A payment's service with its body: `service` tells which body it is, so a check of it narrows `body`. */
export type PaymentDocument<S extends PaymentService = PaymentService> = S extends PaymentService
  ? { readonly service: S; readonly body: PaymentBodies[S] }
  : never;

/** What is written to the `body` and `body_version` columns. */
export interface StoredPaymentBody {
  readonly body: string;
  readonly body_version: number;
}

/** The JSON to store for a payment's body: always the current version. */
export function writePaymentDocument(document: PaymentDocument): StoredPaymentBody {
  // The rules hand over the body in this form already; made sure of here, where the version is written.
  return { body: JSON.stringify(bodyWithStoredRemittance(document.service, document.body)), body_version: CURRENT_PAYMENT_BODY_VERSION };
}

/**
 * Reads a stored body of any version into the current document of its service. `version` null
 * or undefined is a row written before versions were stored: version 1. A version this server does
 * not know (written by a newer one) is an error, not a guess.
 *
 * The content was checked against the wire schema when it was written, so only its envelope is
 * checked here (a JSON object, with the member that tells the services apart): a full schema
 * check of every read would cost more than the bug it could find.
 */
export function readPaymentDocument<S extends PaymentService>(
  service: S,
  stored: { readonly body: string; readonly body_version?: number | string | null | undefined },
  paymentId = '',
): PaymentDocument<S> {
  const version = stored.body_version === null || stored.body_version === undefined ? 1 : Number(stored.body_version);
  const fail = (why: string): never => {
    throw new Error(`payment ${paymentId} has a stored body that cannot be read: ${why}`);
  };
  if (!(PAYMENT_BODY_VERSIONS as readonly number[]).includes(version)) fail(`unknown body version ${String(stored.body_version)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored.body);
  } catch {
    return fail('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('not a JSON object');
  const body = parsed as Record<string, unknown>;
  switch (service) {
    case 'bulk-payments':
      if (!Array.isArray(body['payments'])) fail('a bulk payment without payments');
      break;
    case 'periodic-payments':
      if (typeof body['startDate'] !== 'string' || typeof body['frequency'] !== 'string') fail('a periodic payment without its schedule');
      break;
    case 'payments':
      if (typeof body['instructedAmount'] !== 'object' || body['instructedAmount'] === null) fail('a payment without instructedAmount');
      break;
  }
  // Version 1 to 2: the deprecated single structured remittance becomes the array.
  const current = version === 1 ? bodyWithStoredRemittance(service, body) : body;
  return { service, body: current } as unknown as PaymentDocument<S>;
}
