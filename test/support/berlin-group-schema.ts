import AjvModule, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { fixture } from './fixtures.js';

/**
 * Validators for the Berlin Group NextGenPSD2 1.3.12 schemas (test/fixtures/berlin-group, CC BY
 * 4.0, © The Berlin Group), so API tests check our bodies against the standard itself.
 */
const document = parse(fixture('berlin-group/psd2-api_v1.3.12-2022-07-06.yaml')) as { components: { schemas: Record<string, unknown> } };
// ajv and ajv-formats are CommonJS with a `default` export.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
// unicodeRegExp off: the standard's patterns escape characters (`\-`) that a /u expression refuses.
const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
addFormats(ajv);
ajv.addSchema({ $id: 'bg', components: withNumericExclusiveBounds(document.components) });
const cache = new Map<string, ValidateFunction>();

/**
 * OpenAPI 3.0 writes an exclusive bound as `minimum: n, exclusiveMinimum: true` (frequencyPerDay);
 * JSON Schema, which ajv speaks, as `exclusiveMinimum: n`.
 */
function withNumericExclusiveBounds<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withNumericExclusiveBounds) as T;
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = withNumericExclusiveBounds(value);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof copy[flag] === 'boolean') {
      if (copy[flag] === true) copy[flag] = copy[bound];
      else delete copy[flag];
      if (copy[flag] !== undefined) delete copy[bound];
    }
  }
  return copy as T;
}

/** Asserts that `body` matches `#/components/schemas/<name>` of the standard. */
export function expectBerlinGroupSchema(name: string, body: unknown): void {
  const validate = cache.get(name) ?? ajv.compile({ $ref: `bg#/components/schemas/${name}` });
  cache.set(name, validate);
  if (!validate(body)) {
    throw new Error(`body does not match Berlin Group schema ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
}
