import { localized } from '../domain/localized.js';
import { AppError } from '../errors/app-error.js';
import { BERLIN_GROUP_NOT_TAKEN, PATTERN_TEXT, type BerlinGroupNotTaken } from './schemas/common.schemas.js';

/**
 * A schema validation failure in the TPP's terms: the field, and what it may hold. Only a request
 * that already failed validation gets here, so reading the route's schema to say more (a Berlin
 * Group field the bank does not take, the values a field allows, what a pattern means) costs a
 * request that validates nothing.
 */

/** An ajv error as Fastify hands it over. */
export interface ValidationIssue {
  readonly instancePath: string;
  readonly schemaPath?: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

type Schema = Readonly<Record<string, unknown>>;

/** The route's schemas by part (`request.routeOptions.schema`). */
export type RouteSchemas = Readonly<Partial<Record<string, unknown>>>;

export function validationAppError(issues: readonly ValidationIssue[], context: string | undefined, schemas?: RouteSchemas): AppError {
  const first = issues[0];
  if (!first) return new AppError('FORMAT_ERROR', { detail: 'is not valid' });
  const root = schemaOfPart(schemas, context);
  const path = validationPath(context, first);
  if (first.keyword === 'additionalProperties') {
    const reason = notTakenReason(root, first);
    if (reason) {
      return new AppError('PARAMETER_NOT_SUPPORTED', {
        path,
        detail: localized(
          `${path} is a Berlin Group field this bank does not support: ${reason.en}`,
          `${path} er et Berlin Group-felt denne banken ikke støtter: ${reason.nb}`,
        ),
      });
    }
  }
  return new AppError('FORMAT_ERROR', { detail: `${path} ${describe(first, issues, root)}`, path });
}

function describe(first: ValidationIssue, issues: readonly ValidationIssue[], root: Schema | undefined): string {
  switch (first.keyword) {
    case 'required':
      return 'is missing';
    case 'additionalProperties':
      return 'is not a field of this request (check its spelling)';
    case 'const':
    case 'enum':
      return allowedValuesText(first, issues);
    case 'pattern': {
      const words = schemaAt(root, parentPath(first.schemaPath))?.[PATTERN_TEXT];
      return typeof words === 'string' ? words : (first.message ?? 'is not valid');
    }
    case 'minLength':
      return first.params['limit'] === 1 ? 'must not be empty' : (first.message ?? 'is not valid');
    default:
      return first.message ?? 'is not valid';
  }
}

/**
 * The values a `const` or `enum` allows. A union of literals (TypeBox writes it as an `anyOf` of
 * `const`s) fails with one error per literal and then the `anyOf`'s own: all of them are listed.
 */
function allowedValuesText(first: ValidationIssue, issues: readonly ValidationIssue[]): string {
  const union = issues.find(
    (issue) =>
      issue.keyword === 'anyOf' &&
      issue.instancePath === first.instancePath &&
      issue.schemaPath !== undefined &&
      first.schemaPath?.startsWith(`${issue.schemaPath}/`) === true,
  );
  const alternatives = union ? issues.filter((issue) => issue.schemaPath?.startsWith(`${union.schemaPath}/`)) : [first];
  const values: unknown[] = [];
  for (const issue of alternatives) {
    const literal =
      issue.instancePath !== first.instancePath
        ? undefined
        : issue.keyword === 'const'
          ? [issue.params['allowedValue']]
          : issue.keyword === 'enum' && Array.isArray(issue.params['allowedValues'])
            ? (issue.params['allowedValues'] as unknown[])
            : undefined;
    // A branch that is not a literal: the values alone would not say what is allowed.
    if (literal === undefined) return first.message ?? 'is not valid';
    values.push(...literal);
  }
  const texts = [...new Set(values.map((value) => JSON.stringify(value)))];
  if (texts.length === 1) return `must be ${texts[0]!}`;
  return `must be one of ${texts.slice(0, -1).join(', ')} or ${texts.at(-1)!}`;
}

/** Why the Berlin Group member an `additionalProperties: false` refused is not taken, if it is one (letter case aside). */
function notTakenReason(root: Schema | undefined, issue: ValidationIssue) {
  const name = issue.params['additionalProperty'];
  if (typeof name !== 'string') return undefined;
  const notTaken = schemaAt(root, parentPath(issue.schemaPath))?.[BERLIN_GROUP_NOT_TAKEN] as BerlinGroupNotTaken | undefined;
  if (!notTaken) return undefined;
  const lower = name.toLowerCase();
  const member = Object.keys(notTaken).find((defined) => defined.toLowerCase() === lower);
  return member === undefined ? undefined : notTaken[member];
}

function schemaOfPart(schemas: RouteSchemas | undefined, context: string | undefined): Schema | undefined {
  const part = context === 'querystring' ? (schemas?.['querystring'] ?? schemas?.['query']) : context ? schemas?.[context] : undefined;
  return isSchema(part) ? part : undefined;
}

/** `#/properties/a/items/additionalProperties` → `#/properties/a/items`. */
function parentPath(schemaPath: string | undefined): string | undefined {
  if (schemaPath === undefined) return undefined;
  const end = schemaPath.lastIndexOf('/');
  return end < 0 ? undefined : schemaPath.slice(0, end);
}

/** The schema at an ajv schema path within the route's schema; undefined past a `$ref` (a path then leaves this schema). */
function schemaAt(root: Schema | undefined, schemaPath: string | undefined): Schema | undefined {
  if (root === undefined || schemaPath === undefined || !schemaPath.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of schemaPath.slice(1).split('/').slice(1)) {
    const segment = decodedFragment(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return isSchema(node) ? node : undefined;
}

/** ajv writes a schema path as a URI fragment. */
function decodedFragment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validationPath(context: string | undefined, issue: ValidationIssue): string {
  const segments = issue.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = issue.params['missingProperty'] ?? issue.params['additionalProperty'];
  if (typeof extra === 'string') {
    segments.push(extra);
  }
  const path = segments.reduce((acc, segment) => (/^\d+$/.test(segment) ? `${acc}[${segment}]` : acc ? `${acc}.${segment}` : segment), '');
  if (context === 'headers' || context === 'params' || context === 'querystring') {
    return path || context;
  }
  return path || 'body';
}
