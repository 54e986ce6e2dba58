import { describe, expect, it } from 'vitest';
import { adoptDefinedNames, memberNamesOf } from '../../src/http/member-names.js';

const amount = { type: 'object', properties: { currency: { type: 'string' }, amount: { type: 'string' } } };
const shared: Record<string, object> = { 'amount.json': amount };
const resolve = (ref: string) => shared[ref] as Record<string, unknown> | undefined;

const schema = {
  type: 'object',
  properties: {
    startDate: { type: 'string' },
    instructedAmount: { $ref: 'amount.json' },
    payments: { type: 'array', items: { type: 'object', properties: { instructionIdentification: { type: 'string' } } } },
    account: {
      anyOf: [
        { type: 'object', properties: { iban: { type: 'string' } } },
        { type: 'object', properties: { bban: { type: 'string' } } },
      ],
    },
  },
};

function adopted(body: unknown, definition: Record<string, unknown> = schema): unknown {
  const names = memberNamesOf(definition, resolve);
  if (names) adoptDefinedNames(body, names);
  return body;
}

describe('member names in another letter case', () => {
  it('renames top-level, $ref, array-element and union members to the defined names', () => {
    expect(
      adopted({
        StartDate: '2030-01-01',
        InstructedAmount: { CURRENCY: 'NOK', Amount: '1.00' },
        Payments: [{ InstructionIdentification: 'a' }, { instructionidentification: 'b' }],
        account: { BBAN: '12345678903' },
      }),
    ).toEqual({
      startDate: '2030-01-01',
      instructedAmount: { currency: 'NOK', amount: '1.00' },
      payments: [{ instructionIdentification: 'a' }, { instructionIdentification: 'b' }],
      account: { bban: '12345678903' },
    });
  });

  it('leaves a member given under both spellings, and unknown names, as sent', () => {
    expect(adopted({ startDate: 'a', StartDate: 'b', Unknown: 1 })).toEqual({ startDate: 'a', StartDate: 'b', Unknown: 1 });
  });

  it('renames nothing to a name two defined names share in lower case', () => {
    const twins = { type: 'object', properties: { ab: { type: 'string' }, AB: { type: 'string' } } };
    expect(adopted({ Ab: 'x' }, twins)).toEqual({ Ab: 'x' });
  });

  it('has no names for a schema of plain values, and survives a recursive schema', () => {
    expect(memberNamesOf({ type: 'string' }, resolve)).toBeUndefined();
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    expect(adopted({ Child: { CHILD: {} } }, node)).toEqual({ child: { child: {} } });
  });

  it('walks a deep body without overflowing the stack', () => {
    let body: unknown = {};
    for (let depth = 0; depth < 100_000; depth++) body = [body];
    expect(() => adopted(body)).not.toThrow();
  });
});
