import { describe, expect, it } from 'vitest';
import { validationAppError, type ValidationIssue } from '../../src/http/validation-errors.js';

const detail = (issues: ValidationIssue[], schemas?: Record<string, unknown>) => validationAppError(issues, 'body', schemas).detail?.en;

describe('validation texts from ajv errors', () => {
  it('names the value of a const', () => {
    expect(
      detail([{ instancePath: '/kind', schemaPath: '#/properties/kind/const', keyword: 'const', params: { allowedValue: 'SCOR' } }]),
    ).toBe('kind must be "SCOR"');
  });

  it('lists the values of an enum', () => {
    expect(
      detail([{ instancePath: '/a', schemaPath: '#/properties/a/enum', keyword: 'enum', params: { allowedValues: ['x', 'y'] } }]),
    ).toBe('a must be one of "x" or "y"');
  });

  it('lists the literals of a union, from the errors of its branches', () => {
    const issues: ValidationIssue[] = [
      { instancePath: '/a', schemaPath: '#/properties/a/anyOf/0/const', keyword: 'const', params: { allowedValue: 'x' } },
      { instancePath: '/a', schemaPath: '#/properties/a/anyOf/1/const', keyword: 'const', params: { allowedValue: 'y' } },
      { instancePath: '/a', schemaPath: '#/properties/a/anyOf/2/const', keyword: 'const', params: { allowedValue: 'z' } },
      { instancePath: '/a', schemaPath: '#/properties/a/anyOf', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
    ];
    expect(detail(issues)).toBe('a must be one of "x", "y" or "z"');
  });

  it('keeps the first message of a union whose branches are not all literals', () => {
    const issues: ValidationIssue[] = [
      {
        instancePath: '/a',
        schemaPath: '#/properties/a/anyOf/0/const',
        keyword: 'const',
        params: { allowedValue: 'x' },
        message: 'must be equal to constant',
      },
      {
        instancePath: '/a',
        schemaPath: '#/properties/a/anyOf/1/type',
        keyword: 'type',
        params: { type: 'object' },
        message: 'must be object',
      },
      { instancePath: '/a', schemaPath: '#/properties/a/anyOf', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
    ];
    expect(detail(issues)).toBe('a must be equal to constant');
  });

  it("says a pattern in its schema's words, and shows the pattern of a schema without them", () => {
    const issue: ValidationIssue = {
      instancePath: '/name',
      schemaPath: '#/properties/name/pattern',
      keyword: 'pattern',
      params: { pattern: '^\\S+$' },
      message: 'must match pattern "^\\S+$"',
    };
    const schema = (extra: object) => ({ type: 'object', properties: { name: { type: 'string', pattern: '^\\S+$', ...extra } } });
    expect(detail([issue], { body: schema({ 'x-pattern-text': 'must hold no spaces' }) })).toBe('name must hold no spaces');
    expect(detail([issue], { body: schema({}) })).toBe('name must match pattern "^\\S+$"');
    expect(detail([issue])).toBe('name must match pattern "^\\S+$"');
  });
});
