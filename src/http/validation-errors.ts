import { localized } from '../domain/localized.js';
import { AppError } from '../errors/app-error.js';
import { BERLIN_GROUP_NOT_TAKEN, type BerlinGroupNotTaken } from './schemas/common.schemas.js';

/**
 * A schema validation failure in the TPP's terms. Only a request that already failed validation
 * gets here, so reading the route's schema to say more (a Berlin Group field the bank does not
 * take) costs a request that validates nothing.
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
  return new AppError('FORMAT_ERROR', { detail: `${path} ${describe(first)}`, path });
}

function describe(first: ValidationIssue): string {
  switch (first.keyword) {
    case 'required':
      return 'is missing';
    case 'additionalProperties':
      return 'is not a field of this request (check its spelling)';
    default:
      return first.message ?? 'is not valid';
  }
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

export function validationPath(context: string | undefined, issue: ValidationIssue): string {
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
