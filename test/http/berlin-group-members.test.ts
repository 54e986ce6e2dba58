/**
 * Every member the Berlin Group 1.3.12 file defines in a request body this bank serves is either a
 * property of our schema or listed beside it as not taken (BERLIN_GROUP_NOT_TAKEN), at every
 * depth: so a TPP sending one is never told to check its spelling. And nothing is listed as not
 * taken that the standard does not define there, or that the schema takes.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BERLIN_GROUP_NOT_TAKEN } from '../../src/http/schemas/common.schemas.js';
import { ConsentBody } from '../../src/modules/consents/consent.schemas.js';
import { FundsConfirmationBody } from '../../src/modules/funds-confirmations/funds-confirmation.schemas.js';
import {
  BulkNdctBody,
  CbctBody,
  IndctsBody,
  NcbctBody,
  NdctBody,
  PeriodicNdctBody,
  SctBody,
} from '../../src/modules/payments/payment.schemas.js';
import { SigningBasketBody } from '../../src/modules/signing-baskets/signing-basket.schemas.js';
import { fixture } from '../support/fixtures.js';

type Node = Record<string, unknown>;
const standard = (parse(fixture('berlin-group/psd2-api_v1.3.12-2022-07-06.yaml')) as { components: { schemas: Record<string, Node> } })
  .components.schemas;

function resolved(node: Node): Node {
  const ref = node['$ref'];
  return typeof ref === 'string' ? resolved(standard[ref.replace('#/components/schemas/', '')]!) : node;
}

/** The object schemas below a member: itself, or its array's items. */
function objectOf(node: Node | undefined): Node | undefined {
  if (node === undefined) return undefined;
  const schema = resolved(node);
  if (schema['type'] === 'array' && schema['items']) return objectOf(schema['items'] as Node);
  return schema['properties'] ? schema : undefined;
}

/** Each member of the standard's body, at every depth, that ours neither takes nor lists as not taken; and each listed one it does not define. */
function gaps(theirs: Node, ours: Node, path = ''): string[] {
  const theirMembers = (theirs['properties'] ?? {}) as Record<string, Node>;
  const ourMembers = (ours['properties'] ?? {}) as Record<string, Node>;
  const notTaken = (ours[BERLIN_GROUP_NOT_TAKEN] ?? {}) as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, member] of Object.entries(theirMembers)) {
    if (name in notTaken) continue;
    if (!(name in ourMembers)) {
      found.push(`${path}${name} is neither taken nor listed as not taken`);
      continue;
    }
    const theirObject = objectOf(member);
    const ourObject = objectOf(ourMembers[name]);
    if (theirObject && ourObject) found.push(...gaps(theirObject, ourObject, `${path}${name}.`));
  }
  for (const name of Object.keys(notTaken)) {
    if (!(name in theirMembers)) found.push(`${path}${name} is listed as not taken but the standard does not define it here`);
    if (name in ourMembers) found.push(`${path}${name} is listed as not taken but is taken`);
  }
  return found;
}

const BODIES: [string, string, object][] = [
  ['NDCT', 'paymentInitiation_json', NdctBody],
  ['INDCTS', 'paymentInitiation_json', IndctsBody],
  ['NCBCT', 'paymentInitiation_json', NcbctBody],
  ['CBCT', 'paymentInitiation_json', CbctBody],
  ['SCT', 'paymentInitiation_json', SctBody],
  ['bulk NDCT', 'bulkPaymentInitiation_json', BulkNdctBody],
  ['periodic NDCT', 'periodicPaymentInitiation_json', PeriodicNdctBody],
  ['signing basket', 'signingBasket', SigningBasketBody],
  ['consent', 'consents', ConsentBody],
  ['funds confirmation', 'confirmationOfFunds', FundsConfirmationBody],
];

describe('Berlin Group members of the request bodies', () => {
  it.each(BODIES)('the %s body takes every member of %s or lists it as not taken', (_, name, ours) => {
    expect(gaps(standard[name]!, ours as Node)).toEqual([]);
  });

  it('finds a member that is neither (the check checks)', () => {
    const { chargeBearer: _, ...properties } = NdctBody.properties;
    expect(gaps(standard['paymentInitiation_json']!, { ...NdctBody, properties })).toEqual([
      'chargeBearer is neither taken nor listed as not taken',
    ]);
  });
});
