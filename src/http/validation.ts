import AjvModule, { type Ajv as AjvInstance, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { DeferredCompiles } from './deferred-compiles.js';
import { adoptIssuedUuids, issuedUuidParametersOf } from './issued-uuids.js';
import { adoptDefinedNames, memberNamesOf } from './member-names.js';
import { adoptQueryNames, queryNamesOf } from './query-names.js';

// ajv and ajv-formats are CommonJS modules with a `default` export.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

/**
 * Route schema validation with two rule sets. Bodies are strict: a number where the schema wants
 * a string is refused, never converted (docs/design.md §2: a numeric amount is a 400), and unknown
 * properties are kept so `additionalProperties: false` can refuse them. Query strings, path
 * parameters and headers are text on the wire, so they are converted to the schema's type; query
 * names are first read by the rules of query-names.ts, and an id the server issued, in a path
 * parameter, by those of issued-uuids.ts.
 */
export function installValidators(app: FastifyInstance, deferred: DeferredCompiles): void {
  const body = newAjv(false);
  const text = newAjv('array');
  // Schemas registered with app.addSchema, so `$ref`s in route schemas resolve: added before the
  // first compile, when every one is registered.
  const sharedSchemas = deferred.defer(() => {
    for (const shared of Object.values(app.getSchemas())) {
      body.addSchema(shared as object);
      text.addSchema(shared as object);
    }
    return true;
  });
  const compiled = new Map<string, ValidateFunction>();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    // Routes share schemas (every /v1 route takes the same headers): each distinct one is compiled once.
    const key = `${httpPart === 'body' || httpPart === 'querystring' || httpPart === 'params' ? httpPart : 'text'} ${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = deferredValidator(
        deferred.defer(() => {
          sharedSchemas();
          if (httpPart === 'body') return bodyValidator(body, schema as Record<string, unknown>);
          if (httpPart === 'querystring') return queryValidator(text, schema as Record<string, unknown>);
          if (httpPart === 'params') return paramsValidator(text, schema as Record<string, unknown>);
          return text.compile(schema);
        }),
      );
      compiled.set(key, validate);
    }
    return validate;
  });
}

/** A validator that compiles when it first validates (or when the server warms up), answering as the compiled one. */
function deferredValidator(compiledValidator: () => ValidateFunction): ValidateFunction {
  const validate = ((data: unknown) => {
    const compiled = compiledValidator();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}

function bodyValidator(ajv: AjvInstance, schema: Record<string, unknown>): ValidateFunction {
  const validate = ajv.compile(schema);
  const names = memberNamesOf(schema, (ref) => ajv.getSchema(ref)?.schema as Record<string, unknown> | undefined);
  if (!names) return validate;
  const withDefinedNames = ((data: unknown) => {
    adoptDefinedNames(data, names);
    const valid = validate(data);
    withDefinedNames.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return withDefinedNames;
}

function queryValidator(ajv: AjvInstance, schema: Record<string, unknown>): ValidateFunction {
  const validate = ajv.compile(schema);
  const names = queryNamesOf(schema);
  const withQueryNames = ((data: unknown) => {
    const issue = typeof data === 'object' && data !== null ? adoptQueryNames(data as Record<string, unknown>, names) : undefined;
    if (issue) {
      withQueryNames.errors = [issue];
      return false;
    }
    const valid = validate(data);
    withQueryNames.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return withQueryNames;
}

function paramsValidator(ajv: AjvInstance, schema: Record<string, unknown>): ValidateFunction {
  const validate = ajv.compile(schema);
  const issued = issuedUuidParametersOf(schema);
  if (issued.length === 0) return validate;
  const withIssuedUuids = ((data: unknown) => {
    if (typeof data === 'object' && data !== null) adoptIssuedUuids(data as Record<string, unknown>, issued);
    const valid = validate(data);
    withIssuedUuids.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return withIssuedUuids;
}

function newAjv(coerceTypes: false | 'array'): AjvInstance {
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}
